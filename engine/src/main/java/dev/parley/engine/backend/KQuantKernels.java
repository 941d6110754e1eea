package dev.parley.engine.backend;

import dev.parley.engine.tensor.Q8KActivations;
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
 * Q4_K, Q5_K and Q6_K rows times Q8_K activations with 256-bit vectors (AVX2), built as {@link KQuantKernels512}
 * is, at half its width. 16 quants are one vector of 16 shorts, widened once per 16 bytes (the low and high nibbles
 * split after the widening, as x86 has no byte shifts) and multiplied with the activation quants; for Q4_K and Q5_K
 * the two halves of a 32-quant sub-block are added as shorts (at most 2 x 31 x 128) before adjacent lanes are summed
 * into 8 int lanes ({@code v + (v << 16)} puts the pair's sum in the high half, exact below 2^15) and multiplied by
 * the sub-block's scale, taken by a constant permute from a vector of the super-block's 8 scales. Those scales and
 * the mins are unpacked with vector operations from two overlapping 8-byte loads, and the mins of Q4_K and Q5_K and
 * the offset 32 of Q6_K go through the activations' sums of 16 as one vector product per super-block. Every integer
 * sum is exact and fits a float exactly per lane (Q6_K converts each half super-block: 8 x 2 x 63 x 128 x 128 is
 * just under 2^24); only the float additions across blocks and lanes come in another order than in the scalar
 * reference ({@code Q4_KTensor.dot} and its siblings).
 *
 * <p>The kernels are written out sub-block by sub-block with no calls of our own but two loads, because a method this
 * size uses up C2's inlining budget and a vector handed to a method that is not inlined is boxed (the kernels this
 * replaces, with a helper per 16 quants and the scales unpacked byte by byte, took 4.5-6 ms for an 8192 x 2048 Q4_K
 * product on a Zen 3 core). The two-token kernels give each token bit for bit what the one-token kernel gives (the
 * same float operations in the same order, and a fixed summation tree at the end instead of
 * {@code reduceLanes(ADD)}, whose order differs between the JIT and the interpreter), so a prompt and the same tokens
 * decoded one by one agree exactly.
 */
final class KQuantKernels {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_256;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_256;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final VectorSpecies<Byte> B64 = ByteVector.SPECIES_64;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final int QK = Q8KActivations.BLOCK;

    /** Sub-blocks 4-7 (their scales and mins take their high bits from the top of bytes 0-7). */
    private static final VectorMask<Integer> LAST_FOUR = VectorMask.fromLong(I, 0xf0);
    /** Lane j of bytes 0-7 moved to lane j + 4 (the high bits of the scale of sub-block j + 4). */
    private static final VectorShuffle<Integer> FIRST_FOUR = shuffle(i -> i % 4);
    /** For lane g of a vector of sums of 16 activations, the min of sub-block g / 2 (and of g / 2 + 4). */
    private static final VectorShuffle<Integer> M_LOW = shuffle(i -> i / 2), M_HIGH = shuffle(i -> 4 + i / 2);
    /** Lane j in every lane. */
    private static final VectorShuffle<Integer> J0 = shuffle(i -> 0), J1 = shuffle(i -> 1), J2 = shuffle(i -> 2),
            J3 = shuffle(i -> 3), J4 = shuffle(i -> 4), J5 = shuffle(i -> 5), J6 = shuffle(i -> 6), J7 = shuffle(i -> 7);
    /** The steps of the fixed summation tree that ends every kernel (lane i ^ 4, ^ 2, ^ 1 added to lane i). */
    private static final VectorShuffle<Float> SWAP4 = SumTree.swap(F, 4), SWAP2 = SumTree.swap(F, 2),
            SWAP1 = SumTree.swap(F, 1);

    private KQuantKernels() {
    }

    private static VectorShuffle<Integer> shuffle(java.util.function.IntUnaryOperator lane) {
        int[] index = new int[8];
        for (int i = 0; i < 8; i++) {
            index[i] = lane.applyAsInt(i);
        }
        return VectorShuffle.fromArray(I, index, 0);
    }

    /** The 16 bytes at {@code at} widened (sign-extended) to shorts. */
    private static ShortVector bytes16(MemorySegment w, long at) {
        return (ShortVector) ByteVector.fromMemorySegment(B128, w, at, LE).convertShape(VectorOperators.B2S, S, 0);
    }

