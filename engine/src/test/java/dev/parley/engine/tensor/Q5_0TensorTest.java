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

/** Q5_0 (the type llama.cpp's Q4_K_M files fall back to for rows 256 does not divide): known blocks and its dot. */
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
    void scalarDotIsTheDotOfDequantizedValues() {
        Random rnd = new Random(4);
        try (Arena arena = Arena.ofConfined()) {
            Tensor w = RandomTensors.tensor(GgmlType.Q5_0, 3, 128, rnd, arena);
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
                assertTrue(Math.abs(w.dot(r, act, 0) - ref) <= 1e-6 * mag + 1e-7, "row " + r);
            }
        }
    }
}
