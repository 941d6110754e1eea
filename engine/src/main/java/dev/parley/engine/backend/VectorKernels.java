package dev.parley.engine.backend;

import dev.parley.engine.tensor.Activations;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Dot products of one weight row (read straight from its {@link MemorySegment}) with one prepared
 * activation row, with 256-bit vectors (AVX2 width). Each mirrors the scalar reference in its
 * tensor class; only the order of float additions differs. Q8_0 at 512 bits is in {@link Q8FloatKernels}.
 */
final class VectorKernels {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    /** The fixed summation tree that ends each kernel ({@link SumTree}). */
    private static final VectorShuffle<Float> SWAP4 = SumTree.swap(F, 4), SWAP2 = SumTree.swap(F, 2),
            SWAP1 = SumTree.swap(F, 1);
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_256;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_256;
    private static final VectorSpecies<Short> S128 = ShortVector.SPECIES_128;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(LE);
    private static final int QK = Activations.BLOCK;

    private VectorKernels() {
    }

    /** Q8_0 row (34-byte blocks at {@code base}) x Q8_0 activations (quants widened to shorts). */
    static float dotQ8_0(MemorySegment w, long base, int blocks, short[] q, int qo, float[] s, int so) {
        FloatVector acc = FloatVector.zero(F);
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            float d = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            int xo = qo + b * QK;
            ShortVector w0 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector w1 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE).convertShape(VectorOperators.B2S, S, 0);
            // |w| <= 128 and |x| <= 127, so two products fit in a short before widening. Each
            // int lane then adds its two sign-extended shorts (shifts, no cross-lane shuffle).
            // Written out: a helper method is not always inlined, and then vectors get boxed.
            ShortVector p = w0.mul(ShortVector.fromArray(S, q, xo)).add(w1.mul(ShortVector.fromArray(S, q, xo + 16)));
            acc = ((FloatVector) p.reinterpretAsInts().lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(p.reinterpretAsInts().lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        return acc.add(acc.rearrange(SWAP1)).lane(0);
    }

    /**
     * The same as {@link #dotQ8_0} for two activation rows {@code t0, t0 + 1} at once, each weight
     * block loaded and widened once (prompt processing); writes {@code out[t * rows + r]}. Each
     * result is bit-identical to {@link #dotQ8_0}'s. (Four rows at once exceed C2's inlining node
     * budget and fall off the intrinsics.)
     */
    static void dotQ8_0x2(MemorySegment w, long base, int blocks, short[] q, int dim, int t0, float[] s,
                          float[] out, int rows, int r) {
        FloatVector a0 = FloatVector.zero(F);
        FloatVector a1 = a0;
        int q0 = t0 * dim;
        int s0 = t0 * blocks;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            float dw = Float.float16ToFloat(w.get(I16, bo));
            ShortVector w0 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector w1 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE).convertShape(VectorOperators.B2S, S, 0);
            int xo = q0 + b * QK;
            ShortVector p0 = w0.mul(ShortVector.fromArray(S, q, xo)).add(w1.mul(ShortVector.fromArray(S, q, xo + 16)));
            xo += dim;
            ShortVector p1 = w0.mul(ShortVector.fromArray(S, q, xo)).add(w1.mul(ShortVector.fromArray(S, q, xo + 16)));
            a0 = ((FloatVector) p0.reinterpretAsInts().lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(p0.reinterpretAsInts().lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * s[s0 + b]), a0);
            a1 = ((FloatVector) p1.reinterpretAsInts().lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(p1.reinterpretAsInts().lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * s[s0 + blocks + b]), a1);
        }
        a0 = a0.add(a0.rearrange(SWAP4));
        a0 = a0.add(a0.rearrange(SWAP2));
        out[t0 * rows + r] = a0.add(a0.rearrange(SWAP1)).lane(0);
        a1 = a1.add(a1.rearrange(SWAP4));
        a1 = a1.add(a1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r] = a1.add(a1.rearrange(SWAP1)).lane(0);
    }

    /**
     * {@link #dotQ8_0} for two rows ({@code r}, {@code r + 1}, {@code rowBytes} apart) times two activation rows
     * ({@code t0}, {@code t0 + 1}) at once: each weight block is loaded and widened once for two tokens and each
     * activation vector serves two rows, with four accumulators in registers (prompt chunks). Writes
     * {@code out[t * rows + r]}; each result is bit-identical to {@link #dotQ8_0}'s (the same exact integer sums and
     * the same fused multiply-adds in the same order). The pair sums keep {@link #dotQ8_0}'s four operations: two
     * Q8_0 products may add up to 2 x 127 x 127, so the three-operation form of the K-quant kernels would wrap.
     */
    static void dotQ8_0r2x2(MemorySegment w, long base, long rowBytes, int blocks, short[] q, int dim, int t0,
                            float[] s, float[] out, int rows, int r) {
        FloatVector a00 = FloatVector.zero(F), a01 = a00, a10 = a00, a11 = a00;
        int q0 = t0 * dim;
        int s0 = t0 * blocks;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long bo1 = bo + rowBytes;
            float dw0 = Float.float16ToFloat(w.get(I16, bo));
            float dw1 = Float.float16ToFloat(w.get(I16, bo1));
            ShortVector w0 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector w1 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector v0 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo1 + 2, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector v1 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo1 + 18, LE).convertShape(VectorOperators.B2S, S, 0);
            int xo = q0 + b * QK;
            ShortVector x0 = ShortVector.fromArray(S, q, xo), x1 = ShortVector.fromArray(S, q, xo + 16);
            float sx0 = s[s0 + b];
            IntVector u = w0.mul(x0).add(w1.mul(x1)).reinterpretAsInts();
            a00 = ((FloatVector) u.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(u.lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw0 * sx0), a00);
            u = v0.mul(x0).add(v1.mul(x1)).reinterpretAsInts();
            a10 = ((FloatVector) u.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(u.lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw1 * sx0), a10);
            xo += dim;
            x0 = ShortVector.fromArray(S, q, xo);
            x1 = ShortVector.fromArray(S, q, xo + 16);
            float sx1 = s[s0 + blocks + b];
            u = w0.mul(x0).add(w1.mul(x1)).reinterpretAsInts();
            a01 = ((FloatVector) u.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(u.lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw0 * sx1), a01);
            u = v0.mul(x0).add(v1.mul(x1)).reinterpretAsInts();
            a11 = ((FloatVector) u.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(u.lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw1 * sx1), a11);
        }
        a00 = a00.add(a00.rearrange(SWAP4));
        a00 = a00.add(a00.rearrange(SWAP2));
        out[t0 * rows + r] = a00.add(a00.rearrange(SWAP1)).lane(0);
        a10 = a10.add(a10.rearrange(SWAP4));
        a10 = a10.add(a10.rearrange(SWAP2));
        out[t0 * rows + r + 1] = a10.add(a10.rearrange(SWAP1)).lane(0);
        a01 = a01.add(a01.rearrange(SWAP4));
        a01 = a01.add(a01.rearrange(SWAP2));
        out[(t0 + 1) * rows + r] = a01.add(a01.rearrange(SWAP1)).lane(0);
        a11 = a11.add(a11.rearrange(SWAP4));
        a11 = a11.add(a11.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 1] = a11.add(a11.rearrange(SWAP1)).lane(0);
    }

    /** Q4_0 row (18-byte blocks at {@code base}) x Q8_0 activations. */
    static float dotQ4_0(MemorySegment w, long base, int blocks, short[] q, int qo, float[] s, int so) {
        FloatVector acc = FloatVector.zero(F);
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 18;
            float d = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            int xo = qo + b * QK;
            ByteVector packed = ByteVector.fromMemorySegment(B128, w, bo + 2, LE);
            ByteVector lo = packed.and((byte) 0x0f).sub((byte) 8);
            // x86 has no byte shifts: shift the bytes as shorts, then mask off what crossed over.
            ByteVector hi = packed.reinterpretAsShorts().lanewise(VectorOperators.LSHR, 4).reinterpretAsBytes()
                    .and((byte) 0x0f).sub((byte) 8);
            ShortVector w0 = (ShortVector) lo.convertShape(VectorOperators.B2S, S, 0);
            ShortVector w1 = (ShortVector) hi.convertShape(VectorOperators.B2S, S, 0);
            ShortVector p = w0.mul(ShortVector.fromArray(S, q, xo)).add(w1.mul(ShortVector.fromArray(S, q, xo + 16)));
            acc = ((FloatVector) p.reinterpretAsInts().lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(p.reinterpretAsInts().lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        return acc.add(acc.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q5_0 row (22-byte blocks at {@code base}) x Q8_0 activations: the nibbles as in {@link #dotQ4_0}, the fifth bits
     * from {@code qh} through lane masks (bit j of the mask is bit j of {@code qh}), then {@code q - 16}.
     */
    static float dotQ5_0(MemorySegment w, long base, int blocks, short[] q, int qo, float[] s, int so) {
        FloatVector acc = FloatVector.zero(F);
        ShortVector zero = ShortVector.zero(S);
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 22;
            float d = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            int qh = w.get(I32, bo + 2);
            int xo = qo + b * QK;
            ByteVector packed = ByteVector.fromMemorySegment(B128, w, bo + 6, LE);
            ByteVector lo = packed.and((byte) 0x0f);
            ByteVector hi = packed.reinterpretAsShorts().lanewise(VectorOperators.LSHR, 4).reinterpretAsBytes().and((byte) 0x0f);
            ShortVector w0 = ((ShortVector) lo.convertShape(VectorOperators.B2S, S, 0))
                    .add(zero.blend((short) 16, VectorMask.fromLong(S, qh & 0xffff))).sub((short) 16);
            ShortVector w1 = ((ShortVector) hi.convertShape(VectorOperators.B2S, S, 0))
                    .add(zero.blend((short) 16, VectorMask.fromLong(S, qh >>> 16))).sub((short) 16);
            ShortVector p = w0.mul(ShortVector.fromArray(S, q, xo)).add(w1.mul(ShortVector.fromArray(S, q, xo + 16)));
            acc = ((FloatVector) p.reinterpretAsInts().lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(p.reinterpretAsInts().lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        return acc.add(acc.rearrange(SWAP1)).lane(0);
    }

    /** Q5_1 row (24-byte blocks at {@code base}) x Q8_1 activations (Q8_0 quants and scales, block sums {@code bs}). */
    static float dotQ5_1(MemorySegment w, long base, int blocks, short[] q, int qo, float[] s, float[] bs, int so) {
        FloatVector acc = FloatVector.zero(F);
        ShortVector zero = ShortVector.zero(S);
        float mins = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 24;
            float d = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            int qh = w.get(I32, bo + 4);
            int xo = qo + b * QK;
            ByteVector packed = ByteVector.fromMemorySegment(B128, w, bo + 8, LE);
            ByteVector lo = packed.and((byte) 0x0f);
            ByteVector hi = packed.reinterpretAsShorts().lanewise(VectorOperators.LSHR, 4).reinterpretAsBytes().and((byte) 0x0f);
            ShortVector w0 = ((ShortVector) lo.convertShape(VectorOperators.B2S, S, 0))
                    .add(zero.blend((short) 16, VectorMask.fromLong(S, qh & 0xffff)));
            ShortVector w1 = ((ShortVector) hi.convertShape(VectorOperators.B2S, S, 0))
                    .add(zero.blend((short) 16, VectorMask.fromLong(S, qh >>> 16)));
            ShortVector p = w0.mul(ShortVector.fromArray(S, q, xo)).add(w1.mul(ShortVector.fromArray(S, q, xo + 16)));
            acc = ((FloatVector) p.reinterpretAsInts().lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                    .add(p.reinterpretAsInts().lanewise(VectorOperators.ASHR, 16)).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d), acc);
            mins += Float.float16ToFloat(w.get(I16, bo + 2)) * bs[so + b];
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        return acc.add(acc.rearrange(SWAP1)).lane(0) + mins;
    }

    /**
     * {@code gate[i] = gate[i] / (1 + exp(-gate[i])) * up[i]} over {@code [from, to)}, at the preferred width; the tail
     * gets the vector lanes' bits ({@link VectorExp}), so an element does not depend on where a range is split.
     */
    static void swiGlu(float[] gate, float[] up, int from, int to) {
        VectorSpecies<Float> f = FloatVector.SPECIES_PREFERRED;
        int i = from;
        for (; i + f.length() <= to; i += f.length()) {
            FloatVector g = FloatVector.fromArray(f, gate, i);
            FloatVector e = VectorExp.exp(g.neg()).add(1f);
            g.div(e).mul(FloatVector.fromArray(f, up, i)).intoArray(gate, i);
        }
        for (; i < to; i++) {
            float g = gate[i];
            gate[i] = g / (1f + VectorExp.exp(-g)) * up[i];
        }
    }

    /** Plain float dot product of two heap arrays. */
    static float dot(float[] a, int ao, float[] b, int bo, int n) {
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        int upper = F.loopBound(n);
        for (; i < upper; i += F.length()) {
            acc = FloatVector.fromArray(F, a, ao + i).fma(FloatVector.fromArray(F, b, bo + i), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        float sum = acc.add(acc.rearrange(SWAP1)).lane(0);
        for (; i < n; i++) {
            sum += a[ao + i] * b[bo + i];
        }
        return sum;
    }

    /** {@code y += alpha * x} over n floats. */
    static void axpy(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        FloatVector va = FloatVector.broadcast(F, alpha);
        int i = 0;
        int upper = F.loopBound(n);
        for (; i < upper; i += F.length()) {
            FloatVector.fromArray(F, x, xo + i).fma(va, FloatVector.fromArray(F, y, yo + i)).intoArray(y, yo + i);
        }
        for (; i < n; i++) {
            y[yo + i] += alpha * x[xo + i];
        }
    }

    /** F32 row x plain activations. */
    static float dotF32(MemorySegment w, long base, int n, float[] x, int xo) {
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        int upper = F.loopBound(n);
        for (; i < upper; i += F.length()) {
            acc = FloatVector.fromMemorySegment(F, w, base + 4L * i, LE).fma(FloatVector.fromArray(F, x, xo + i), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        float sum = acc.add(acc.rearrange(SWAP1)).lane(0);
        for (; i < n; i++) {
            sum += w.get(F32, base + 4L * i) * x[xo + i];
        }
        return sum;
    }

    /** F16 row x F16-rounded activations. */
    static float dotF16(MemorySegment w, long base, int n, float[] x, int xo) {
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        int upper = n - n % 8;
        for (; i < upper; i += 8) {
            IntVector h = (IntVector) ShortVector.fromMemorySegment(S128, w, base + 2L * i, LE)
                    .convertShape(VectorOperators.S2I, I, 0);
            acc = halfToFloat(h).fma(FloatVector.fromArray(F, x, xo + i), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        float sum = acc.add(acc.rearrange(SWAP1)).lane(0);
        for (; i < n; i++) {
            sum += Float.float16ToFloat(w.get(I16, base + 2L * i)) * x[xo + i];
        }
        return sum;
    }

    /**
     * Converts 8 half-precision bit patterns (sign-extended in ints) to floats: moving the bits into
     * float position and scaling by 2^112 re-biases the exponent, exactly for normals and subnormals;
     * infinities and NaNs get the float exponent field set.
     */
    static FloatVector halfToFloat(IntVector h) {
        IntVector sign = h.and(0x8000).lanewise(VectorOperators.LSHL, 16);
        IntVector mag = h.and(0x7fff);
        IntVector shifted = mag.lanewise(VectorOperators.LSHL, 13);
        FloatVector f = shifted.reinterpretAsFloats().mul(0x1p112f);
        VectorMask<Integer> special = mag.compare(VectorOperators.GE, 0x7c00);
        IntVector bits = f.reinterpretAsInts().blend(shifted.or(0x7f800000), special);
        return bits.or(sign).reinterpretAsFloats();
    }

    /** BF16 row x BF16-rounded activations. */
    static float dotBF16(MemorySegment w, long base, int n, float[] x, int xo) {
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        int upper = n - n % 8;
        for (; i < upper; i += 8) {
            IntVector h = (IntVector) ShortVector.fromMemorySegment(S128, w, base + 2L * i, LE)
                    .convertShape(VectorOperators.S2I, I, 0);
            FloatVector wv = h.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            acc = wv.fma(FloatVector.fromArray(F, x, xo + i), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        float sum = acc.add(acc.rearrange(SWAP1)).lane(0);
        for (; i < n; i++) {
            sum += Float.intBitsToFloat((w.get(I16, base + 2L * i) & 0xffff) << 16) * x[xo + i];
        }
        return sum;
    }
}
