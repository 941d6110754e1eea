package dev.parley.models.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.ActivationFormat;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Q8KActivations;
import dev.parley.models.gguf.TensorEncoder;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The K-quant writer and the Q8_K activations against ggml's own reference functions in llama.cpp's
 * {@code libggml-base.so} (the one node-llama-cpp 3.21.1 ships for linux-x64, called through the FFM API):
 * {@code quantize_row_q4_K_ref}, {@code _q5_K_ref}, {@code _q6_K_ref}, {@code _q5_0_ref}, {@code _q5_1_ref} and {@code quantize_row_q8_K_ref} on the same
 * floats must give the same bytes; and Parley's dot products (scalar and vector backends) must agree with ggml's
 * AVX2 {@code ggml_vec_dot_q*_K_q8_K} (its haswell CPU library) within float rounding. Skipped where those libraries
 * are absent.
 */
class GgmlReferenceQuantizerTest {

    private static final Linker LINKER = Linker.nativeLinker();

    private static SymbolLookup ggml(Arena arena) {
        LlamaCppPeer peer = LlamaCppPeer.require();
        Path lib = peer.folder().resolve("node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so");
        assumeTrue(Files.isRegularFile(lib), "skipped: " + lib + " is absent (not linux-x64?)");
        return SymbolLookup.libraryLookup(lib, arena);
    }

    /** {@code void quantize_row_X_ref(const float * x, void * y, int64_t k)}. */
    private static byte[] reference(SymbolLookup lib, Arena arena, String fn, float[] x, int bytes) throws Throwable {
        MethodHandle h = LINKER.downcallHandle(lib.find(fn).orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_FLOAT, x);
        MemorySegment out = arena.allocate(bytes, 64);
        h.invokeExact(in, out, (long) x.length);
        return out.toArray(ValueLayout.JAVA_BYTE);
    }

