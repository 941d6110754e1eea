package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufException;
import dev.parley.engine.gguf.GgufFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RoPE pairing and frequencies, and the RoPE scaling keys of the configuration. */
class RopeAndConfigTest {

    @TempDir
    Path dir;

    private static Configuration config(Architecture arch, float base, float scale, int headSize) {
        return new Configuration(arch, 2 * headSize, 1, 2, 1, headSize, 8, 1e-5f, base, scale, headSize, 64, 10, false, false);
    }

    @Test
    void normRotatesAdjacentPairsAndNeoxRotatesHalves() {
        float[] cos = new float[2];
        float[] sin = new float[2];
        RoPE norm = new RoPE(config(Architecture.LLAMA, 10000f, 1f, 4), null);
        norm.angles(1, cos, sin, 0);
        // theta_0 = 1, theta_1 = 1 / 100 for head size 4 and base 10000.
        assertEquals((float) Math.cos(1), cos[0], 1e-7f);
        assertEquals((float) Math.sin(0.01), sin[1], 1e-7f);
        float[] x = {1, 0, 1, 0};
        norm.rotate(x, 0, 1, 4, cos, sin, 0);
        assertArrayEquals(new float[] {cos[0], sin[0], cos[1], sin[1]}, x, 1e-7f);

        RoPE neox = new RoPE(config(Architecture.QWEN2, 10000f, 1f, 4), null);
        float[] y = {1, 1, 0, 0};
        neox.rotate(y, 0, 1, 4, cos, sin, 0);
        // Pairs (0, 2) and (1, 3).
        assertArrayEquals(new float[] {cos[0], cos[1], sin[0], sin[1]}, y, 1e-7f);
    }

    @Test
    void frequencyFactorsAndLinearScalingDivideTheAngles() {
        float[] cos = new float[2];
        float[] sin = new float[2];
        new RoPE(config(Architecture.LLAMA, 10000f, 0.5f, 4), new float[] {1f, 4f}).angles(10, cos, sin, 0);
        assertEquals((float) Math.sin(10 * 0.5), sin[0], 1e-6f);
        assertEquals((float) Math.sin(10 * 0.01 / 4 * 0.5), sin[1], 1e-6f);
    }

    @Test
    void readsRopeScalingFromMetadataAndTensors() throws Exception {
        Path linear = TinyGguf.model("llama", GgmlType.F32, false)
                .put("llama.rope.scaling.type", "linear").put("llama.rope.scaling.factor", 4f)
                .reshape("rope_freqs.weight", TinyGguf.HEAD / 2)
                .write(dir.resolve("linear.gguf"));
        try (GgufFile g = GgufFile.open(linear)) {
            Configuration c = Configuration.fromGguf(g);
            assertEquals(0.25f, c.ropeFreqScale());
            assertTrue(c.ropeFreqFactors());
            assertEquals(TinyGguf.HEAD / 2, Weights.load(g, c).ropeFreqFactors().length);
        }
        Path plain = TinyGguf.model("llama", GgmlType.F32, false).write(dir.resolve("plain.gguf"));
        try (GgufFile g = GgufFile.open(plain)) {
            Configuration c = Configuration.fromGguf(g);
            assertEquals(1f, c.ropeFreqScale());
            assertFalse(c.ropeFreqFactors());
            assertEquals(10000f, c.ropeFreqBase());
        }
        Path yarn = TinyGguf.model("llama", GgmlType.F32, false)
                .put("llama.rope.scaling.type", "yarn").put("llama.rope.scaling.factor", 4f).write(dir.resolve("yarn.gguf"));
        try (GgufFile g = GgufFile.open(yarn)) {
            GgufException e = assertThrows(GgufException.class, () -> Configuration.fromGguf(g));
            assertTrue(e.getMessage().contains("unsupported rope.scaling.type 'yarn'"), e.getMessage());
        }
    }

    @Test
    void rejectsInconsistentHeadCounts() throws Exception {
        Path p = TinyGguf.model("llama", GgmlType.F32, false).put("llama.attention.head_count_kv", 3).write(dir.resolve("h.gguf"));
        try (GgufFile g = GgufFile.open(p)) {
            GgufException e = assertThrows(GgufException.class, () -> Configuration.fromGguf(g));
            assertTrue(e.getMessage().contains("expected head_count a multiple of head_count_kv but found 4 and 3"), e.getMessage());
        }
    }
}
