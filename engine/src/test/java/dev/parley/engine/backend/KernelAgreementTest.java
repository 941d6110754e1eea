package dev.parley.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.RandomTensors;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.Random;
import java.util.stream.Stream;
import jdk.incubator.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The vector kernels against the scalar reference on random data of every tensor type. */
class KernelAgreementTest {

    static Stream<Arguments> shapes() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (GgmlType type : new GgmlType[] {GgmlType.F32, GgmlType.F16, GgmlType.BF16, GgmlType.Q8_0, GgmlType.Q4_0, GgmlType.Q5_0, GgmlType.Q5_1}) {
            boolean quantized = type.blockSize() > 1;
            for (int bits : new int[] {256, 512}) {
                b.add(Arguments.of(type, 1, 32, 1, 1, bits));
                b.add(Arguments.of(type, 7, 96, 3, 2, bits));
                b.add(Arguments.of(type, 33, 256, 5, 3, bits));
                b.add(Arguments.of(type, 64, 704, 2, 4, bits));
                b.add(Arguments.of(type, 9, 160, 4, 1, bits)); // an odd number of blocks per row
                b.add(Arguments.of(type, 40, 320, 11, 2, bits)); // groups of 4, 2 and 1 rows; two row tiles
                if (!quantized) {
                    b.add(Arguments.of(type, 5, 37, 2, 2, bits)); // a row length with a scalar tail
                }
            }
        }
        for (GgmlType type : new GgmlType[] {GgmlType.Q4_K, GgmlType.Q5_K, GgmlType.Q6_K}) {
            for (int bits : new int[] {256, 512}) {
                b.add(Arguments.of(type, 1, 256, 1, 1, bits));
                b.add(Arguments.of(type, 7, 512, 3, 2, bits));
                b.add(Arguments.of(type, 33, 768, 5, 3, bits));
                b.add(Arguments.of(type, 9, 1280, 4, 1, bits));
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} rows={1} cols={2} count={3} threads={4} bits={5}")
    @MethodSource("shapes")
    void vectorMatchesScalar(GgmlType type, int rows, int cols, int count, int threads, int bits) {
        Random rnd = new Random(rows * 31L + cols);
        try (Arena arena = Arena.ofShared(); Backend scalar = new ScalarBackend();
             Backend vector = new VectorBackend(threads, bits)) {
            Tensor w = RandomTensors.tensor(type, rows, cols, rnd, arena);
            float[] x = RandomTensors.activations(count, cols, rnd);
            Activations act = new Activations(count, cols).set(x, count, cols);
            float[] expected = new float[count * rows];
            float[] actual = new float[count * rows];
            scalar.matmul(w, act, expected);
            vector.matmul(w, act, actual);
            float[] row = new float[cols];
            for (int r = 0; r < rows; r++) {
                w.dequantizeRow(r, row, 0);
                double magnitude = 0;
                for (int i = 0; i < cols; i++) {
                    magnitude += Math.abs(row[i] * x[i]);
                }
                for (int t = 0; t < count; t++) {
                    float e = expected[t * rows + r];
                    float a = actual[t * rows + r];
                    assertTrue(Math.abs(e - a) <= 1e-5 * (1 + magnitude),
                            type + " row " + r + " token " + t + ": scalar " + e + ", vector " + a);
                }
            }
        }
    }

    /**
     * K-quant rows dotted with several activation rows at once (the two-row kernels of prompt processing) give bit
     * for bit what each activation row gives alone, so a prompt and the same tokens decoded one by one agree exactly.
     */
    static Stream<Arguments> kQuantWidths() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (GgmlType type : new GgmlType[] {GgmlType.Q4_K, GgmlType.Q5_K, GgmlType.Q6_K}) {
            b.add(Arguments.of(type, 256));
            b.add(Arguments.of(type, 512));
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} bits={1}")
    @MethodSource("kQuantWidths")
    void kQuantRowsTogetherEqualEachAlone(GgmlType type, int bits) {
        Random rnd = new Random(type.id() * 7L);
        int rows = 45, cols = 768, count = 5; // more rows than a tile of 32 on one of the two threads
        try (Arena arena = Arena.ofShared(); Backend vector = new VectorBackend(2, bits)) {
            Tensor w = RandomTensors.tensor(type, rows, cols, rnd, arena);
            float[] x = RandomTensors.activations(count, cols, rnd);
            float[] together = new float[count * rows];
            vector.matmul(w, new Activations(count, cols).set(x, count, cols), together);
            for (int t = 0; t < count; t++) {
                float[] alone = new float[rows];
                vector.matmul(w, new Activations(1, cols).set(java.util.Arrays.copyOfRange(x, t * cols, (t + 1) * cols), 1, cols), alone);
                for (int r = 0; r < rows; r++) {
                    assertEquals(Float.floatToIntBits(alone[r]), Float.floatToIntBits(together[t * rows + r]),
                            type + " row " + r + " token " + t + ": " + alone[r] + " alone, " + together[t * rows + r] + " together");
                }
            }
        }
    }

    @Test
    void scalarDotIsTheDotOfDequantizedValues() {
        // For F32 weights the reference equals the plain float dot of the dequantized row.
        Random rnd = new Random(3);
        try (Arena arena = Arena.ofConfined(); Backend scalar = new ScalarBackend()) {
            Tensor w = RandomTensors.tensor(GgmlType.Q8_0, 3, 64, rnd, arena);
            float[] x = RandomTensors.activations(1, 64, rnd);
            float[] out = new float[3];
            scalar.matmul(w, new Activations(1, 64).set(x, 1, 64), out);
            float[] row = new float[64];
            for (int r = 0; r < 3; r++) {
                w.dequantizeRow(r, row, 0);
                double exact = 0;
                double mag = 0;
                for (int i = 0; i < 64; i++) {
                    exact += row[i] * x[i];
                    mag += Math.abs(row[i] * x[i]);
                }
                // Quantizing the activations to 8 bits costs at most about 1% of the magnitude.
                assertEquals(exact, out[r], 0.01 * mag + 1e-6, "row " + r);
            }
        }
    }

    @Test
    void halfToFloatConvertsEveryHalfExactly() {
        int[] bits = new int[8];
        for (int h = 0; h < 65536; h += 8) {
            for (int i = 0; i < 8; i++) {
                bits[i] = (short) (h + i);
            }
            float[] f = VectorKernels.halfToFloat(IntVector.fromArray(IntVector.SPECIES_256, bits, 0)).toArray();
            for (int i = 0; i < 8; i++) {
                float expected = Float.float16ToFloat((short) (h + i));
                if (Float.isNaN(expected)) {
                    assertTrue(Float.isNaN(f[i]), "NaN half " + (h + i));
                } else {
                    assertEquals(Float.floatToIntBits(expected), Float.floatToIntBits(f[i]), "half " + (h + i));
                }
            }
        }
    }

    @Test
    void dotAndAxpyAgreeWithScalar() {
        Random rnd = new Random(11);
        try (Backend scalar = new ScalarBackend(); Backend vector = new VectorBackend(1)) {
            for (int n : new int[] {1, 7, 8, 31, 64, 129}) {
                float[] a = RandomTensors.activations(1, n + 3, rnd);
                float[] b = RandomTensors.activations(1, n + 5, rnd);
                assertEquals(scalar.dot(a, 3, b, 5, n), vector.dot(a, 3, b, 5, n), 1e-4 * n, "dot of " + n);
                float[] y1 = b.clone();
                float[] y2 = b.clone();
                scalar.axpy(0.75f, a, 2, y1, 4, n);
                vector.axpy(0.75f, a, 2, y2, 4, n);
                for (int i = 0; i < y1.length; i++) {
                    assertEquals(y1[i], y2[i], 1e-5f, "axpy of " + n + " at " + i);
                }
            }
        }
    }

    @Test
    void parallelForCoversEveryIndexOnceWithValidThreadNumbers() {
        try (Backend vector = new VectorBackend(3)) {
            for (int n : new int[] {1, 2, 5, 12, 1000}) {
                int[] hits = new int[n];
                boolean[] badThread = new boolean[1];
                vector.parallelFor(n, (from, to, thread) -> {
                    if (thread < 0 || thread >= 3) {
                        badThread[0] = true;
                    }
                    for (int i = from; i < to; i++) {
                        hits[i]++;
                    }
                });
                for (int i = 0; i < n; i++) {
                    assertEquals(1, hits[i], "index " + i + " of " + n);
                }
                assertTrue(!badThread[0], "thread numbers lie in [0, 3)");
            }
            RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                    () -> vector.parallelFor(100, (from, to, thread) -> {
                        throw new IllegalStateException("boom " + from);
                    }));
            assertTrue(e.getMessage().startsWith("boom"), "a worker's failure reaches the caller");
        }
    }

