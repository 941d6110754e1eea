package dev.parley.engine.backend;

import dev.parley.engine.tensor.Q8KActivations;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Q4_K, Q5_K and Q6_K rows times Q8_K activations with 256-bit vectors: the quants are unpacked 16 at a time to
 * shorts, multiplied with the activation quants (widened to shorts), pairs of products summed into int lanes and
 * scaled by the sub-block's integer scale, so each super-block's integer sum is exact as in ggml; only the float
 * additions across blocks and lanes come in another order than in the scalar reference
 * ({@code Q4_KTensor.dot} and its siblings). The mins of Q4_K and Q5_K go through the activations' sums of 16.
 */
final class KQuantKernels {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_256;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_256;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final int QK = Q8KActivations.BLOCK;

    private KQuantKernels() {
    }

    /** Pairs of adjacent short lanes summed into 8 int lanes (shifts only: no cross-lane shuffle). */
    private static IntVector pairSums(ShortVector p) {
        IntVector v = p.reinterpretAsInts();
        return v.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(v.lanewise(VectorOperators.ASHR, 16));
    }

    /** 16 bytes at {@code at}, shifted right by {@code shift} bits (as shorts: x86 has no byte shifts) and masked. */
    private static ShortVector bits(MemorySegment w, long at, int shift, int mask) {
        ByteVector v = ByteVector.fromMemorySegment(B128, w, at, LE);
        if (shift != 0) {
            v = v.reinterpretAsShorts().lanewise(VectorOperators.LSHR, shift).reinterpretAsBytes();
        }
        return (ShortVector) v.and((byte) mask).convertShape(VectorOperators.B2S, S, 0);
    }

    private static int u8(MemorySegment w, long at) {
        return w.get(ValueLayout.JAVA_BYTE, at) & 0xff;
    }

    private static int scale(MemorySegment w, long at, int j) {
        return j < 4 ? u8(w, at + j) & 63 : (u8(w, at + j + 4) & 15) | ((u8(w, at + j - 4) >>> 6) << 4);
    }

    private static int min(MemorySegment w, long at, int j) {
        return j < 4 ? u8(w, at + j + 4) & 63 : (u8(w, at + j + 4) >>> 4) | ((u8(w, at + j) >>> 6) << 4);
    }