    /** The 8 unsigned bytes at {@code at} as ints. */
    private static IntVector bytes8(MemorySegment w, long at) {
        return ((IntVector) ByteVector.fromMemorySegment(B64, w, at, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
    }

    /** Q4_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}. */
    static float dotQ4_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector off0 = acc0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab0 = t * blocks + b;
            int xo0 = ab0 * QK;
            IntVector lo = bytes8(w, bo + 4), mid = bytes8(w, bo + 8);
            IntVector isum0 = IntVector.zero(I), msum0 = isum0;
            for (int h = 0; h < 2; h++) {
                // Sub-blocks 4h .. 4h + 3: their scales and mins in lanes 0-3 (lanes 4-7 unused)
                IntVector sc = bytes8(w, bo + 4 + 8L * h).and(h == 0 ? 63 : 15).or(lo.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                IntVector m = bytes8(w, bo + 8 + 4L * h).lanewise(VectorOperators.LSHR, 4 * h).and(h == 0 ? 63 : 15).or(mid.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                long c0 = bo + 16 + 64L * h;
                int x = 128 * h;
                ShortVector a0 = bytes16(w, c0 + 0), b0 = bytes16(w, c0 + 16);
                ShortVector a1 = bytes16(w, c0 + 32), b1 = bytes16(w, c0 + 48);
                ShortVector wa0 = a0.and((short) 15);
                ShortVector wb0 = b0.and((short) 15);
                IntVector s0 = sc.rearrange(J0);
                IntVector u00 = wa0.mul(ShortVector.fromArray(S, q, xo0 + x + 0)).add(wb0.mul(ShortVector.fromArray(S, q, xo0 + x + 16))).reinterpretAsInts();
                isum0 = isum0.add(u00.add(u00.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
                ShortVector wa1 = a0.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                ShortVector wb1 = b0.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                IntVector s1 = sc.rearrange(J1);
                IntVector u10 = wa1.mul(ShortVector.fromArray(S, q, xo0 + x + 32)).add(wb1.mul(ShortVector.fromArray(S, q, xo0 + x + 48))).reinterpretAsInts();
                isum0 = isum0.add(u10.add(u10.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
                ShortVector wa2 = a1.and((short) 15);
                ShortVector wb2 = b1.and((short) 15);
                IntVector s2 = sc.rearrange(J2);
                IntVector u20 = wa2.mul(ShortVector.fromArray(S, q, xo0 + x + 64)).add(wb2.mul(ShortVector.fromArray(S, q, xo0 + x + 80))).reinterpretAsInts();
                isum0 = isum0.add(u20.add(u20.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
                ShortVector wa3 = a1.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                ShortVector wb3 = b1.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                IntVector s3 = sc.rearrange(J3);
                IntVector u30 = wa3.mul(ShortVector.fromArray(S, q, xo0 + x + 96)).add(wb3.mul(ShortVector.fromArray(S, q, xo0 + x + 112))).reinterpretAsInts();
                isum0 = isum0.add(u30.add(u30.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
                msum0 = msum0.add(m.rearrange(M_LOW).mul(IntVector.fromArray(I, bs, ab0 * 16 + 8 * h)));
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) msum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        return z0.add(z0.rearrange(SWAP1)).lane(0);
    }

    /** {@link #dotQ4_K} for activation rows {@code t} and {@code t + 1}, each weight block unpacked once; bit-identical. */
    static void dotQ4_Kx2(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector off0 = acc0, acc1 = acc0, off1 = acc0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + 1 * blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            IntVector lo = bytes8(w, bo + 4), mid = bytes8(w, bo + 8);
            IntVector isum0 = IntVector.zero(I), msum0 = isum0, isum1 = isum0, msum1 = isum0;
            for (int h = 0; h < 2; h++) {
                // Sub-blocks 4h .. 4h + 3: their scales and mins in lanes 0-3 (lanes 4-7 unused)
                IntVector sc = bytes8(w, bo + 4 + 8L * h).and(h == 0 ? 63 : 15).or(lo.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                IntVector m = bytes8(w, bo + 8 + 4L * h).lanewise(VectorOperators.LSHR, 4 * h).and(h == 0 ? 63 : 15).or(mid.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                long c0 = bo + 16 + 64L * h;
                int x = 128 * h;
                ShortVector a0 = bytes16(w, c0 + 0), b0 = bytes16(w, c0 + 16);
                ShortVector a1 = bytes16(w, c0 + 32), b1 = bytes16(w, c0 + 48);
                ShortVector wa0 = a0.and((short) 15);
                ShortVector wb0 = b0.and((short) 15);
                IntVector s0 = sc.rearrange(J0);
                IntVector u00 = wa0.mul(ShortVector.fromArray(S, q, xo0 + x + 0)).add(wb0.mul(ShortVector.fromArray(S, q, xo0 + x + 16))).reinterpretAsInts();
                isum0 = isum0.add(u00.add(u00.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
                IntVector u01 = wa0.mul(ShortVector.fromArray(S, q, xo1 + x + 0)).add(wb0.mul(ShortVector.fromArray(S, q, xo1 + x + 16))).reinterpretAsInts();
                isum1 = isum1.add(u01.add(u01.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
                ShortVector wa1 = a0.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                ShortVector wb1 = b0.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                IntVector s1 = sc.rearrange(J1);
                IntVector u10 = wa1.mul(ShortVector.fromArray(S, q, xo0 + x + 32)).add(wb1.mul(ShortVector.fromArray(S, q, xo0 + x + 48))).reinterpretAsInts();
                isum0 = isum0.add(u10.add(u10.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
                IntVector u11 = wa1.mul(ShortVector.fromArray(S, q, xo1 + x + 32)).add(wb1.mul(ShortVector.fromArray(S, q, xo1 + x + 48))).reinterpretAsInts();
                isum1 = isum1.add(u11.add(u11.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
                ShortVector wa2 = a1.and((short) 15);
                ShortVector wb2 = b1.and((short) 15);
                IntVector s2 = sc.rearrange(J2);
                IntVector u20 = wa2.mul(ShortVector.fromArray(S, q, xo0 + x + 64)).add(wb2.mul(ShortVector.fromArray(S, q, xo0 + x + 80))).reinterpretAsInts();
                isum0 = isum0.add(u20.add(u20.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
                IntVector u21 = wa2.mul(ShortVector.fromArray(S, q, xo1 + x + 64)).add(wb2.mul(ShortVector.fromArray(S, q, xo1 + x + 80))).reinterpretAsInts();
                isum1 = isum1.add(u21.add(u21.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
                ShortVector wa3 = a1.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                ShortVector wb3 = b1.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                IntVector s3 = sc.rearrange(J3);
                IntVector u30 = wa3.mul(ShortVector.fromArray(S, q, xo0 + x + 96)).add(wb3.mul(ShortVector.fromArray(S, q, xo0 + x + 112))).reinterpretAsInts();
                isum0 = isum0.add(u30.add(u30.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
                IntVector u31 = wa3.mul(ShortVector.fromArray(S, q, xo1 + x + 96)).add(wb3.mul(ShortVector.fromArray(S, q, xo1 + x + 112))).reinterpretAsInts();
                isum1 = isum1.add(u31.add(u31.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
                msum0 = msum0.add(m.rearrange(M_LOW).mul(IntVector.fromArray(I, bs, ab0 * 16 + 8 * h)));
                msum1 = msum1.add(m.rearrange(M_LOW).mul(IntVector.fromArray(I, bs, ab1 * 16 + 8 * h)));
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) msum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            off1 = ((FloatVector) msum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab1]), off1);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1);
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q4_K row {@code r} (at {@code base}) times activation rows {@code t .. t + 3} (prompt processing), in float, each
     * output bit for bit what {@link #dotQ4_K} gives: lane j keeps what the integer kernel's lane j keeps, the products
     * of quants 2j, 2j + 1, 2j + 16 and 2j + 17 of each sub-block, each weight times its sub-block's scale (at most
     * 15 x 63) and each activation from {@link Q8KActivations#pairedQuants}. Every partial sum is an integer below
     * 2^24 (32 products of at most 945 x 127 per lane and super-block), so every float operation is exact and a
     * super-block's lanes equal the integer kernel's before they are scaled; what follows is the same float arithmetic
     * as there. Four fused multiply-adds per 32 weights and token, against eight integer operations (AVX2 has no
     * 16-bit multiply-add the Vector API reaches), and each unpacked weight vector serves four tokens.
     * {@code scales}: scratch space for 12 floats.
     */
    static void dotQ4_Kx4(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r,
                          float[] scales) {
        float[] x = a.pairedQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector zero = FloatVector.zero(F);
        FloatVector acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero, off0 = zero, off1 = zero, off2 = zero, off3 = zero;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int ab2 = ab1 + blocks;
            int ab3 = ab2 + blocks;
            // (the loads written out: a vector returned by a call C2 leaves out of a method this size is boxed)
            IntVector lo = ((IntVector) ByteVector.fromMemorySegment(B64, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector mid = ((IntVector) ByteVector.fromMemorySegment(B64, w, bo + 8, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector hi = ((IntVector) ByteVector.fromMemorySegment(B64, w, bo + 12, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            // the 8 sub-blocks' scales (lanes 0-3 of each half) and, for lane g of a vector of sums of 16 activations,
            // the min of sub-block g / 2 (first half) and g / 2 + 4 (second)
            ((FloatVector) lo.and(63).convert(VectorOperators.I2F, 0)).intoArray(scales, 0);
            ((FloatVector) hi.and(15).or(lo.lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .convert(VectorOperators.I2F, 0)).intoArray(scales, 4);
            IntVector mLow = mid.and(63).rearrange(M_LOW);
            IntVector mHigh = hi.lanewise(VectorOperators.LSHR, 4).and(15)
                    .or(mid.lanewise(VectorOperators.LSHR, 2).and(0x30)).rearrange(M_LOW);
            FloatVector i0 = zero, i1 = zero, i2 = zero, i3 = zero;
            for (int j = 0; j < 8; j++) {
                int shift = (j & 1) * 4;
                long at = bo + 16 + 32L * (j >> 1);
                IntVector na = ((ShortVector) ByteVector.fromMemorySegment(B128, w, at, LE).convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                IntVector nb = ((ShortVector) ByteVector.fromMemorySegment(B128, w, at + 16, LE).convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                FloatVector c = FloatVector.broadcast(F, scales[j]);
                FloatVector ea = ((FloatVector) na.and(15).convert(VectorOperators.I2F, 0)).mul(c);
                FloatVector oa = ((FloatVector) na.lanewise(VectorOperators.LSHR, 16).and(15).convert(VectorOperators.I2F, 0)).mul(c);
                FloatVector eb = ((FloatVector) nb.and(15).convert(VectorOperators.I2F, 0)).mul(c);
                FloatVector ob = ((FloatVector) nb.lanewise(VectorOperators.LSHR, 16).and(15).convert(VectorOperators.I2F, 0)).mul(c);
                int x0 = ab0 * QK + 32 * j;
                i0 = ob.fma(FloatVector.fromArray(F, x, x0 + 24), oa.fma(FloatVector.fromArray(F, x, x0 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x0 + 8), ea.fma(FloatVector.fromArray(F, x, x0), i0))));
                int x1 = ab1 * QK + 32 * j;
                i1 = ob.fma(FloatVector.fromArray(F, x, x1 + 24), oa.fma(FloatVector.fromArray(F, x, x1 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x1 + 8), ea.fma(FloatVector.fromArray(F, x, x1), i1))));
                int x2 = ab2 * QK + 32 * j;
                i2 = ob.fma(FloatVector.fromArray(F, x, x2 + 24), oa.fma(FloatVector.fromArray(F, x, x2 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x2 + 8), ea.fma(FloatVector.fromArray(F, x, x2), i2))));
                int x3 = ab3 * QK + 32 * j;
                i3 = ob.fma(FloatVector.fromArray(F, x, x3 + 24), oa.fma(FloatVector.fromArray(F, x, x3 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x3 + 8), ea.fma(FloatVector.fromArray(F, x, x3), i3))));
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = i0.fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab0 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab0 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
            acc1 = i1.fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            off1 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab1 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab1 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab1]), off1);
            acc2 = i2.fma(FloatVector.broadcast(F, dw * ys[ab2]), acc2);
            off2 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab2 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab2 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab2]), off2);
            acc3 = i3.fma(FloatVector.broadcast(F, dw * ys[ab3]), acc3);
            off3 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab3 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab3 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab3]), off3);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1);
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
        FloatVector z2 = acc2.sub(off2);
        z2 = z2.add(z2.rearrange(SWAP4));
        z2 = z2.add(z2.rearrange(SWAP2));
        out[(t + 2) * rows + r] = z2.add(z2.rearrange(SWAP1)).lane(0);
        FloatVector z3 = acc3.sub(off3);
        z3 = z3.add(z3.rearrange(SWAP4));
        z3 = z3.add(z3.rearrange(SWAP2));
        out[(t + 3) * rows + r] = z3.add(z3.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q5_K row {@code r} (at {@code base}) times activation rows {@code t .. t + 3}, as {@link #dotQ4_Kx4} with each
     * weight's fifth bit from the block's 32 high-bit bytes (bit j of byte i for quant i of sub-block j), at most
     * 31 x 63 per weight and 32 x 31 x 63 x 127 per lane and super-block, below 2^24; bit for bit what {@link #dotQ5_K}
     * gives. From {@link #dotQ4_Kx4}: lane j keeps what the integer kernel's lane j keeps, the products
     * of quants 2j, 2j + 1, 2j + 16 and 2j + 17 of each sub-block, each weight times its sub-block's scale (at most
     * 15 x 63) and each activation from {@link Q8KActivations#pairedQuants}. Every partial sum is an integer below
     * 2^24 (32 products of at most 945 x 127 per lane and super-block), so every float operation is exact and a
     * super-block's lanes equal the integer kernel's before they are scaled; what follows is the same float arithmetic
     * as there. Four fused multiply-adds per 32 weights and token, against eight integer operations (AVX2 has no
     * 16-bit multiply-add the Vector API reaches), and each unpacked weight vector serves four tokens.
     * {@code scales}: scratch space for 12 floats.
     */
    static void dotQ5_Kx4(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r,
                          float[] scales) {
        float[] x = a.pairedQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector zero = FloatVector.zero(F);
        FloatVector acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero, off0 = zero, off1 = zero, off2 = zero, off3 = zero;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 176;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int ab2 = ab1 + blocks;
            int ab3 = ab2 + blocks;
            // (the loads written out: a vector returned by a call C2 leaves out of a method this size is boxed)
            IntVector lo = ((IntVector) ByteVector.fromMemorySegment(B64, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector mid = ((IntVector) ByteVector.fromMemorySegment(B64, w, bo + 8, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector hi = ((IntVector) ByteVector.fromMemorySegment(B64, w, bo + 12, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            // the 8 sub-blocks' scales (lanes 0-3 of each half) and, for lane g of a vector of sums of 16 activations,
            // the min of sub-block g / 2 (first half) and g / 2 + 4 (second)
            ((FloatVector) lo.and(63).convert(VectorOperators.I2F, 0)).intoArray(scales, 0);
            ((FloatVector) hi.and(15).or(lo.lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .convert(VectorOperators.I2F, 0)).intoArray(scales, 4);
            IntVector mLow = mid.and(63).rearrange(M_LOW);
            IntVector mHigh = hi.lanewise(VectorOperators.LSHR, 4).and(15)
                    .or(mid.lanewise(VectorOperators.LSHR, 2).and(0x30)).rearrange(M_LOW);
            // the high-bit bytes of quants 0-15 and 16-31 (each pair of bytes in an int lane), moved up 4 bits: sub-block
            // j's bit of the even quant then sits at bit 4 + j, of the odd one at bit 20 + j
            IntVector ha = ((ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 16, LE).convertShape(VectorOperators.B2S, S, 0))
                    .reinterpretAsInts().lanewise(VectorOperators.LSHL, 4);
            IntVector hb = ((ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 32, LE).convertShape(VectorOperators.B2S, S, 0))
                    .reinterpretAsInts().lanewise(VectorOperators.LSHL, 4);
            FloatVector i0 = zero, i1 = zero, i2 = zero, i3 = zero;
            for (int j = 0; j < 8; j++) {
                int shift = (j & 1) * 4;
                long at = bo + 48 + 32L * (j >> 1);
                IntVector na = ((ShortVector) ByteVector.fromMemorySegment(B128, w, at, LE).convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                IntVector nb = ((ShortVector) ByteVector.fromMemorySegment(B128, w, at + 16, LE).convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                FloatVector c = FloatVector.broadcast(F, scales[j]);
                IntVector hj = ha.lanewise(VectorOperators.LSHR, j), hk = hb.lanewise(VectorOperators.LSHR, j);
                FloatVector ea = ((FloatVector) na.and(15).or(hj.and(16)).convert(VectorOperators.I2F, 0)).mul(c);
                FloatVector oa = ((FloatVector) na.lanewise(VectorOperators.LSHR, 16).and(15).or(hj.lanewise(VectorOperators.LSHR, 16).and(16))
                        .convert(VectorOperators.I2F, 0)).mul(c);
                FloatVector eb = ((FloatVector) nb.and(15).or(hk.and(16)).convert(VectorOperators.I2F, 0)).mul(c);
                FloatVector ob = ((FloatVector) nb.lanewise(VectorOperators.LSHR, 16).and(15).or(hk.lanewise(VectorOperators.LSHR, 16).and(16))
                        .convert(VectorOperators.I2F, 0)).mul(c);
                int x0 = ab0 * QK + 32 * j;
                i0 = ob.fma(FloatVector.fromArray(F, x, x0 + 24), oa.fma(FloatVector.fromArray(F, x, x0 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x0 + 8), ea.fma(FloatVector.fromArray(F, x, x0), i0))));
                int x1 = ab1 * QK + 32 * j;
                i1 = ob.fma(FloatVector.fromArray(F, x, x1 + 24), oa.fma(FloatVector.fromArray(F, x, x1 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x1 + 8), ea.fma(FloatVector.fromArray(F, x, x1), i1))));
                int x2 = ab2 * QK + 32 * j;
                i2 = ob.fma(FloatVector.fromArray(F, x, x2 + 24), oa.fma(FloatVector.fromArray(F, x, x2 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x2 + 8), ea.fma(FloatVector.fromArray(F, x, x2), i2))));
                int x3 = ab3 * QK + 32 * j;
                i3 = ob.fma(FloatVector.fromArray(F, x, x3 + 24), oa.fma(FloatVector.fromArray(F, x, x3 + 16),
                        eb.fma(FloatVector.fromArray(F, x, x3 + 8), ea.fma(FloatVector.fromArray(F, x, x3), i3))));
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = i0.fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab0 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab0 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
            acc1 = i1.fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            off1 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab1 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab1 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab1]), off1);
            acc2 = i2.fma(FloatVector.broadcast(F, dw * ys[ab2]), acc2);
            off2 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab2 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab2 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab2]), off2);
            acc3 = i3.fma(FloatVector.broadcast(F, dw * ys[ab3]), acc3);
            off3 = ((FloatVector) mLow.mul(IntVector.fromArray(I, bs, ab3 * 16)).add(mHigh.mul(IntVector.fromArray(I, bs, ab3 * 16 + 8)))
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab3]), off3);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1);
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
        FloatVector z2 = acc2.sub(off2);
        z2 = z2.add(z2.rearrange(SWAP4));
        z2 = z2.add(z2.rearrange(SWAP2));
        out[(t + 2) * rows + r] = z2.add(z2.rearrange(SWAP1)).lane(0);
        FloatVector z3 = acc3.sub(off3);
        z3 = z3.add(z3.rearrange(SWAP4));
        z3 = z3.add(z3.rearrange(SWAP2));
        out[(t + 3) * rows + r] = z3.add(z3.rearrange(SWAP1)).lane(0);
    }

    /** Q5_K row at {@code base} x activation row {@code t} of {@code a}. */
    static float dotQ5_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector off0 = acc0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 176;
            int ab0 = t * blocks + b;
            int xo0 = ab0 * QK;
            ShortVector ha = bytes16(w, bo + 16).lanewise(VectorOperators.LSHL, 4), hb = bytes16(w, bo + 32).lanewise(VectorOperators.LSHL, 4);
            IntVector lo = bytes8(w, bo + 4), mid = bytes8(w, bo + 8);
            IntVector isum0 = IntVector.zero(I), msum0 = isum0;
            for (int h = 0; h < 2; h++) {
                // Sub-blocks 4h .. 4h + 3: their scales and mins in lanes 0-3 (lanes 4-7 unused)
                IntVector sc = bytes8(w, bo + 4 + 8L * h).and(h == 0 ? 63 : 15).or(lo.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                IntVector m = bytes8(w, bo + 8 + 4L * h).lanewise(VectorOperators.LSHR, 4 * h).and(h == 0 ? 63 : 15).or(mid.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                long c0 = bo + 48 + 64L * h;
                int x = 128 * h;
                ShortVector a0 = bytes16(w, c0 + 0), b0 = bytes16(w, c0 + 16);
                ShortVector a1 = bytes16(w, c0 + 32), b1 = bytes16(w, c0 + 48);
                ShortVector wa0 = a0.and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h).and((short) 16));
                ShortVector wb0 = b0.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h).and((short) 16));
                IntVector s0 = sc.rearrange(J0);
                IntVector u00 = wa0.mul(ShortVector.fromArray(S, q, xo0 + x + 0)).add(wb0.mul(ShortVector.fromArray(S, q, xo0 + x + 16))).reinterpretAsInts();
                isum0 = isum0.add(u00.add(u00.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
                ShortVector wa1 = a0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h + 1).and((short) 16));
                ShortVector wb1 = b0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h + 1).and((short) 16));
                IntVector s1 = sc.rearrange(J1);
                IntVector u10 = wa1.mul(ShortVector.fromArray(S, q, xo0 + x + 32)).add(wb1.mul(ShortVector.fromArray(S, q, xo0 + x + 48))).reinterpretAsInts();
                isum0 = isum0.add(u10.add(u10.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
                ShortVector wa2 = a1.and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h + 2).and((short) 16));
                ShortVector wb2 = b1.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h + 2).and((short) 16));
                IntVector s2 = sc.rearrange(J2);
                IntVector u20 = wa2.mul(ShortVector.fromArray(S, q, xo0 + x + 64)).add(wb2.mul(ShortVector.fromArray(S, q, xo0 + x + 80))).reinterpretAsInts();
                isum0 = isum0.add(u20.add(u20.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
                ShortVector wa3 = a1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h + 3).and((short) 16));
                ShortVector wb3 = b1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h + 3).and((short) 16));
                IntVector s3 = sc.rearrange(J3);
                IntVector u30 = wa3.mul(ShortVector.fromArray(S, q, xo0 + x + 96)).add(wb3.mul(ShortVector.fromArray(S, q, xo0 + x + 112))).reinterpretAsInts();
                isum0 = isum0.add(u30.add(u30.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
                msum0 = msum0.add(m.rearrange(M_LOW).mul(IntVector.fromArray(I, bs, ab0 * 16 + 8 * h)));
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) msum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        return z0.add(z0.rearrange(SWAP1)).lane(0);
    }

    /** {@link #dotQ5_K} for activation rows {@code t} and {@code t + 1}, each weight block unpacked once; bit-identical. */
    static void dotQ5_Kx2(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector off0 = acc0, acc1 = acc0, off1 = acc0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 176;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + 1 * blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            ShortVector ha = bytes16(w, bo + 16).lanewise(VectorOperators.LSHL, 4), hb = bytes16(w, bo + 32).lanewise(VectorOperators.LSHL, 4);
            IntVector lo = bytes8(w, bo + 4), mid = bytes8(w, bo + 8);
            IntVector isum0 = IntVector.zero(I), msum0 = isum0, isum1 = isum0, msum1 = isum0;
            for (int h = 0; h < 2; h++) {
                // Sub-blocks 4h .. 4h + 3: their scales and mins in lanes 0-3 (lanes 4-7 unused)
                IntVector sc = bytes8(w, bo + 4 + 8L * h).and(h == 0 ? 63 : 15).or(lo.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                IntVector m = bytes8(w, bo + 8 + 4L * h).lanewise(VectorOperators.LSHR, 4 * h).and(h == 0 ? 63 : 15).or(mid.lanewise(VectorOperators.LSHR, 2).and(h == 0 ? 0 : 0x30));
                long c0 = bo + 48 + 64L * h;
                int x = 128 * h;
                ShortVector a0 = bytes16(w, c0 + 0), b0 = bytes16(w, c0 + 16);
                ShortVector a1 = bytes16(w, c0 + 32), b1 = bytes16(w, c0 + 48);
                ShortVector wa0 = a0.and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h).and((short) 16));
                ShortVector wb0 = b0.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h).and((short) 16));
                IntVector s0 = sc.rearrange(J0);
                IntVector u00 = wa0.mul(ShortVector.fromArray(S, q, xo0 + x + 0)).add(wb0.mul(ShortVector.fromArray(S, q, xo0 + x + 16))).reinterpretAsInts();
                isum0 = isum0.add(u00.add(u00.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
                IntVector u01 = wa0.mul(ShortVector.fromArray(S, q, xo1 + x + 0)).add(wb0.mul(ShortVector.fromArray(S, q, xo1 + x + 16))).reinterpretAsInts();
                isum1 = isum1.add(u01.add(u01.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
                ShortVector wa1 = a0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h + 1).and((short) 16));
                ShortVector wb1 = b0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h + 1).and((short) 16));
                IntVector s1 = sc.rearrange(J1);
                IntVector u10 = wa1.mul(ShortVector.fromArray(S, q, xo0 + x + 32)).add(wb1.mul(ShortVector.fromArray(S, q, xo0 + x + 48))).reinterpretAsInts();
                isum0 = isum0.add(u10.add(u10.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
                IntVector u11 = wa1.mul(ShortVector.fromArray(S, q, xo1 + x + 32)).add(wb1.mul(ShortVector.fromArray(S, q, xo1 + x + 48))).reinterpretAsInts();
                isum1 = isum1.add(u11.add(u11.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
                ShortVector wa2 = a1.and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h + 2).and((short) 16));
                ShortVector wb2 = b1.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h + 2).and((short) 16));
                IntVector s2 = sc.rearrange(J2);
                IntVector u20 = wa2.mul(ShortVector.fromArray(S, q, xo0 + x + 64)).add(wb2.mul(ShortVector.fromArray(S, q, xo0 + x + 80))).reinterpretAsInts();
                isum0 = isum0.add(u20.add(u20.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
                IntVector u21 = wa2.mul(ShortVector.fromArray(S, q, xo1 + x + 64)).add(wb2.mul(ShortVector.fromArray(S, q, xo1 + x + 80))).reinterpretAsInts();
                isum1 = isum1.add(u21.add(u21.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
                ShortVector wa3 = a1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(ha.lanewise(VectorOperators.LSHR, 4 * h + 3).and((short) 16));
                ShortVector wb3 = b1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4 * h + 3).and((short) 16));
                IntVector s3 = sc.rearrange(J3);
                IntVector u30 = wa3.mul(ShortVector.fromArray(S, q, xo0 + x + 96)).add(wb3.mul(ShortVector.fromArray(S, q, xo0 + x + 112))).reinterpretAsInts();
                isum0 = isum0.add(u30.add(u30.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
                IntVector u31 = wa3.mul(ShortVector.fromArray(S, q, xo1 + x + 96)).add(wb3.mul(ShortVector.fromArray(S, q, xo1 + x + 112))).reinterpretAsInts();
                isum1 = isum1.add(u31.add(u31.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
                msum0 = msum0.add(m.rearrange(M_LOW).mul(IntVector.fromArray(I, bs, ab0 * 16 + 8 * h)));
                msum1 = msum1.add(m.rearrange(M_LOW).mul(IntVector.fromArray(I, bs, ab1 * 16 + 8 * h)));
            }
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) msum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            off1 = ((FloatVector) msum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm * ys[ab1]), off1);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1);
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
    }

    /** Q6_K row at {@code base} x activation row {@code t} of {@code a}. */
    static float dotQ6_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector off0 = acc0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 210;
            int ab0 = t * blocks + b;
            int xo0 = ab0 * QK;
            float dw = Float.float16ToFloat(w.get(I16, bo + 208));
            FloatVector d0 = FloatVector.broadcast(F, dw * ys[ab0]);
            for (int h = 0; h < 2; h++) {
                long ql = bo + 64L * h;
                long qh = bo + 128 + 32L * h;
                IntVector sv = (IntVector) ByteVector.fromMemorySegment(B64, w, bo + 192 + 8L * h, LE).convertShape(VectorOperators.B2I, I, 0);
                ShortVector l0 = bytes16(w, ql + 0);
                ShortVector l1 = bytes16(w, ql + 16);
                ShortVector l2 = bytes16(w, ql + 32);
                ShortVector l3 = bytes16(w, ql + 48);
                ShortVector h0 = bytes16(w, qh + 0);
                ShortVector h1 = bytes16(w, qh + 16);
                IntVector isum0 = IntVector.zero(I);
                ShortVector w00 = l0.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).and((short) 0x30));
                IntVector s00 = sv.rearrange(J0);
                IntVector u000 = w00.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 0)).reinterpretAsInts();
                isum0 = isum0.add(u000.add(u000.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s00));
                ShortVector w01 = l1.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).and((short) 0x30));
                IntVector s01 = sv.rearrange(J1);
                IntVector u010 = w01.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 16)).reinterpretAsInts();
                isum0 = isum0.add(u010.add(u010.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s01));
                ShortVector w10 = l2.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 2).and((short) 0x30));
                IntVector s10 = sv.rearrange(J2);
                IntVector u100 = w10.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 32)).reinterpretAsInts();
                isum0 = isum0.add(u100.add(u100.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s10));
                ShortVector w11 = l3.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 2).and((short) 0x30));
                IntVector s11 = sv.rearrange(J3);
                IntVector u110 = w11.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 48)).reinterpretAsInts();
                isum0 = isum0.add(u110.add(u110.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s11));
                ShortVector w20 = l0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.and((short) 0x30));
                IntVector s20 = sv.rearrange(J4);
                IntVector u200 = w20.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 64)).reinterpretAsInts();
                isum0 = isum0.add(u200.add(u200.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s20));
                ShortVector w21 = l1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.and((short) 0x30));
                IntVector s21 = sv.rearrange(J5);
                IntVector u210 = w21.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 80)).reinterpretAsInts();
                isum0 = isum0.add(u210.add(u210.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s21));
                ShortVector w30 = l2.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.lanewise(VectorOperators.LSHR, 2).and((short) 0x30));
                IntVector s30 = sv.rearrange(J6);
                IntVector u300 = w30.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 96)).reinterpretAsInts();
                isum0 = isum0.add(u300.add(u300.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s30));
                ShortVector w31 = l3.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.lanewise(VectorOperators.LSHR, 2).and((short) 0x30));
                IntVector s31 = sv.rearrange(J7);
                IntVector u310 = w31.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 112)).reinterpretAsInts();
                isum0 = isum0.add(u310.add(u310.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s31));
                IntVector corr0 = sv.mul(IntVector.fromArray(I, bs, ab0 * 16 + 8 * h));
                acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(d0, acc0);
                off0 = ((FloatVector) corr0.convert(VectorOperators.I2F, 0)).fma(d0, off0);
            }
        }
        FloatVector z0 = acc0.sub(off0.mul(32f));
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        return z0.add(z0.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q6_K row {@code r} (at {@code base}) times activation rows {@code t .. t + 3} (prompt processing), in float, each
     * output bit for bit what {@link #dotQ6_K} gives, as {@link #dotQ4_Kx4} is to {@link #dotQ4_K}: lane j keeps the
     * products of quants 2j and 2j + 1 of each group of 16 (each weight, 0-63, times its group's scale, at most
     * 63 x 128 in magnitude; activations from {@link Q8KActivations#pairedQuants}), summed over half a super-block,
     * every partial sum an integer below 2^24 (16 x 63 x 128 x 127), so every float operation is exact.
     * {@code scales}: scratch space for 8 floats.
     */
    static void dotQ6_Kx4(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r,
                          float[] scales) {
        float[] x = a.pairedQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector zero = FloatVector.zero(F);
        FloatVector acc0 = zero, off0 = zero, acc1 = zero, off1 = zero, acc2 = zero, off2 = zero, acc3 = zero, off3 = zero;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 210;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int ab2 = ab1 + blocks;
            int ab3 = ab2 + blocks;
            float dw = Float.float16ToFloat(w.get(I16, bo + 208));
            FloatVector d0 = FloatVector.broadcast(F, dw * ys[ab0]);
            FloatVector d1 = FloatVector.broadcast(F, dw * ys[ab1]);
            FloatVector d2 = FloatVector.broadcast(F, dw * ys[ab2]);
            FloatVector d3 = FloatVector.broadcast(F, dw * ys[ab3]);
            for (int h = 0; h < 2; h++) {
                long ql = bo + 64L * h;
                long qh = bo + 128 + 32L * h;
                IntVector sv = (IntVector) ByteVector.fromMemorySegment(B64, w, bo + 192 + 8L * h, LE).convertShape(VectorOperators.B2I, I, 0);
                ((FloatVector) sv.convert(VectorOperators.I2F, 0)).intoArray(scales, 0);
                FloatVector i0 = zero, i1 = zero, i2 = zero, i3 = zero;
                // groups k and k + 4: the low and high nibbles of the 16 bytes at ql + 16k, their top bits from the bytes
                // at qh + 16 (k & 1), bits 0-1 (k = 0, 1) or 2-3 (k = 2, 3) for group k, bits 4-5 or 6-7 for k + 4
                for (int k = 0; k < 4; k++) {
                    int hs = 2 * (k >> 1);
                    ShortVector l = (ShortVector) ByteVector.fromMemorySegment(B128, w, ql + 16L * k, LE).convertShape(VectorOperators.B2S, S, 0);
                    ShortVector hq = (ShortVector) ByteVector.fromMemorySegment(B128, w, qh + 16L * (k & 1), LE).convertShape(VectorOperators.B2S, S, 0);
                    IntVector nl = l.and((short) 15).or(hq.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, hs).and((short) 0x30)).reinterpretAsInts();
                    IntVector nh = l.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hq.lanewise(VectorOperators.LSHR, hs).and((short) 0x30)).reinterpretAsInts();
                    FloatVector cl = FloatVector.broadcast(F, scales[k]);
                    FloatVector ch = FloatVector.broadcast(F, scales[k + 4]);
                    FloatVector el = ((FloatVector) nl.and(63).convert(VectorOperators.I2F, 0)).mul(cl);
                    FloatVector ol = ((FloatVector) nl.lanewise(VectorOperators.LSHR, 16).convert(VectorOperators.I2F, 0)).mul(cl);
                    FloatVector eh = ((FloatVector) nh.and(63).convert(VectorOperators.I2F, 0)).mul(ch);
                    FloatVector oh = ((FloatVector) nh.lanewise(VectorOperators.LSHR, 16).convert(VectorOperators.I2F, 0)).mul(ch);
                    // group k's quants 16k .. 16k + 15 of the half: its even ones at 32 (k / 2) + 8 (k % 2) of the paired
                    // quants, its odd ones 16 further; group k + 4's 64 further
                    int xl = 128 * h + 32 * (k >> 1) + 8 * (k & 1);
                    int x0 = ab0 * QK + xl;
                    i0 = oh.fma(FloatVector.fromArray(F, x, x0 + 80), eh.fma(FloatVector.fromArray(F, x, x0 + 64),
                            ol.fma(FloatVector.fromArray(F, x, x0 + 16), el.fma(FloatVector.fromArray(F, x, x0), i0))));
                    int x1 = ab1 * QK + xl;
                    i1 = oh.fma(FloatVector.fromArray(F, x, x1 + 80), eh.fma(FloatVector.fromArray(F, x, x1 + 64),
                            ol.fma(FloatVector.fromArray(F, x, x1 + 16), el.fma(FloatVector.fromArray(F, x, x1), i1))));
                    int x2 = ab2 * QK + xl;
                    i2 = oh.fma(FloatVector.fromArray(F, x, x2 + 80), eh.fma(FloatVector.fromArray(F, x, x2 + 64),
                            ol.fma(FloatVector.fromArray(F, x, x2 + 16), el.fma(FloatVector.fromArray(F, x, x2), i2))));
                    int x3 = ab3 * QK + xl;
                    i3 = oh.fma(FloatVector.fromArray(F, x, x3 + 80), eh.fma(FloatVector.fromArray(F, x, x3 + 64),
                            ol.fma(FloatVector.fromArray(F, x, x3 + 16), el.fma(FloatVector.fromArray(F, x, x3), i3))));
                }
                acc0 = i0.fma(d0, acc0);
                off0 = ((FloatVector) sv.mul(IntVector.fromArray(I, bs, ab0 * 16 + 8 * h)).convert(VectorOperators.I2F, 0)).fma(d0, off0);
                acc1 = i1.fma(d1, acc1);
                off1 = ((FloatVector) sv.mul(IntVector.fromArray(I, bs, ab1 * 16 + 8 * h)).convert(VectorOperators.I2F, 0)).fma(d1, off1);
                acc2 = i2.fma(d2, acc2);
                off2 = ((FloatVector) sv.mul(IntVector.fromArray(I, bs, ab2 * 16 + 8 * h)).convert(VectorOperators.I2F, 0)).fma(d2, off2);
                acc3 = i3.fma(d3, acc3);
                off3 = ((FloatVector) sv.mul(IntVector.fromArray(I, bs, ab3 * 16 + 8 * h)).convert(VectorOperators.I2F, 0)).fma(d3, off3);
            }
        }
        FloatVector z0 = acc0.sub(off0.mul(32f));
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[(t + 0) * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1.mul(32f));
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
        FloatVector z2 = acc2.sub(off2.mul(32f));
        z2 = z2.add(z2.rearrange(SWAP4));
        z2 = z2.add(z2.rearrange(SWAP2));
        out[(t + 2) * rows + r] = z2.add(z2.rearrange(SWAP1)).lane(0);
        FloatVector z3 = acc3.sub(off3.mul(32f));
        z3 = z3.add(z3.rearrange(SWAP4));
        z3 = z3.add(z3.rearrange(SWAP2));
        out[(t + 3) * rows + r] = z3.add(z3.rearrange(SWAP1)).lane(0);
    }

    /** {@link #dotQ6_K} for activation rows {@code t} and {@code t + 1}, each weight block unpacked once; bit-identical. */
    static void dotQ6_Kx2(MemorySegment w, long base, int blocks, Q8KActivations a, int t, float[] out, int rows, int r) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector off0 = acc0, acc1 = acc0, off1 = acc0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 210;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + 1 * blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            float dw = Float.float16ToFloat(w.get(I16, bo + 208));
            FloatVector d0 = FloatVector.broadcast(F, dw * ys[ab0]);
            FloatVector d1 = FloatVector.broadcast(F, dw * ys[ab1]);
            for (int h = 0; h < 2; h++) {
                long ql = bo + 64L * h;
                long qh = bo + 128 + 32L * h;
                IntVector sv = (IntVector) ByteVector.fromMemorySegment(B64, w, bo + 192 + 8L * h, LE).convertShape(VectorOperators.B2I, I, 0);
                ShortVector l0 = bytes16(w, ql + 0);
                ShortVector l1 = bytes16(w, ql + 16);
                ShortVector l2 = bytes16(w, ql + 32);
                ShortVector l3 = bytes16(w, ql + 48);
                ShortVector h0 = bytes16(w, qh + 0);
                ShortVector h1 = bytes16(w, qh + 16);
                IntVector isum0 = IntVector.zero(I), isum1 = isum0;
                ShortVector w00 = l0.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).and((short) 0x30));
                IntVector s00 = sv.rearrange(J0);
                IntVector u000 = w00.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 0)).reinterpretAsInts();
                isum0 = isum0.add(u000.add(u000.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s00));
                IntVector u001 = w00.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 0)).reinterpretAsInts();
                isum1 = isum1.add(u001.add(u001.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s00));
                ShortVector w01 = l1.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).and((short) 0x30));
                IntVector s01 = sv.rearrange(J1);
                IntVector u010 = w01.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 16)).reinterpretAsInts();
                isum0 = isum0.add(u010.add(u010.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s01));
                IntVector u011 = w01.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 16)).reinterpretAsInts();
                isum1 = isum1.add(u011.add(u011.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s01));
                ShortVector w10 = l2.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 2).and((short) 0x30));
                IntVector s10 = sv.rearrange(J2);
                IntVector u100 = w10.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 32)).reinterpretAsInts();
                isum0 = isum0.add(u100.add(u100.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s10));
                IntVector u101 = w10.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 32)).reinterpretAsInts();
                isum1 = isum1.add(u101.add(u101.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s10));
                ShortVector w11 = l3.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 2).and((short) 0x30));
                IntVector s11 = sv.rearrange(J3);
                IntVector u110 = w11.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 48)).reinterpretAsInts();
                isum0 = isum0.add(u110.add(u110.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s11));
                IntVector u111 = w11.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 48)).reinterpretAsInts();
                isum1 = isum1.add(u111.add(u111.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s11));
                ShortVector w20 = l0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.and((short) 0x30));
                IntVector s20 = sv.rearrange(J4);
                IntVector u200 = w20.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 64)).reinterpretAsInts();
                isum0 = isum0.add(u200.add(u200.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s20));
                IntVector u201 = w20.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 64)).reinterpretAsInts();
                isum1 = isum1.add(u201.add(u201.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s20));
                ShortVector w21 = l1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.and((short) 0x30));
                IntVector s21 = sv.rearrange(J5);
                IntVector u210 = w21.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 80)).reinterpretAsInts();
                isum0 = isum0.add(u210.add(u210.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s21));
                IntVector u211 = w21.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 80)).reinterpretAsInts();
                isum1 = isum1.add(u211.add(u211.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s21));
                ShortVector w30 = l2.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.lanewise(VectorOperators.LSHR, 2).and((short) 0x30));
                IntVector s30 = sv.rearrange(J6);
                IntVector u300 = w30.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 96)).reinterpretAsInts();
                isum0 = isum0.add(u300.add(u300.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s30));
                IntVector u301 = w30.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 96)).reinterpretAsInts();
                isum1 = isum1.add(u301.add(u301.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s30));
                ShortVector w31 = l3.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.lanewise(VectorOperators.LSHR, 2).and((short) 0x30));
                IntVector s31 = sv.rearrange(J7);
                IntVector u310 = w31.mul(ShortVector.fromArray(S, q, xo0 + 128 * h + 112)).reinterpretAsInts();
                isum0 = isum0.add(u310.add(u310.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s31));
                IntVector u311 = w31.mul(ShortVector.fromArray(S, q, xo1 + 128 * h + 112)).reinterpretAsInts();
                isum1 = isum1.add(u311.add(u311.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s31));
                IntVector corr0 = sv.mul(IntVector.fromArray(I, bs, ab0 * 16 + 8 * h));
                acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(d0, acc0);
                off0 = ((FloatVector) corr0.convert(VectorOperators.I2F, 0)).fma(d0, off0);
                IntVector corr1 = sv.mul(IntVector.fromArray(I, bs, ab1 * 16 + 8 * h));
                acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(d1, acc1);
                off1 = ((FloatVector) corr1.convert(VectorOperators.I2F, 0)).fma(d1, off1);
            }
        }
        FloatVector z0 = acc0.sub(off0.mul(32f));
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1.mul(32f));
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
    }
}
