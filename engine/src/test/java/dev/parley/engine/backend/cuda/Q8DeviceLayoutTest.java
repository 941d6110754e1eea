package dev.parley.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Q8_0Quantizer;
import dev.parley.engine.tensor.RandomTensors;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * The device layout of weights: split quants and FP16 scales that dequantize to exactly the values the CPU computes
 * with, whatever the stored type (non-Q8_0 types quantized as the CPU's int8 loading does).
 */
class Q8DeviceLayoutTest {

    @ParameterizedTest
    @EnumSource(value = GgmlType.class, names = {"Q8_0", "F32", "F16", "BF16", "Q4_0", "Q4_K", "Q5_K", "Q6_K"})
    void rowsSplitIntoQuantsAndScalesDequantizeToTheCpusInt8Weights(GgmlType type) {
        try (Arena arena = Arena.ofConfined()) {
            int rows = 7;
            int cols = type.blockSize() == 256 ? 512 : 96; // K-quants: two super-blocks
            Tensor t = RandomTensors.tensor(type, rows, cols, new Random(3), arena);
            MemorySegment q = arena.allocate(Q8DeviceLayout.quantBytes(5, cols));
            MemorySegment s = arena.allocate(Q8DeviceLayout.scaleBytes(5, cols));
            Q8DeviceLayout.split(t, 2, 7, q, s, new float[cols]);
            float[] row = new float[cols];
            for (int r = 2; r < 7; r++) {
                t.dequantizeRow(r, row, 0);
                float[] expected = type == GgmlType.Q8_0 ? row : dequantize(Q8_0Quantizer.quantize(row), cols);
                float[] actual = new float[cols];
                for (int i = 0; i < cols; i++) {
                    short bits = s.get(ValueLayout.JAVA_SHORT_UNALIGNED, ((long) (r - 2) * cols / 32 + i / 32) * 2);
                    actual[i] = Float.float16ToFloat(bits) * q.get(ValueLayout.JAVA_BYTE, (long) (r - 2) * cols + i);
                }
                assertArrayEquals(expected, actual, type + " row " + r);
            }
        }
    }

    private static float[] dequantize(byte[] q8, int cols) {
        float[] out = new float[cols];
        MemorySegment m = MemorySegment.ofArray(q8);
        for (int i = 0; i < cols; i++) {
            long bo = (long) (i / 32) * 34;
            out[i] = Float.float16ToFloat(m.get(ValueLayout.JAVA_SHORT_UNALIGNED, bo)) * m.get(ValueLayout.JAVA_BYTE, bo + 2 + i % 32);
        }
        return out;
    }

    @Test
    void refusesRowsThatAreNotWholeBlocksAndTargetsTooSmall() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor odd = RandomTensors.tensor(GgmlType.F32, 2, 40, new Random(1), arena);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Q8DeviceLayout.split(odd, 0,
                    2, arena.allocate(80), arena.allocate(8), new float[40]));
            assertEquals(odd.name() + ": expected rows of a multiple of 32 values for the GPU but found 40", e.getMessage());
            Tensor t = RandomTensors.tensor(GgmlType.Q8_0, 2, 32, new Random(1), arena);
            assertThrows(IllegalArgumentException.class, () -> Q8DeviceLayout.split(t, 0, 2, arena.allocate(63),
                    arena.allocate(4), new float[32]));
        }
    }
}