    /** Gaussian blocks from 1e-3 to 1e2, some offset, some with one outlier, one all zero, one constant. */
    private static float[] values(int blocks, long seed) {
        Random rnd = new Random(seed);
        float[] x = new float[256 * blocks];
        for (int b = 0; b < blocks; b++) {
            double scale = Math.pow(10, b % 6 - 3);
            for (int i = 256 * b; i < 256 * (b + 1); i++) {
                x[i] = switch (b % 9) {
                    case 7 -> 0f;
                    case 8 -> 0.25f;
                    default -> (float) (rnd.nextGaussian() * scale + (b % 3 == 1 ? scale : 0));
                };
            }
            if (b % 5 == 2) {
                x[256 * b + rnd.nextInt(256)] = (float) (20 * scale);
            }
        }
        return x;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"Q4_K, quantize_row_q4_K_ref", "Q5_K, quantize_row_q5_K_ref", "Q6_K, quantize_row_q6_K_ref",
            "Q5_0, quantize_row_q5_0_ref", "Q5_1, quantize_row_q5_1_ref"})
    void kQuantBlocksAreGgmlsBytes(GgmlType type, String fn) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup lib = ggml(arena);
            float[] x = values(400, type.id());
            byte[] ours = TensorEncoder.encode(type, x);
            byte[] theirs = reference(lib, arena, fn, x, ours.length);
            int differing = 0;
            int first = -1;
            for (int b = 0; b < ours.length / type.typeSize(); b++) {
                for (int j = b * type.typeSize(); j < (b + 1) * type.typeSize(); j++) {
                    if (ours[j] != theirs[j]) {
                        differing++;
                        first = first < 0 ? b : first;
                        break;
                    }
                }
            }
            System.out.printf("%s: %d of %d blocks differ from ggml's %s%n", type, differing, ours.length / type.typeSize(), fn);
            assertEquals(0, differing, type + ": blocks differing from ggml's, the first is block " + first);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"Q4_K, ggml_vec_dot_q4_K_q8_K", "Q5_K, ggml_vec_dot_q5_K_q8_K", "Q6_K, ggml_vec_dot_q6_K_q8_K",
            "Q5_0, ggml_vec_dot_q5_0_q8_0", "Q5_1, ggml_vec_dot_q5_1_q8_1"})
    void dotProductsAreGgmls(GgmlType type, String fn) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup base = ggml(arena);
            Path cpu = LlamaCppPeer.require().folder()
                    .resolve("node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-cpu-haswell.so");
            assumeTrue(Files.isRegularFile(cpu), "skipped: " + cpu + " is absent");
            assumeTrue(Files.readString(Path.of("/proc/cpuinfo")).contains(" avx2"), "skipped: no AVX2 for ggml's haswell build");
            SymbolLookup lib = SymbolLookup.libraryLookup(cpu, arena);
            // ggml's CPU backend fills its FP16 conversion tables here; the kernels read FP16 scales through them.
            LINKER.downcallHandle(lib.find("ggml_cpu_init").orElseThrow(), FunctionDescriptor.ofVoid()).invokeExact();
            // void ggml_vec_dot_X(int n, float * s, size_t bs, const void * vx, size_t bx, const void * vy, size_t by, int nrc)
            MethodHandle dot = LINKER.downcallHandle(lib.find(fn).orElseThrow(), FunctionDescriptor.ofVoid(
                    ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
            int cols = 1024;
            int rows = 24;
            float[] w = values(rows * cols / 256, type.id() + 7);
            byte[] wq = TensorEncoder.encode(type, w);
            MemorySegment wSeg = arena.allocate(wq.length, 64);
            wSeg.copyFrom(MemorySegment.ofArray(wq));
            dev.parley.engine.tensor.Tensor t = dev.parley.engine.tensor.Tensor.of("w", type, wSeg, rows, cols);
            float[] x = new float[cols];
            Random rnd = new Random(5);
            for (int i = 0; i < cols; i++) {
                x[i] = (float) rnd.nextGaussian();
            }
            Activations act = new Activations(1, cols).set(x, 1, cols);
            MemorySegment xq;
            if (type == GgmlType.Q5_0) {
                // Q8_0 activations as Parley makes them (ggml's AVX2 rounding), in block_q8_0 layout for ggml's kernel.
                act.prepare(ActivationFormat.Q8_0);
                xq = arena.allocate(cols / 32 * 34L);
                for (int b = 0; b < cols / 32; b++) {
                    xq.set(ValueLayout.JAVA_SHORT_UNALIGNED, 34L * b, Float.floatToFloat16(act.scales()[b]));
                    for (int i = 0; i < 32; i++) {
                        xq.set(ValueLayout.JAVA_BYTE, 34L * b + 2 + i, act.quants()[32 * b + i]);
                    }
                }
            } else if (type == GgmlType.Q5_1) {
                // Q8_1 (block_q8_1: FP16 d, FP16 s = d * sum(q), 32 quants) from Parley's Q8_0 form and block sums.
                act.prepare(ActivationFormat.Q8_0);
                xq = arena.allocate(cols / 32 * 36L);
                for (int b = 0; b < cols / 32; b++) {
                    xq.set(ValueLayout.JAVA_SHORT_UNALIGNED, 36L * b, Float.floatToFloat16(act.scales()[b]));
                    xq.set(ValueLayout.JAVA_SHORT_UNALIGNED, 36L * b + 2, Float.floatToFloat16(act.blockSums()[b]));
                    for (int i = 0; i < 32; i++) {
                        xq.set(ValueLayout.JAVA_BYTE, 36L * b + 4 + i, act.quants()[32 * b + i]);
                    }
                }
            } else {
                xq = arena.allocateFrom(ValueLayout.JAVA_BYTE,
                        reference(base, arena, "quantize_row_q8_K_ref", x, cols / 256 * 292));
            }
            float[] scalar = new float[rows];
            float[] vector = new float[rows];
            try (var s = new dev.parley.engine.backend.ScalarBackend();
                 var v = new dev.parley.engine.backend.VectorBackend(1, 256)) {
                s.matmul(t, act, scalar);
                v.matmul(t, act, vector);
            }
            MemorySegment result = arena.allocate(ValueLayout.JAVA_FLOAT);
            double worst = 0;
            for (int r = 0; r < rows; r++) {
                dot.invokeExact(cols, result, 0L, wSeg.asSlice(t.rowBytes() * r), 0L, xq, 0L, 1);
                float theirs = result.get(ValueLayout.JAVA_FLOAT, 0);
                // Relative to the sum of the magnitudes of the products: Q5_1's min terms cancel (ggml's own AVX2 and
                // generic kernels differ by 4e-4 of the result on these rows).
                float[] row = new float[cols];
                t.dequantizeRow(r, row, 0);
                double magnitude = 0;
                for (int i = 0; i < cols; i++) {
                    magnitude += Math.abs(row[i] * x[i]);
                }
                double tol = 1e-5 * (1 + magnitude);
                assertEquals(theirs, scalar[r], tol, type + " row " + r + " scalar");
                assertEquals(theirs, vector[r], tol, type + " row " + r + " vector");
                worst = Math.max(worst, Math.max(Math.abs(theirs - scalar[r]), Math.abs(theirs - vector[r])) / (1 + magnitude));
            }
            System.out.printf("%s: largest difference from ggml's %s, relative to sum |w x|: %.2e%n", type, fn, worst);
        }
    }

    @Test
    void q8kActivationsAreGgmlsBytes() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup lib = ggml(arena);
            float[] x = values(64, 99);
            byte[] theirs = reference(lib, arena, "quantize_row_q8_K_ref", x, 64 * 292);
            Activations act = new Activations(1, x.length).set(x, 1, x.length);
            act.prepare(ActivationFormat.Q8_K);
            Q8KActivations k = act.q8k();
            MemorySegment t = MemorySegment.ofArray(theirs);
            for (int b = 0; b < 64; b++) {
                long at = 292L * b; // block_q8_K: float d, int8 qs[256], int16 bsums[16]
                assertEquals(t.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at), k.scales()[b], 0f, "scale of block " + b);
                for (int i = 0; i < 256; i++) {
                    assertEquals(t.get(ValueLayout.JAVA_BYTE, at + 4 + i), k.quants()[256 * b + i], "block " + b + " quant " + i);
                }
                for (int g = 0; g < 16; g++) {
                    assertEquals(t.get(ValueLayout.JAVA_SHORT_UNALIGNED, at + 260 + 2L * g), k.bsums()[16 * b + g],
                            "block " + b + " sum " + g);
                }
            }
        }
    }
}
