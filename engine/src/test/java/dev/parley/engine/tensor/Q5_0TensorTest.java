package dev.parley.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Q5_0 and Q5_1 (the types llama.cpp's Q4_K_M and Q5_K_M files fall back to for rows 256 does not divide): blocks
 * built by hand decode to their fields, and the dot products equal the float dot of the decoded values.
 */
class Q5_0TensorTest {

    @Test
    void blocksBuiltByHandDecodeToTheirFields() {
        MemorySegment seg = MemorySegment.ofArray(new byte[2 * 22]);
        ValueLayout.OfShort i16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        int[] q = new int[64]; // 0..31 stored; the value is d * (q - 16)
        for (int i = 0; i < 64; i++) {
            q[i] = (i * 11 + 3) % 32;
        }
        float[] d = {0.125f, -0.0625f};
        for (int b = 0; b < 2; b++) {
            long bo = 22L * b;
            seg.set(i16, bo, Float.floatToFloat16(d[b]));
            int qh = 0;
            for (int j = 0; j < 32; j++) {
                qh |= (q[32 * b + j] >> 4) << j;
            }
            seg.set(i32, bo + 2, qh);
            for (int j = 0; j < 16; j++) {
                seg.set(ValueLayout.JAVA_BYTE, bo + 6 + j, (byte) ((q[32 * b + j] & 15) | ((q[32 * b + j + 16] & 15) << 4)));
            }
        }
        float[] out = new float[64];
        Tensor.of("q5", GgmlType.Q5_0, seg, 1, 64).dequantizeRow(0, out, 0);
        for (int i = 0; i < 64; i++) {
            assertEquals(d[i / 32] * (q[i] - 16), out[i], 0f, "value " + i);
        }
    }

    @Test
    void q5_1BlocksBuiltByHandDecodeToTheirFields() {
        MemorySegment seg = MemorySegment.ofArray(new byte[24]);
        ValueLayout.OfShort i16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        float d = 0.25f;
        float m = -1.5f;
        seg.set(i16, 0, Float.floatToFloat16(d));
        seg.set(i16, 2, Float.floatToFloat16(m));
        int[] q = new int[32];
        int qh = 0;
        for (int j = 0; j < 32; j++) {
            q[j] = (j * 13 + 5) % 32;
            qh |= (q[j] >> 4) << j;
        }
        seg.set(i32, 4, qh);
        for (int j = 0; j < 16; j++) {
            seg.set(ValueLayout.JAVA_BYTE, 8 + j, (byte) ((q[j] & 15) | ((q[j + 16] & 15) << 4)));
        }
        float[] out = new float[32];
        Tensor.of("q51", GgmlType.Q5_1, seg, 1, 32).dequantizeRow(0, out, 0);
        for (int i = 0; i < 32; i++) {
            assertEquals(q[i] * d + m, out[i], 0f, "value " + i);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = GgmlType.class, names = {"Q5_0", "Q5_1"})
    void dotIsTheDotOfDequantizedValues(GgmlType type) {
        Random rnd = new Random(type.id());
        try (Arena arena = Arena.ofConfined()) {
            Tensor w = RandomTensors.tensor(type, 3, 128, rnd, arena);
            float[] x = RandomTensors.activations(1, 128, rnd);
            Activations act = new Activations(1, 128).set(x, 1, 128);
            act.prepare(ActivationFormat.Q8_0);
            float[] row = new float[128];
            for (int r = 0; r < 3; r++) {
                w.dequantizeRow(r, row, 0);
                double ref = 0;
                double mag = 0;
                for (int i = 0; i < 128; i++) {
                    ref += row[i] * (double) act.dequantizedQuants()[i];
                    mag += Math.abs(row[i] * act.dequantizedQuants()[i]);
                }
                // Q5_1's min term uses the FP16-rounded block sum d * sum(q) (ggml's Q8_1): a relative 2^-11 of it.
                double slack = type == GgmlType.Q5_1 ? 1e-3 * mag : 0;
                assertTrue(Math.abs(w.dot(r, act, 0) - ref) <= 1e-6 * mag + 1e-7 + slack, type + " row " + r);
            }
        }
    }

}
