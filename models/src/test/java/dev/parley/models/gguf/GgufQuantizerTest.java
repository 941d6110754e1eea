package dev.parley.models.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code models quantize} on a synth F32 model: every tensor gets llama.cpp's type for the mix, norms and metadata
 * are copied, and the dequantized weights stay within each type's error bound of the float source.
 */
class GgufQuantizerTest {

    @TempDir
    static Path dir;
    private static Path f32;

    @BeforeAll
    static void source() throws IOException {
        f32 = dir.resolve("f32.gguf");
        ModelShape shape = ModelShape.parse("tiny:dim=256,heads=4,kv=2,ffn=512,layers=4,vocab=300");
        new Synth(2).write(new SynthSpec("llama", shape, GgmlType.F32, null, 9, null), f32);
    }

    /** RMS error bound per type, as a fraction of the tensor's RMS (KQuantEncoderTest measures the blocks). */
    private static double bound(GgmlType t) {
        return switch (t) {
            case Q4_K -> 0.10;
            case Q5_K -> 0.055;
            case Q6_K -> 0.026;
            case Q8_0 -> 0.01;
            default -> 0;
        };
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"Q4_K_M, Q4_K", "Q5_K_M, Q5_K", "Q6_K, Q6_K", "Q8_0, Q8_0"})
    void quantizedTensorsFollowTheMixAndStayNearTheSource(QuantMix mix, GgmlType base) throws IOException {
        Path out = dir.resolve(mix + ".gguf");
        List<Double> progress = new ArrayList<>();
        GgufQuantizer.Result r = new GgufQuantizer(2).quantize(f32, out, mix, progress::add);
        assertEquals(1.0, progress.getLast());
        assertTrue(r.bytes() < Files.size(f32) / 3, "smaller than the source");
        try (GgufFile a = GgufFile.open(f32); GgufFile b = GgufFile.open(out)) {
            assertEquals(mix.fileType(), b.getInt("general.file_type"));
            assertEquals(a.getString("general.name"), b.getString("general.name"));
            assertEquals(a.tensors().size(), b.tensors().size());
            boolean kMix = mix == QuantMix.Q4_K_M || mix == QuantMix.Q5_K_M;
            for (GgufTensorInfo ta : a.tensors()) {
                GgufTensorInfo tb = b.tensor(ta.name());
                assertArrayEquals(ta.dims(), tb.dims(), ta.name());
                String n = ta.name();
                GgmlType expected;
                if (ta.rank() == 1) {
                    expected = GgmlType.F32;
                } else if (n.equals("output.weight")) {
                    expected = base == GgmlType.Q8_0 ? GgmlType.Q8_0 : GgmlType.Q6_K;
                } else if (kMix && (n.equals("blk.2.attn_v.weight") || n.equals("blk.3.attn_v.weight")
                        || n.equals("blk.2.ffn_down.weight") || n.equals("blk.3.ffn_down.weight"))) {
                    expected = GgmlType.Q6_K;
                } else {
                    expected = base;
                }
                assertEquals(expected, tb.type(), n);
                int count = Math.toIntExact(ta.elementCount());
                float[] x = TensorEncoder.decode(ta.type(), a.tensorData(ta), count);
                float[] y = TensorEncoder.decode(tb.type(), b.tensorData(tb), count);
                if (tb.type() == GgmlType.F32) {
                    assertArrayEquals(x, y, n + " copied as it is");
                    continue;
                }
                double ss = 0;
                double se = 0;
                for (int i = 0; i < count; i++) {
                    ss += (double) x[i] * x[i];
                    se += (double) (x[i] - y[i]) * (x[i] - y[i]);
                }
                double rel = Math.sqrt(se / ss);
                assertTrue(rel <= bound(tb.type()), n + " " + tb.type() + ": RMS error " + rel + " of the RMS, expected at most "
                        + bound(tb.type()));
            }
        }
    }

    @Test
    void aQuantizedSourceTensorIsRefusedByName() throws IOException {
        Path q8 = dir.resolve("q8src.gguf");
        new Synth(1).write(new SynthSpec("llama", ModelShape.parse("tiny:dim=256,heads=4,kv=2,ffn=512,vocab=300"),
                GgmlType.Q8_0, null, 1, null), q8);
        Path out = dir.resolve("refused.gguf");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GgufQuantizer(1).quantize(q8, out, QuantMix.Q4_K_M, f -> { }));
        assertTrue(e.getMessage().contains("token_embd.weight") && e.getMessage().contains("Q8_0")
                && e.getMessage().contains("F32, F16 or BF16"), e.getMessage());
        assertFalse(Files.exists(out), "no file left behind");
    }
}