    /** Q4_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}. */
    static float dotQ4_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        float mins = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab = t * blocks + b;
            int xo = ab * QK;
            IntVector isum = IntVector.zero(I);
            int summ = 0;
            for (int j = 0; j < 8; j++) {
                long qs = bo + 16 + 32L * (j / 2);
                int shift = (j & 1) * 4;
                int o = xo + 32 * j;
                ShortVector p = bits(w, qs, shift, 15).mul(ShortVector.fromArray(S, q, o))
                        .add(bits(w, qs + 16, shift, 15).mul(ShortVector.fromArray(S, q, o + 16)));
                isum = isum.add(pairSums(p).mul(scale(w, bo + 4, j)));
                summ += min(w, bo + 4, j) * (bs[ab * 16 + 2 * j] + bs[ab * 16 + 2 * j + 1]);
            }
            float yd = ys[ab];
            float d = Float.float16ToFloat(w.get(I16, bo)) * yd;
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d), acc);
            mins += Float.float16ToFloat(w.get(I16, bo + 2)) * yd * summ;
        }
        return acc.reduceLanes(VectorOperators.ADD) - mins;
    }

    /** Q5_K row at {@code base} x activation row {@code t} of {@code a}. */
    static float dotQ5_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        float mins = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 176;
            int ab = t * blocks + b;
            int xo = ab * QK;
            IntVector isum = IntVector.zero(I);
            int summ = 0;
            for (int j = 0; j < 8; j++) {
                long qs = bo + 48 + 32L * (j / 2);
                int shift = (j & 1) * 4;
                int o = xo + 32 * j;
                ShortVector w0 = bits(w, qs, shift, 15).or(bits(w, bo + 16, j, 1).lanewise(VectorOperators.LSHL, 4));
                ShortVector w1 = bits(w, qs + 16, shift, 15).or(bits(w, bo + 32, j, 1).lanewise(VectorOperators.LSHL, 4));
                ShortVector p = w0.mul(ShortVector.fromArray(S, q, o)).add(w1.mul(ShortVector.fromArray(S, q, o + 16)));
                isum = isum.add(pairSums(p).mul(scale(w, bo + 4, j)));
                summ += min(w, bo + 4, j) * (bs[ab * 16 + 2 * j] + bs[ab * 16 + 2 * j + 1]);
            }
            float yd = ys[ab];
            float d = Float.float16ToFloat(w.get(I16, bo)) * yd;
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d), acc);
            mins += Float.float16ToFloat(w.get(I16, bo + 2)) * yd * summ;
        }
        return acc.reduceLanes(VectorOperators.ADD) - mins;
    }

    /** Q6_K row at {@code base} x activation row {@code t} of {@code a}. */
    static float dotQ6_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        FloatVector acc = FloatVector.zero(F);
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 210;
            int ab = t * blocks + b;
            int xo = ab * QK;
            IntVector isum = IntVector.zero(I);
            for (int h = 0; h < 2; h++) {
                for (int k = 0; k < 4; k++) {
                    for (int g = 0; g < 2; g++) {
                        long ql = bo + 64L * h + 32 * (k & 1) + 16 * g;
                        long qh = bo + 128 + 32L * h + 16 * g;
                        ShortVector wq = bits(w, ql, k < 2 ? 0 : 4, 15)
                                .or(bits(w, qh, 2 * k, 3).lanewise(VectorOperators.LSHL, 4)).sub((short) 32);
                        ShortVector p = wq.mul(ShortVector.fromArray(S, q, xo + 128 * h + 32 * k + 16 * g));
                        int sc = w.get(ValueLayout.JAVA_BYTE, bo + 192 + 8L * h + 2 * k + g);
                        isum = isum.add(pairSums(p).mul(sc));
                    }
                }
            }
            float d = Float.float16ToFloat(w.get(I16, bo + 208)) * ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d), acc);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /**
     * {@link #dotQ4_K} for activation rows {@code t} and {@code t + 1} at once (prompt processing): each weight block is
     * unpacked once for both. Each result is bit-identical to {@link #dotQ4_K}'s (the same operations in the same
     * order per row), so a prompt and the same tokens one by one agree exactly.
     */
    static void dotQ4_Kx2(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector acc1 = acc0;
        float mins0 = 0f;
        float mins1 = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            IntVector isum0 = IntVector.zero(I);
            IntVector isum1 = isum0;
            int summ0 = 0;
            int summ1 = 0;
            for (int j = 0; j < 8; j++) {
                long qs = bo + 16 + 32L * (j / 2);
                int shift = (j & 1) * 4;
                ShortVector w0 = bits(w, qs, shift, 15);
                ShortVector w1 = bits(w, qs + 16, shift, 15);
                int sc = scale(w, bo + 4, j);
                int m = min(w, bo + 4, j);
                int o0 = xo0 + 32 * j;
                int o1 = xo1 + 32 * j;
                ShortVector p0 = w0.mul(ShortVector.fromArray(S, q, o0)).add(w1.mul(ShortVector.fromArray(S, q, o0 + 16)));
                ShortVector p1 = w0.mul(ShortVector.fromArray(S, q, o1)).add(w1.mul(ShortVector.fromArray(S, q, o1 + 16)));
                isum0 = isum0.add(pairSums(p0).mul(sc));
                isum1 = isum1.add(pairSums(p1).mul(sc));
                summ0 += m * (bs[ab0 * 16 + 2 * j] + bs[ab0 * 16 + 2 * j + 1]);
                summ1 += m * (bs[ab1 * 16 + 2 * j] + bs[ab1 * 16 + 2 * j + 1]);
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            mins0 += dm * ys[ab0] * summ0;
            mins1 += dm * ys[ab1] * summ1;
        }
        out[t * rows + r] = acc0.reduceLanes(VectorOperators.ADD) - mins0;
        out[(t + 1) * rows + r] = acc1.reduceLanes(VectorOperators.ADD) - mins1;
    }

    /** {@link #dotQ5_K} for activation rows {@code t}, {@code t + 1}; bit-identical to it, weights unpacked once. */
    static void dotQ5_Kx2(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector acc1 = acc0;
        float mins0 = 0f;
        float mins1 = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 176;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            IntVector isum0 = IntVector.zero(I);
            IntVector isum1 = isum0;
            int summ0 = 0;
            int summ1 = 0;
            for (int j = 0; j < 8; j++) {
                long qs = bo + 48 + 32L * (j / 2);
                int shift = (j & 1) * 4;
                ShortVector w0 = bits(w, qs, shift, 15).or(bits(w, bo + 16, j, 1).lanewise(VectorOperators.LSHL, 4));
                ShortVector w1 = bits(w, qs + 16, shift, 15).or(bits(w, bo + 32, j, 1).lanewise(VectorOperators.LSHL, 4));
                int sc = scale(w, bo + 4, j);
                int m = min(w, bo + 4, j);
                int o0 = xo0 + 32 * j;
                int o1 = xo1 + 32 * j;
                ShortVector p0 = w0.mul(ShortVector.fromArray(S, q, o0)).add(w1.mul(ShortVector.fromArray(S, q, o0 + 16)));
                ShortVector p1 = w0.mul(ShortVector.fromArray(S, q, o1)).add(w1.mul(ShortVector.fromArray(S, q, o1 + 16)));
                isum0 = isum0.add(pairSums(p0).mul(sc));
                isum1 = isum1.add(pairSums(p1).mul(sc));
                summ0 += m * (bs[ab0 * 16 + 2 * j] + bs[ab0 * 16 + 2 * j + 1]);
                summ1 += m * (bs[ab1 * 16 + 2 * j] + bs[ab1 * 16 + 2 * j + 1]);
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            mins0 += dm * ys[ab0] * summ0;
            mins1 += dm * ys[ab1] * summ1;
        }
        out[t * rows + r] = acc0.reduceLanes(VectorOperators.ADD) - mins0;
        out[(t + 1) * rows + r] = acc1.reduceLanes(VectorOperators.ADD) - mins1;
    }

    /** {@link #dotQ6_K} for activation rows {@code t}, {@code t + 1}; bit-identical to it, weights unpacked once. */
    static void dotQ6_Kx2(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector acc1 = acc0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 210;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            IntVector isum0 = IntVector.zero(I);
            IntVector isum1 = isum0;
            for (int h = 0; h < 2; h++) {
                for (int k = 0; k < 4; k++) {
                    for (int g = 0; g < 2; g++) {
                        long ql = bo + 64L * h + 32 * (k & 1) + 16 * g;
                        long qh = bo + 128 + 32L * h + 16 * g;
                        ShortVector wq = bits(w, ql, k < 2 ? 0 : 4, 15)
                                .or(bits(w, qh, 2 * k, 3).lanewise(VectorOperators.LSHL, 4)).sub((short) 32);
                        int sc = w.get(ValueLayout.JAVA_BYTE, bo + 192 + 8L * h + 2 * k + g);
                        int o = 128 * h + 32 * k + 16 * g;
                        isum0 = isum0.add(pairSums(wq.mul(ShortVector.fromArray(S, q, xo0 + o))).mul(sc));
                        isum1 = isum1.add(pairSums(wq.mul(ShortVector.fromArray(S, q, xo1 + o))).mul(sc));
                    }
                }
            }
            float dw = Float.float16ToFloat(w.get(I16, bo + 208));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
        }
        out[t * rows + r] = acc0.reduceLanes(VectorOperators.ADD);
        out[(t + 1) * rows + r] = acc1.reduceLanes(VectorOperators.ADD);
    }
}
