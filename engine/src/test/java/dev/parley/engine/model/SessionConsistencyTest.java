package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The KV cache, chunked prefill and rewinding give the same logits as recomputing from scratch, to the bit on both
 * backends (the vector kernels do one arithmetic whatever the number of tokens and whether the JIT has compiled them:
 * with {@code reduceLanes} the token-by-token logits were 2e-6 off), and the vector backend agrees with the scalar one
 * on whole models of every tensor type.
 */
class SessionConsistencyTest {

    private static final int[] PROMPT = new int[41];

    static {
        for (int i = 0; i < PROMPT.length; i++) {
            PROMPT[i] = 1 + (i * 7919) % 31000;
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = BackendKind.class, names = {"SCALAR", "VECTOR"})
    void cachedDecodingEqualsRecomputing(BackendKind backend) throws Exception {
        Path p = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        try (LlamaModel m = LlamaModel.load(p, new ModelOptions(backend, 2))) {
            float[] full;
            try (InferenceSession s = m.newSession(128)) {
                full = s.ingest(PROMPT);
            }
            try (InferenceSession s = m.newSession(128, 16)) {
                s.ingest(java.util.Arrays.copyOf(PROMPT, 30));
                float[] last = null;
                for (int i = 30; i < PROMPT.length; i++) {
                    last = s.ingest(new int[] {PROMPT[i]});
                }
                assertClose(full, last, 0f, "token by token after a 30-token prefill");
            }
            for (int chunk : new int[] {1, 7, 64}) {
                try (InferenceSession s = m.newSession(128, chunk)) {
                    assertClose(full, s.ingest(PROMPT), 0f, "chunks of " + chunk);
                }
            }
            try (InferenceSession s = m.newSession(128)) {
                s.ingest(new int[] {5, 6, 7, 8, 9, 10, 11});
                s.rewind(0);
                assertClose(full, s.ingest(PROMPT), 0f, "after rewinding a different prefix away");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = GgmlType.class, names = {"F32", "F16", "BF16", "Q8_0", "Q4_0"})
    void vectorAgreesWithScalarOnWholeModels(GgmlType type) throws Exception {
        for (String arch : new String[] {"llama", "qwen2"}) {
            Path p = TinyGguf.model(arch, type, arch.equals("qwen2")).write(dir.resolve(arch + "-" + type + ".gguf"));
            int[] tokens = {1, 17, 42, 3, 95, 60, 8, 8, 23, 77};
            float[] expected;
            try (LlamaModel m = LlamaModel.load(p, new ModelOptions(BackendKind.SCALAR, 1));
                 InferenceSession s = m.newSession(64)) {
                expected = s.ingest(tokens);
                expected = s.ingest(new int[] {4});
            }
            try (LlamaModel m = LlamaModel.load(p, new ModelOptions(BackendKind.VECTOR, 3));
                 InferenceSession s = m.newSession(64, 4)) {
                s.ingest(tokens);
                float[] actual = s.ingest(new int[] {4});
                float scale = 0;
                for (float v : expected) {
                    scale = Math.max(scale, Math.abs(v));
                }
                assertTrue(scale > 0.1f, "logits are not degenerate");
                // Quantized types may flip a rounding of an activation: allow a small fraction of the range.
                float tol = type.blockSize() > 1 ? 0.02f * scale : 1e-3f * scale;
                assertClose(expected, actual, tol, arch + " " + type);
            }
        }
    }

    private static void assertClose(float[] expected, float[] actual, float tol, String what) {
        assertEquals(expected.length, actual.length, what);
        float max = 0;
        for (int i = 0; i < expected.length; i++) {
            max = Math.max(max, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(max <= tol, what + ": logits differ by up to " + max + ", expected at most " + tol);
    }
}
