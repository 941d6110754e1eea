package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Models that cannot be run, and sessions used beyond their limits, fail with clear messages. */
class ModelErrorsTest {

    private static final ModelOptions SCALAR = new ModelOptions(BackendKind.SCALAR, 1);

    @TempDir
    Path dir;

    @Test
    void readsTheConfigurationFromMetadata() throws Exception {
        Path p = TinyGguf.model("qwen2", GgmlType.Q8_0, true).write(dir.resolve("q.gguf"));
        try (LlamaModel m = LlamaModel.load(p, SCALAR)) {
            Configuration c = m.config();
            assertEquals(Architecture.QWEN2, c.architecture());
            assertEquals(TinyGguf.DIM, c.dim());
            assertEquals(TinyGguf.KV_HEADS, c.kvHeads());
            assertEquals(TinyGguf.DIM / TinyGguf.HEADS, c.headSize());
            assertEquals(TinyGguf.VOCAB, c.vocabSize());
            assertTrue(c.tiedOutput());
            assertEquals(RopeStyle.NEOX, c.architecture().ropeStyle());
            assertTrue(m.weightBytes() > 0);
        }
    }

    @Test
    void unknownArchitectureIsNamedWithTheSupportedOnes() throws Exception {
        Path p = TinyGguf.model("llama", GgmlType.F32, false).put("general.architecture", "mamba").write(dir.resolve("a.gguf"));
        GgufException e = assertThrows(GgufException.class, () -> LlamaModel.load(p, SCALAR));
        assertEquals("unsupported model architecture 'mamba': expected one of llama, qwen2, qwen3, gemma3, phi3", e.getMessage());
    }

    @Test
    void missingTensorIsNamed() throws Exception {
        Path p = TinyGguf.model("llama", GgmlType.F32, false).remove("blk.1.ffn_up.weight").write(dir.resolve("m.gguf"));
        GgufException e = assertThrows(GgufException.class, () -> LlamaModel.load(p, SCALAR));
        assertTrue(e.getMessage().contains("expected a tensor blk.1.ffn_up.weight of [64, 96] but found none"), e.getMessage());
    }

    @Test
    void wrongShapeSaysWhatWasExpected() throws Exception {
        Path p = TinyGguf.model("llama", GgmlType.F32, false).reshape("blk.1.attn_k.weight", 64, 64).write(dir.resolve("s.gguf"));
        GgufException e = assertThrows(GgufException.class, () -> LlamaModel.load(p, SCALAR));
        assertTrue(e.getMessage().contains("expected blk.1.attn_k.weight of [64, 32] but found [64, 64]"), e.getMessage());
    }

    @Test
    void sessionLimitsAreEnforced() throws Exception {
        Path p = TinyGguf.model("llama", GgmlType.Q8_0, false).write(dir.resolve("c.gguf"));
        try (LlamaModel m = LlamaModel.load(p, SCALAR)) {
            IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> m.newSession(TinyGguf.CONTEXT + 1));
            assertTrue(big.getMessage().contains("expected a context length from 1 to the model's 128 but found 129"),
                    big.getMessage());
            try (InferenceSession s = m.newSession(8)) {
                s.ingest(new int[] {1, 2, 3, 4, 5, 6});
                IllegalArgumentException full = assertThrows(IllegalArgumentException.class, () -> s.ingest(new int[] {1, 2, 3}));
                assertTrue(full.getMessage().startsWith("context exceeded: expected at most 2 more tokens"), full.getMessage());
                assertEquals(6, s.position(), "a rejected ingest changes nothing");
                assertThrows(IndexOutOfBoundsException.class, () -> s.ingest(new int[] {TinyGguf.VOCAB}));
                assertThrows(IllegalArgumentException.class, () -> s.rewind(7));
                s.rewind(2);
                assertEquals(2, s.position());
            }
        }
    }
}
