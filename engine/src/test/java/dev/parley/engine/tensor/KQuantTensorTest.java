package dev.parley.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Q4_K, Q5_K and Q6_K: blocks built by hand (packed here from the layout of ggml's {@code block_q*_K}, not with
 * the engine's unpacking) decode to values computed from their fields; the scalar dot product equals the float
 * dot of the dequantized row with the Q8_K-rounded activations; Q8_K rounds as ggml's reference.
 */
class KQuantTensorTest {

    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Packs 8 six-bit scales and mins into ggml's 12 bytes. */
    static byte[] packScales(int[] sc, int[] m) {
        byte[] s = new byte[12];
        for (int j = 0; j < 4; j++) {
            s[j] = (byte) ((sc[j] & 63) | ((sc[j + 4] >> 4) << 6));
            s[j + 4] = (byte) ((m[j] & 63) | ((m[j + 4] >> 4) << 6));
            s[j + 8] = (byte) ((sc[j + 4] & 15) | ((m[j + 4] & 15) << 4));
        }
        return s;
    }

    private static final int[] SC = {3, 17, 63, 40, 22, 63, 49, 1};
    private static final int[] MN = {0, 9, 33, 63, 61, 16, 5, 47};

    @Test
    void q4kBlockDecodesToItsFields() {
        MemorySegment seg = MemorySegment.ofArray(new byte[144]);
        float d = 0.03125f;
        float dmin = 0.0078125f;
        seg.set(I16, 0, Float.floatToFloat16(d));
        seg.set(I16, 2, Float.floatToFloat16(dmin));
        MemorySegment.copy(MemorySegment.ofArray(packScales(SC, MN)), 0, seg, 4, 12);
        int[] q = new int[256];
        for (int i = 0; i < 256; i++) {
            q[i] = (i * 7 + i / 32) % 16;
        }
        for (int c = 0; c < 4; c++) {
            for (int l = 0; l < 32; l++) {
                seg.set(ValueLayout.JAVA_BYTE, 16 + 32 * c + l, (byte) (q[64 * c + l] | (q[64 * c + 32 + l] << 4)));
            }
        }
        float[] out = new float[256];
        Tensor.of("q4k", GgmlType.Q4_K, seg, 1, 256).dequantizeRow(0, out, 0);
        for (int i = 0; i < 256; i++) {
            int j = i / 32;
            assertEquals(d * SC[j] * q[i] - dmin * MN[j], out[i], 0f, "value " + i);
        }
    }

    @Test
    void q5kBlockDecodesToItsFields() {
        MemorySegment seg = MemorySegment.ofArray(new byte[176]);
        float d = 0.015625f;
        float dmin = 0.25f;
        seg.set(I16, 0, Float.floatToFloat16(d));
        seg.set(I16, 2, Float.floatToFloat16(dmin));
        MemorySegment.copy(MemorySegment.ofArray(packScales(SC, MN)), 0, seg, 4, 12);
        int[] q = new int[256];
        for (int i = 0; i < 256; i++) {
            q[i] = (i * 13 + i / 32) % 32;
        }
        for (int c = 0; c < 4; c++) {
            for (int l = 0; l < 32; l++) {
                seg.set(ValueLayout.JAVA_BYTE, 48 + 32 * c + l,
                        (byte) ((q[64 * c + l] & 15) | ((q[64 * c + 32 + l] & 15) << 4)));
            }
        }
        for (int l = 0; l < 32; l++) {
            int h = 0;
            for (int j = 0; j < 8; j++) {
                h |= (q[32 * j + l] >> 4) << j;
            }
            seg.set(ValueLayout.JAVA_BYTE, 16 + l, (byte) h);
        }
        float[] out = new float[256];
        Tensor.of("q5k", GgmlType.Q5_K, seg, 1, 256).dequantizeRow(0, out, 0);
        for (int i = 0; i < 256; i++) {
            int j = i / 32;
            assertEquals(d * SC[j] * q[i] - dmin * MN[j], out[i], 0f, "value " + i);
        }
    }

    @Test
    void q6kBlockDecodesToItsFields() {
        MemorySegment seg = MemorySegment.ofArray(new byte[210]);
        float d = 0.001953125f;
        seg.set(I16, 208, Float.floatToFloat16(d));
        int[] sc = new int[16];
        for (int g = 0; g < 16; g++) {
            sc[g] = g * 17 - 128; // -128 .. 127: the full signed range
            seg.set(ValueLayout.JAVA_BYTE, 192 + g, (byte) sc[g]);
        }
        int[] q = new int[256]; // 0..63, stored; the value uses q - 32
        for (int i = 0; i < 256; i++) {
            q[i] = (i * 29 + 5) % 64;
        }
        for (int h = 0; h < 2; h++) {
            for (int l = 0; l < 32; l++) {
                int a = q[128 * h + l], b = q[128 * h + 32 + l], c = q[128 * h + 64 + l], e = q[128 * h + 96 + l];
                seg.set(ValueLayout.JAVA_BYTE, 64 * h + l, (byte) ((a & 15) | ((c & 15) << 4)));
                seg.set(ValueLayout.JAVA_BYTE, 64 * h + 32 + l, (byte) ((b & 15) | ((e & 15) << 4)));
                seg.set(ValueLayout.JAVA_BYTE, 128 + 32 * h + l,
                        (byte) ((a >> 4) | ((b >> 4) << 2) | ((c >> 4) << 4) | ((e >> 4) << 6)));
            }
        }
        float[] out = new float[256];
        Tensor.of("q6k", GgmlType.Q6_K, seg, 1, 256).dequantizeRow(0, out, 0);
        for (int i = 0; i < 256; i++) {
            assertEquals(d * sc[i / 16] * (q[i] - 32), out[i], 0f, "value " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(value = GgmlType.class, names = {"Q4_K", "Q5_K", "Q6_K"})
    void scalarDotIsTheDotOfDequantizedValues(GgmlType type) {
        Random rnd = new Random(type.id());
        int rows = 5, cols = 768, count = 3;
        try (Arena arena = Arena.ofConfined()) {
            Tensor w = RandomTensors.tensor(type, rows, cols, rnd, arena);
            float[] x = RandomTensors.activations(count, cols, rnd);
            Activations act = new Activations(count, cols).set(x, count, cols);
            act.prepare(ActivationFormat.Q8_K);
            Q8KActivations k = act.q8k();
            float[] row = new float[cols];
            for (int r = 0; r < rows; r++) {
                w.dequantizeRow(r, row, 0);
                for (int t = 0; t < count; t++) {
                    double ref = 0, magnitude = 0;
                    for (int i = 0; i < cols; i++) {
                        double xi = k.quants()[t * cols + i] * (double) k.scales()[t * (cols / 256) + i / 256];
                        ref += row[i] * xi;
                        magnitude += Math.abs(row[i] * xi);
                    }
                    float got = w.dot(r, act, t);
                    assertTrue(Math.abs(got - ref) <= 2e-6 * magnitude + 1e-6,
                            type + " row " + r + " token " + t + ": kernel " + got + ", dequantized " + ref);
                }
            }
        }
    }

    @Test
    void q8kRoundsLikeGgmlReference() {
        float[] x = new float[512];
        for (int i = 0; i < 256; i++) {
            x[i] = (i - 100) * 0.01f; // largest magnitude: 1.55 (positive) -> iscale = -127 / 1.55
        }
        x[7] = -2.5f;                  // now the largest magnitude is negative: iscale > 0
        // second block all zeros
        Activations act = new Activations(1, 512).set(x, 1, 512);
        act.prepare(ActivationFormat.Q8_K);
        Q8KActivations k = act.q8k();
        float iscale = -127f / -2.5f;
        assertEquals(1f / iscale, k.scales()[0], 0f);
        assertEquals(-127, k.quants()[7]);
        for (int i = 0; i < 256; i++) {
            assertEquals(Math.min(127, (int) Math.rint(iscale * x[i])), k.quants()[i], "quant " + i);
        }
        for (int g = 0; g < 16; g++) {
            int sum = 0;
            for (int i = 16 * g; i < 16 * g + 16; i++) {
                sum += k.quants()[i];
            }
            assertEquals(sum, k.bsums()[g], "sum " + g);
        }
        assertEquals(0f, k.scales()[1]);
        for (int i = 256; i < 512; i++) {
            assertEquals(0, k.quants()[i]);
        }
        assertThrows(IllegalStateException.class,
                () -> new Activations(1, 96).set(new float[96], 1, 96).prepare(ActivationFormat.Q8_K));
    }

    @Test
    void rowLengthsOffTheSuperBlockAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tensor.of("blk.0.x", GgmlType.Q4_K, MemorySegment.ofArray(new byte[144]), 1, 128));
        assertTrue(e.getMessage().contains("256") && e.getMessage().contains("Q4_K"), e.getMessage());
        IllegalArgumentException u = assertThrows(IllegalArgumentException.class,
                () -> Tensor.of("blk.0.y", GgmlType.Q3_K, MemorySegment.ofArray(new byte[110]), 1, 256));
        assertTrue(u.getMessage().contains("blk.0.y") && u.getMessage().contains("Q3_K"), u.getMessage());
    }
}
