package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;

/** Random weight data in every supported storage format, encoded as ggml stores it. */
public final class RandomTensors {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private RandomTensors() {
    }

    /** {@code rows x cols} random values in {@code type}'s encoding (quantized blocks use the full byte range). */
    public static byte[] bytes(GgmlType type, int rows, int cols, Random rnd) {
        long n = (long) rows * cols;
        byte[] out = new byte[(int) type.byteSizeFor(n)];
        MemorySegment seg = MemorySegment.ofArray(out);
        switch (type) {
            case F32 -> {
                for (long i = 0; i < n; i++) {
                    seg.set(F32, 4 * i, (float) rnd.nextGaussian());
                }
            }
            case F16 -> {
                for (long i = 0; i < n; i++) {
                    // Some values are tiny so that subnormal halves occur.
                    float v = (float) rnd.nextGaussian() * (i % 17 == 0 ? 1e-6f : 1f);
                    seg.set(I16, 2 * i, Float.floatToFloat16(v));
                }
            }
            case BF16 -> {
                for (long i = 0; i < n; i++) {
                    seg.set(I16, 2 * i, Bf16.fromFloat((float) rnd.nextGaussian()));
                }
            }
            case Q5_1 -> {
                rnd.nextBytes(out);
                for (long b = 0; b < n / 32; b++) {
                    seg.set(I16, b * 24, Float.floatToFloat16((float) (0.01 + 0.05 * rnd.nextDouble())));
                    seg.set(I16, b * 24 + 2, Float.floatToFloat16((float) (-0.5 + rnd.nextDouble())));
                }
            }
            case Q8_0, Q4_0, Q5_0 -> {
                rnd.nextBytes(out);
                int blockBytes = type.typeSize();
                for (long b = 0; b < n / 32; b++) {
                    seg.set(I16, b * blockBytes, Float.floatToFloat16((float) (0.01 + 0.05 * rnd.nextDouble())));
                }
            }
            case Q4_K, Q5_K, Q6_K -> {
                rnd.nextBytes(out);
                int blockBytes = type.typeSize();
                for (long b = 0; b < n / 256; b++) {
                    long at = b * blockBytes;
                    if (type == GgmlType.Q6_K) {
                        seg.set(I16, at + 208, Float.floatToFloat16((float) (0.001 + 0.004 * rnd.nextDouble())));
                    } else {
                        seg.set(I16, at, Float.floatToFloat16((float) (0.001 + 0.004 * rnd.nextDouble())));
                        seg.set(I16, at + 2, Float.floatToFloat16((float) (0.001 + 0.01 * rnd.nextDouble())));
                    }
                }
            }
            default -> throw new IllegalArgumentException("expected a supported type but found " + type);
        }
        return out;
    }

    /** A tensor over fresh random data allocated in {@code arena}. */
    public static Tensor tensor(GgmlType type, int rows, int cols, Random rnd, Arena arena) {
        byte[] b = bytes(type, rows, cols, rnd);
        MemorySegment seg = arena.allocate(b.length, 64);
        MemorySegment.copy(MemorySegment.ofArray(b), 0, seg, 0, b.length);
        return Tensor.of(type + "-random", type, seg, rows, cols);
    }

    /** {@code count * dim} Gaussian activations. */
    public static float[] activations(int count, int dim, Random rnd) {
        float[] x = new float[count * dim];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rnd.nextGaussian() * 2f;
        }
        return x;
    }
}