    @Test
    void rejectsVectorWidthsOtherThan256Or512() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new VectorBackend(1, 384));
        assertTrue(e.getMessage().contains("expected a vector width of 256 or 512 bits but found 384"), e.getMessage());
        int bits = VectorBackend.defaultBits();
        assertTrue(bits == 256 || bits == 512, "default width " + bits);
    }

    @Test
    void fourTokenKernelEqualsSingleTokenKernel() {
        // Prompt processing (four tokens per pass) and decoding (one) add the same products in the same order.
        // The only freedom left is the Vector API's lane reduction, whose order may differ between interpreted
        // and compiled code (one of the two paths can be compiled before the other), so a few ulps are allowed.
        Random rnd = new Random(5);
        for (int bits : new int[] {256, 512}) {
            try (Arena arena = Arena.ofConfined(); Backend vector = new VectorBackend(1, bits)) {
                Tensor w = RandomTensors.tensor(GgmlType.Q8_0, 37, 224, rnd, arena);
                float[] x = RandomTensors.activations(6, 224, rnd);
                float[] batch = new float[6 * 37];
                vector.matmul(w, new Activations(6, 224).set(x, 6, 224), batch);
                for (int t = 0; t < 6; t++) {
                    float[] one = new float[37];
                    float[] row = java.util.Arrays.copyOfRange(x, t * 224, (t + 1) * 224);
                    vector.matmul(w, new Activations(1, 224).set(row, 1, 224), one);
                    for (int r = 0; r < 37; r++) {
                        assertEquals(one[r], batch[t * 37 + r], 1e-5f * (1 + Math.abs(one[r])),
                                bits + " bits, token " + t + " row " + r);
                    }
                }
            }
        }
    }

    @Test
    void twoRowTwoTokenKernelsAt256BitsGiveDecodesBitsForEveryTokenCount() {
        // 256 bits: tiles of 32 rows, token pairs over two rows at a time, an odd last row through the two-token
        // kernel and an odd last token through the one-token kernel; 75 rows on two threads leave odd units.
        assertEveryTokenCountGivesDecodesBits(256, 75, 192, 7, new Random(13));
    }

    @Test
    void tiledProductEqualsSingleTokenKernelForEveryTokenCount() {
        // The 3-row x 4-token tiles, their 3 x 1..3 and 2- and 1-row leftovers, row tiles of 48 and 16-row thread
        // units (50 rows: units of 16, 16, 16 and 2; tiles leave 2 and 1 rows over) all give decode's bits.
        assertEveryTokenCountGivesDecodesBits(512, 50, 160, 9, new Random(11));
    }

    /** A Q8_0 product of 1 to {@code maxCount} tokens gives each token, bit for bit, what that token gives alone. */
    private static void assertEveryTokenCountGivesDecodesBits(int bits, int rows, int cols, int maxCount, Random rnd) {
        try (Arena arena = Arena.ofShared(); Backend vector = new VectorBackend(2, bits)) {
            Tensor w = RandomTensors.tensor(GgmlType.Q8_0, rows, cols, rnd, arena);
            for (int count = 1; count <= maxCount; count++) {
                float[] x = RandomTensors.activations(count, cols, rnd);
                float[] batch = new float[count * rows];
                vector.matmul(w, new Activations(count, cols).set(x, count, cols), batch);
                for (int t = 0; t < count; t++) {
                    float[] one = new float[rows];
                    float[] row = java.util.Arrays.copyOfRange(x, t * cols, (t + 1) * cols);
                    vector.matmul(w, new Activations(1, cols).set(row, 1, cols), one);
                    for (int r = 0; r < rows; r++) {
                        assertEquals(Float.floatToIntBits(one[r]), Float.floatToIntBits(batch[t * rows + r]),
                                bits + " bits, " + count + " tokens, token " + t + " row " + r + ": " + one[r]
                                        + " alone, " + batch[t * rows + r] + " together");
                    }
                }
            }
        }
    }

    @Test
    void vectorSwiGluAgreesWithTheReference() {
        Random rnd = new Random(13);
        int n = 1000;
        float[] gate = new float[n];
        float[] up = new float[n];
        for (int i = 0; i < n; i++) {
            gate[i] = (float) (rnd.nextGaussian() * (i < 900 ? 4 : 60)); // the last ones overflow exp(-g)
            up[i] = (float) rnd.nextGaussian();
        }
        gate[0] = 0f;
        gate[1] = -0f;
        try (Backend scalar = new ScalarBackend(); Backend vector = new VectorBackend(1)) {
            float[] expected = gate.clone();
            float[] actual = gate.clone();
            scalar.swiGlu(expected, up, 3, n - 2);
            vector.swiGlu(actual, up, 3, n - 2);
            for (int i = 0; i < n; i++) {
                if (i < 3 || i >= n - 2) {
                    assertEquals(gate[i], actual[i], 0f, "outside the range at " + i);
                } else {
                    assertEquals(expected[i], actual[i], 4 * Math.ulp(expected[i]) + 1e-30f, "at " + i + " (gate " + gate[i] + ")");
                }
            }
        }
    }

    @Test
    void oneDispatchOverSeveralWeightsEqualsSeparateProducts() {
        Random rnd = new Random(8);
        try (Arena arena = Arena.ofShared(); Backend vector = new VectorBackend(3)) {
            Tensor[] ws = {
                RandomTensors.tensor(GgmlType.Q8_0, 13, 96, rnd, arena),
                RandomTensors.tensor(GgmlType.Q8_0, 5, 96, rnd, arena),
                RandomTensors.tensor(GgmlType.Q8_0, 22, 96, rnd, arena),
            };
            float[] x = RandomTensors.activations(5, 96, rnd);
            Activations act = new Activations(5, 96).set(x, 5, 96);
            float[][] fused = {new float[5 * 13], new float[5 * 5], new float[5 * 22]};
            vector.matmul(ws, act, fused);
            for (int i = 0; i < ws.length; i++) {
                float[] alone = new float[fused[i].length];
                vector.matmul(ws[i], act, alone);
                for (int j = 0; j < alone.length; j++) {
                    // The same products; the Vector API leaves the order of a lane reduction open, and it can
                    // differ between interpreted and compiled code, so allow float rounding (1e-5 relative),
                    // far below what a wrong row or weight would give.
                    assertEquals(alone[j], fused[i][j], 1e-5f * (1 + Math.abs(alone[j])), "weight " + i + " at " + j);
                }
            }
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> vector.matmul(ws, act, new float[][] {fused[0]}));
            assertTrue(e.getMessage().contains("expected one output per weight"), e.getMessage());
        }
    }

    @Test
    void parsesBackendNames() {
        assertEquals(BackendKind.SCALAR, BackendKind.parse("scalar"));
        assertEquals(BackendKind.VECTOR, BackendKind.parse(" Vector "));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> BackendKind.parse("gpu"));
        assertTrue(e.getMessage().contains("expected a backend of auto, cpu, cuda, scalar or vector but found gpu"),
                e.getMessage());
    }
}
