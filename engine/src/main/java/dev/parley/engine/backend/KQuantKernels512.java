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
 * Q4_K, Q5_K and Q6_K rows times Q8_K activations with 512-bit vectors. A sub-block of 32 quants is one vector of
 * 32 shorts: its nibbles are widened once per 32 bytes (low and high nibbles split after the widening, so no byte
 * shifts), multiplied with the activation quants, adjacent products summed into 16 int lanes ({@code v + (v << 16)}
 * puts the sum of an int lane's two shorts in its high half, with no carry from the low half; every such sum is below
 * 2^15 in magnitude, at most 2 * 63 * 127 for Q6_K) and multiplied by the sub-block's scale, which comes out of a
 * vector of the super-block's scales by one permute. The 6-bit scales and mins are unpacked with vector operations,
 * not byte by byte (unpacking them one at a time took half the time). The mins of Q4_K and Q5_K and the offset 32 of
 * Q6_K go through the activations' sums of 16 as one vector product per super-block. Every integer sum of a
 * super-block is exact, as in ggml, and fits a float exactly per lane; only the float additions across blocks and
 * lanes come in another order than in the scalar reference ({@code Q4_KTensor.dot} and its siblings).
 *
 * <p>The multi-row and multi-token kernels (prompt processing) give each (row, token) bit for bit what the one-row
 * kernels give, so a prompt and the same tokens decoded one by one agree exactly.
 */
final class KQuantKernels512 {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_512;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_512;
    private static final VectorSpecies<Byte> B256 = ByteVector.SPECIES_256;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final int QK = Q8KActivations.BLOCK;

    /** Lane j of the 12 scale bytes (as 16 ints) that holds sub-block j's low scale bits, and its high bits' lane. */
    private static final VectorShuffle<Integer> SC_LOW = shuffle(i -> i % 8 < 4 ? i % 8 : i % 8 + 4);
    private static final VectorShuffle<Integer> SC_HIGH = shuffle(i -> i % 8 < 4 ? i % 8 : i % 8 - 4);
    private static final VectorMask<Integer> FIRST_FOUR_J = VectorMask.fromLong(I, 0x0f0f);
    /** Sub-block j's scale in every lane. */
    private static final VectorShuffle<Integer> J0 = shuffle(i -> 0), J1 = shuffle(i -> 1), J2 = shuffle(i -> 2),
            J3 = shuffle(i -> 3), J4 = shuffle(i -> 4), J5 = shuffle(i -> 5), J6 = shuffle(i -> 6), J7 = shuffle(i -> 7);
    /** For lane g (a sum of 16 activations), sub-block g / 2's min: its low bits' lane and its high bits' lane. */
    private static final VectorShuffle<Integer> MIN_LOW = shuffle(i -> i / 2 + 4);
    private static final VectorShuffle<Integer> MIN_HIGH = shuffle(i -> i / 2);
    private static final VectorMask<Integer> FIRST_FOUR_G = VectorMask.fromLong(I, 0x00ff);

    /** Q6_K: for the 32 values {@code 32p .. 32p+31}, scale {@code 2p} in lanes 0-7 (values 0-15) and {@code 2p + 1} in 8-15. */
    private static final VectorShuffle<Integer> P0 = pair(0), P1 = pair(1), P2 = pair(2), P3 = pair(3), P4 = pair(4),
            P5 = pair(5), P6 = pair(6), P7 = pair(7);

    private KQuantKernels512() {
    }

    private static VectorShuffle<Integer> shuffle(java.util.function.IntUnaryOperator lane) {
        int[] index = new int[16];
        for (int i = 0; i < 16; i++) {
            index[i] = lane.applyAsInt(i);
        }
        return VectorShuffle.fromArray(I, index, 0);
    }

    private static VectorShuffle<Integer> pair(int p) {
        return shuffle(i -> 2 * p + i / 8);
    }

    /**
     * The steps of the fixed summation tree that ends every kernel (lane i ^ 8, ^ 4, ^ 2, ^ 1 added to lane i).
     * {@code reduceLanes(ADD)} leaves the order open, and the JIT's order is not the interpreter's, so a one-row and a
     * two-row kernel, one compiled and the other not yet, would round differently; prompt and decode must agree bit
     * for bit. Written out in each kernel: a call of our own at the end of a kernel this size is not inlined, and its
     * vector argument would be boxed.
     */
    private static final VectorShuffle<Float> SWAP8 = SumTree.swap(F, 8), SWAP4 = SumTree.swap(F, 4),
            SWAP2 = SumTree.swap(F, 2), SWAP1 = SumTree.swap(F, 1);

    /** The 32 bytes at {@code at} widened (sign-extended) to shorts. */
    private static ShortVector bytes32(MemorySegment w, long at) {
        return (ShortVector) ByteVector.fromMemorySegment(B256, w, at, LE).convertShape(VectorOperators.B2S, S, 0);
    }

    /**
     * Q4_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}. Written out
     * sub-block by sub-block with no calls of our own: the scales' shuffles are then constants, and C2's inlining
     * budget (a method this size exhausts it) is spent only on the Vector API's own force-inlined methods, so no
     * vector is ever boxed.
     */
    static float dotQ4_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab = t * blocks + b;
            int xo = ab * QK;
            IntVector s = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl = s.rearrange(SC_LOW);
            IntVector sc = sl.and(15).or(s.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(sl.and(63), FIRST_FOUR_J);
            IntVector ml = s.rearrange(MIN_LOW);
            IntVector m = ml.lanewise(VectorOperators.LSHR, 4).or(s.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml.and(63), FIRST_FOUR_G);
            ShortVector n0 = bytes32(w, bo + 16), n1 = bytes32(w, bo + 48), n2 = bytes32(w, bo + 80), n3 = bytes32(w, bo + 112);
            IntVector p0 = n0.and((short) 15).mul(ShortVector.fromArray(S, q, xo + 0)).reinterpretAsInts();
            IntVector p1 = n0.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 32)).reinterpretAsInts();
            IntVector p2 = n1.and((short) 15).mul(ShortVector.fromArray(S, q, xo + 64)).reinterpretAsInts();
            IntVector p3 = n1.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 96)).reinterpretAsInts();
            IntVector p4 = n2.and((short) 15).mul(ShortVector.fromArray(S, q, xo + 128)).reinterpretAsInts();
            IntVector p5 = n2.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 160)).reinterpretAsInts();
            IntVector p6 = n3.and((short) 15).mul(ShortVector.fromArray(S, q, xo + 192)).reinterpretAsInts();
            IntVector p7 = n3.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 224)).reinterpretAsInts();
            IntVector isum = p0.add(p0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J0))
                    .add(p1.add(p1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J1)))
                    .add(p2.add(p2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J2)))
                    .add(p3.add(p3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J3)))
                    .add(p4.add(p4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J4)))
                    .add(p5.add(p5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J5)))
                    .add(p6.add(p6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J6)))
                    .add(p7.add(p7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J7)));
            IntVector msum = m.mul(IntVector.fromArray(I, bs, ab * 16));
            float yd = ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
            off = ((FloatVector) msum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)) * yd), off);
        }
        FloatVector z = acc.sub(off);
        z = z.add(z.rearrange(SWAP8));
        z = z.add(z.rearrange(SWAP4));
        z = z.add(z.rearrange(SWAP2));
        return z.add(z.rearrange(SWAP1)).lane(0);
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
            int ab1 = ab0 + blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            IntVector s = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl = s.rearrange(SC_LOW);
            IntVector sc = sl.and(15).or(s.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(sl.and(63), FIRST_FOUR_J);
            IntVector ml = s.rearrange(MIN_LOW);
            IntVector m = ml.lanewise(VectorOperators.LSHR, 4).or(s.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml.and(63), FIRST_FOUR_G);
            ShortVector n0 = bytes32(w, bo + 16), n1 = bytes32(w, bo + 48), n2 = bytes32(w, bo + 80), n3 = bytes32(w, bo + 112);
            IntVector isum0 = IntVector.zero(I), isum1 = isum0;
            ShortVector w0 = n0.and((short) 15);
            IntVector s0 = sc.rearrange(J0);
            IntVector u0 = w0.mul(ShortVector.fromArray(S, q, xo0 + 0)).reinterpretAsInts();
            IntVector v0 = w0.mul(ShortVector.fromArray(S, q, xo1 + 0)).reinterpretAsInts();
            isum0 = isum0.add(u0.add(u0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
            isum1 = isum1.add(v0.add(v0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
            ShortVector w1 = n0.lanewise(VectorOperators.LSHR, 4).and((short) 15);
            IntVector s1 = sc.rearrange(J1);
            IntVector u1 = w1.mul(ShortVector.fromArray(S, q, xo0 + 32)).reinterpretAsInts();
            IntVector v1 = w1.mul(ShortVector.fromArray(S, q, xo1 + 32)).reinterpretAsInts();
            isum0 = isum0.add(u1.add(u1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
            isum1 = isum1.add(v1.add(v1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
            ShortVector w2 = n1.and((short) 15);
            IntVector s2 = sc.rearrange(J2);
            IntVector u2 = w2.mul(ShortVector.fromArray(S, q, xo0 + 64)).reinterpretAsInts();
            IntVector v2 = w2.mul(ShortVector.fromArray(S, q, xo1 + 64)).reinterpretAsInts();
            isum0 = isum0.add(u2.add(u2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
            isum1 = isum1.add(v2.add(v2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
            ShortVector w3 = n1.lanewise(VectorOperators.LSHR, 4).and((short) 15);
            IntVector s3 = sc.rearrange(J3);
            IntVector u3 = w3.mul(ShortVector.fromArray(S, q, xo0 + 96)).reinterpretAsInts();
            IntVector v3 = w3.mul(ShortVector.fromArray(S, q, xo1 + 96)).reinterpretAsInts();
            isum0 = isum0.add(u3.add(u3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
            isum1 = isum1.add(v3.add(v3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
            ShortVector w4 = n2.and((short) 15);
            IntVector s4 = sc.rearrange(J4);
            IntVector u4 = w4.mul(ShortVector.fromArray(S, q, xo0 + 128)).reinterpretAsInts();
            IntVector v4 = w4.mul(ShortVector.fromArray(S, q, xo1 + 128)).reinterpretAsInts();
            isum0 = isum0.add(u4.add(u4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s4));
            isum1 = isum1.add(v4.add(v4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s4));
            ShortVector w5 = n2.lanewise(VectorOperators.LSHR, 4).and((short) 15);
            IntVector s5 = sc.rearrange(J5);
            IntVector u5 = w5.mul(ShortVector.fromArray(S, q, xo0 + 160)).reinterpretAsInts();
            IntVector v5 = w5.mul(ShortVector.fromArray(S, q, xo1 + 160)).reinterpretAsInts();
            isum0 = isum0.add(u5.add(u5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s5));
            isum1 = isum1.add(v5.add(v5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s5));
            ShortVector w6 = n3.and((short) 15);
            IntVector s6 = sc.rearrange(J6);
            IntVector u6 = w6.mul(ShortVector.fromArray(S, q, xo0 + 192)).reinterpretAsInts();
            IntVector v6 = w6.mul(ShortVector.fromArray(S, q, xo1 + 192)).reinterpretAsInts();
            isum0 = isum0.add(u6.add(u6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s6));
            isum1 = isum1.add(v6.add(v6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s6));
            ShortVector w7 = n3.lanewise(VectorOperators.LSHR, 4).and((short) 15);
            IntVector s7 = sc.rearrange(J7);
            IntVector u7 = w7.mul(ShortVector.fromArray(S, q, xo0 + 224)).reinterpretAsInts();
            IntVector v7 = w7.mul(ShortVector.fromArray(S, q, xo1 + 224)).reinterpretAsInts();
            isum0 = isum0.add(u7.add(u7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s7));
            isum1 = isum1.add(v7.add(v7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s7));
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab0 * 16)).convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            off1 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab1 * 16)).convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, dm * ys[ab1]), off1);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP8));
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1);
        z1 = z1.add(z1.rearrange(SWAP8));
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q4_K rows {@code r, r + 1} (at {@code base}, {@code rowBytes} apart) times activation rows {@code t .. t + 3}
     * (prompt processing), in float, each output bit for bit what {@link #dotQ4_K} gives. Lane i keeps what the integer
     * kernel's lane i keeps: the products of quants 2i and 2i + 1 of each sub-block (weights split into even and odd
     * int lanes and multiplied by the sub-block's scale, at most 15 * 63; activations from
     * {@link Q8KActivations#pairedQuants}), summed over the super-block. Every partial sum is an integer below 2^24,
     * so each float operation is exact and a super-block's lanes equal the integer kernel's before they are scaled;
     * what follows is the same float arithmetic as there. Two fused multiply-adds per 32 weights, row and token
     * (against six integer operations), each activation vector loaded once for both rows and each unpacked weight
     * vector used for four tokens. {@code scales}: scratch space for 32 floats (both rows' scales, broadcast from
     * memory).
     */
    static void dotQ4_Kr2x4(MemorySegment w, long base, long rowBytes, int blocks, Q8KActivations a, int t,
                            float[] out, int rows, int r, float[] scales) {
        float[] x = a.pairedQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector zero = FloatVector.zero(F);
        FloatVector acc00 = zero, acc01 = zero, acc02 = zero, acc03 = zero, acc10 = zero, acc11 = zero, acc12 = zero, acc13 = zero, off00 = zero, off01 = zero, off02 = zero, off03 = zero, off10 = zero, off11 = zero, off12 = zero, off13 = zero;
        for (int b = 0; b < blocks; b++) {
            long bo0 = base + (long) b * 144;
            long bo1 = bo0 + rowBytes;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int ab2 = ab1 + blocks;
            int ab3 = ab2 + blocks;
            IntVector s0 = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo0 + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl0 = s0.rearrange(SC_LOW);
            ((FloatVector) sl0.and(15).or(s0.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(sl0.and(63), FIRST_FOUR_J).convert(VectorOperators.I2F, 0)).intoArray(scales, 0);
            IntVector ml0 = s0.rearrange(MIN_LOW);
            IntVector m0 = ml0.lanewise(VectorOperators.LSHR, 4).or(s0.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml0.and(63), FIRST_FOUR_G);
            IntVector s1 = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo1 + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl1 = s1.rearrange(SC_LOW);
            ((FloatVector) sl1.and(15).or(s1.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(sl1.and(63), FIRST_FOUR_J).convert(VectorOperators.I2F, 0)).intoArray(scales, 16);
            IntVector ml1 = s1.rearrange(MIN_LOW);
            IntVector m1 = ml1.lanewise(VectorOperators.LSHR, 4).or(s1.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml1.and(63), FIRST_FOUR_G);
            FloatVector i00 = zero, i01 = zero, i02 = zero, i03 = zero, i10 = zero, i11 = zero, i12 = zero, i13 = zero;
            for (int j = 0; j < 8; j++) {
                int shift = (j & 1) * 4;
                long at = 16 + 32L * (j >> 1);
                IntVector n0 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo0 + at, LE)
                        .convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                FloatVector c0 = FloatVector.broadcast(F, scales[0 + j]);
                FloatVector e0 = ((FloatVector) n0.and(15).convert(VectorOperators.I2F, 0)).mul(c0);
                FloatVector o0 = ((FloatVector) n0.lanewise(VectorOperators.LSHR, 16).and(15).convert(VectorOperators.I2F, 0)).mul(c0);
                IntVector n1 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo1 + at, LE)
                        .convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                FloatVector c1 = FloatVector.broadcast(F, scales[16 + j]);
                FloatVector e1 = ((FloatVector) n1.and(15).convert(VectorOperators.I2F, 0)).mul(c1);
                FloatVector o1 = ((FloatVector) n1.lanewise(VectorOperators.LSHR, 16).and(15).convert(VectorOperators.I2F, 0)).mul(c1);
                FloatVector xe0 = FloatVector.fromArray(F, x, ab0 * QK + 32 * j);
                FloatVector xo0 = FloatVector.fromArray(F, x, ab0 * QK + 32 * j + 16);
                i00 = o0.fma(xo0, e0.fma(xe0, i00));
                i10 = o1.fma(xo0, e1.fma(xe0, i10));
                FloatVector xe1 = FloatVector.fromArray(F, x, ab1 * QK + 32 * j);
                FloatVector xo1 = FloatVector.fromArray(F, x, ab1 * QK + 32 * j + 16);
                i01 = o0.fma(xo1, e0.fma(xe1, i01));
                i11 = o1.fma(xo1, e1.fma(xe1, i11));
                FloatVector xe2 = FloatVector.fromArray(F, x, ab2 * QK + 32 * j);
                FloatVector xo2 = FloatVector.fromArray(F, x, ab2 * QK + 32 * j + 16);
                i02 = o0.fma(xo2, e0.fma(xe2, i02));
                i12 = o1.fma(xo2, e1.fma(xe2, i12));
                FloatVector xe3 = FloatVector.fromArray(F, x, ab3 * QK + 32 * j);
                FloatVector xo3 = FloatVector.fromArray(F, x, ab3 * QK + 32 * j + 16);
                i03 = o0.fma(xo3, e0.fma(xe3, i03));
                i13 = o1.fma(xo3, e1.fma(xe3, i13));
            }
            float dw0 = Float.float16ToFloat(w.get(I16, bo0));
            float dm0 = Float.float16ToFloat(w.get(I16, bo0 + 2));
            float dw1 = Float.float16ToFloat(w.get(I16, bo1));
            float dm1 = Float.float16ToFloat(w.get(I16, bo1 + 2));
            IntVector bk0 = IntVector.fromArray(I, bs, ab0 * 16);
            acc00 = i00.fma(FloatVector.broadcast(F, dw0 * ys[ab0]), acc00);
            off00 = ((FloatVector) m0.mul(bk0).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab0]), off00);
            acc10 = i10.fma(FloatVector.broadcast(F, dw1 * ys[ab0]), acc10);
            off10 = ((FloatVector) m1.mul(bk0).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab0]), off10);
            IntVector bk1 = IntVector.fromArray(I, bs, ab1 * 16);
            acc01 = i01.fma(FloatVector.broadcast(F, dw0 * ys[ab1]), acc01);
            off01 = ((FloatVector) m0.mul(bk1).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab1]), off01);
            acc11 = i11.fma(FloatVector.broadcast(F, dw1 * ys[ab1]), acc11);
            off11 = ((FloatVector) m1.mul(bk1).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab1]), off11);
            IntVector bk2 = IntVector.fromArray(I, bs, ab2 * 16);
            acc02 = i02.fma(FloatVector.broadcast(F, dw0 * ys[ab2]), acc02);
            off02 = ((FloatVector) m0.mul(bk2).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab2]), off02);
            acc12 = i12.fma(FloatVector.broadcast(F, dw1 * ys[ab2]), acc12);
            off12 = ((FloatVector) m1.mul(bk2).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab2]), off12);
            IntVector bk3 = IntVector.fromArray(I, bs, ab3 * 16);
            acc03 = i03.fma(FloatVector.broadcast(F, dw0 * ys[ab3]), acc03);
            off03 = ((FloatVector) m0.mul(bk3).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab3]), off03);
            acc13 = i13.fma(FloatVector.broadcast(F, dw1 * ys[ab3]), acc13);
            off13 = ((FloatVector) m1.mul(bk3).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab3]), off13);
        }
        FloatVector z00 = acc00.sub(off00);
        z00 = z00.add(z00.rearrange(SWAP8));
        z00 = z00.add(z00.rearrange(SWAP4));
        z00 = z00.add(z00.rearrange(SWAP2));
        out[(t + 0) * rows + r + 0] = z00.add(z00.rearrange(SWAP1)).lane(0);
        FloatVector z01 = acc01.sub(off01);
        z01 = z01.add(z01.rearrange(SWAP8));
        z01 = z01.add(z01.rearrange(SWAP4));
        z01 = z01.add(z01.rearrange(SWAP2));
        out[(t + 1) * rows + r + 0] = z01.add(z01.rearrange(SWAP1)).lane(0);
        FloatVector z02 = acc02.sub(off02);
        z02 = z02.add(z02.rearrange(SWAP8));
        z02 = z02.add(z02.rearrange(SWAP4));
        z02 = z02.add(z02.rearrange(SWAP2));
        out[(t + 2) * rows + r + 0] = z02.add(z02.rearrange(SWAP1)).lane(0);
        FloatVector z03 = acc03.sub(off03);
        z03 = z03.add(z03.rearrange(SWAP8));
        z03 = z03.add(z03.rearrange(SWAP4));
        z03 = z03.add(z03.rearrange(SWAP2));
        out[(t + 3) * rows + r + 0] = z03.add(z03.rearrange(SWAP1)).lane(0);
        FloatVector z10 = acc10.sub(off10);
        z10 = z10.add(z10.rearrange(SWAP8));
        z10 = z10.add(z10.rearrange(SWAP4));
        z10 = z10.add(z10.rearrange(SWAP2));
        out[(t + 0) * rows + r + 1] = z10.add(z10.rearrange(SWAP1)).lane(0);
        FloatVector z11 = acc11.sub(off11);
        z11 = z11.add(z11.rearrange(SWAP8));
        z11 = z11.add(z11.rearrange(SWAP4));
        z11 = z11.add(z11.rearrange(SWAP2));
        out[(t + 1) * rows + r + 1] = z11.add(z11.rearrange(SWAP1)).lane(0);
        FloatVector z12 = acc12.sub(off12);
        z12 = z12.add(z12.rearrange(SWAP8));
        z12 = z12.add(z12.rearrange(SWAP4));
        z12 = z12.add(z12.rearrange(SWAP2));
        out[(t + 2) * rows + r + 1] = z12.add(z12.rearrange(SWAP1)).lane(0);
        FloatVector z13 = acc13.sub(off13);
        z13 = z13.add(z13.rearrange(SWAP8));
        z13 = z13.add(z13.rearrange(SWAP4));
        z13 = z13.add(z13.rearrange(SWAP2));
        out[(t + 3) * rows + r + 1] = z13.add(z13.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q6_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}; written out as
     * {@link #dotQ4_K} is, for the same reason. Quants are taken as 0..63; the offset 32 goes through the sums of 16.
     */
    static float dotQ6_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 210;
            int ab = t * blocks + b;
            int xo = ab * QK;
            ShortVector l00 = bytes32(w, bo), l01 = bytes32(w, bo + 32), l10 = bytes32(w, bo + 64), l11 = bytes32(w, bo + 96);
            ShortVector h0 = bytes32(w, bo + 128), h1 = bytes32(w, bo + 160);
            IntVector scv = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 192, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector p0 = l00.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 0)).reinterpretAsInts();
            IntVector p1 = l01.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 2).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 32)).reinterpretAsInts();
            IntVector p2 = l00.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 4).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 64)).reinterpretAsInts();
            IntVector p3 = l01.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 6).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 96)).reinterpretAsInts();
            IntVector p4 = l10.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 128)).reinterpretAsInts();
            IntVector p5 = l11.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 2).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 160)).reinterpretAsInts();
            IntVector p6 = l10.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 4).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 192)).reinterpretAsInts();
            IntVector p7 = l11.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 6).and((short) 0x30)).mul(ShortVector.fromArray(S, q, xo + 224)).reinterpretAsInts();
            IntVector isum = p0.add(p0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P0))
                    .add(p1.add(p1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P1)))
                    .add(p2.add(p2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P2)))
                    .add(p3.add(p3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P3)))
                    .add(p4.add(p4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P4)))
                    .add(p5.add(p5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P5)))
                    .add(p6.add(p6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P6)))
                    .add(p7.add(p7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(scv.rearrange(P7)));
            IntVector corr = scv.mul(IntVector.fromArray(I, bs, ab * 16));
            FloatVector d = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 208)) * ys[ab]);
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0)).fma(d, acc);
            off = ((FloatVector) corr.convert(VectorOperators.I2F, 0)).fma(d, off);
        }
        FloatVector z = acc.sub(off.mul(32f));
        z = z.add(z.rearrange(SWAP8));
        z = z.add(z.rearrange(SWAP4));
        z = z.add(z.rearrange(SWAP2));
        return z.add(z.rearrange(SWAP1)).lane(0);
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
            int ab1 = ab0 + blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            ShortVector l00 = bytes32(w, bo), l01 = bytes32(w, bo + 32), l10 = bytes32(w, bo + 64), l11 = bytes32(w, bo + 96);
            ShortVector h0 = bytes32(w, bo + 128), h1 = bytes32(w, bo + 160);
            IntVector scv = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 192, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector isum0 = IntVector.zero(I), isum1 = isum0;
            ShortVector w0 = l00.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).and((short) 0x30));
            IntVector s0 = scv.rearrange(P0);
            IntVector u0 = w0.mul(ShortVector.fromArray(S, q, xo0 + 0)).reinterpretAsInts();
            IntVector v0 = w0.mul(ShortVector.fromArray(S, q, xo1 + 0)).reinterpretAsInts();
            isum0 = isum0.add(u0.add(u0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
            isum1 = isum1.add(v0.add(v0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
            ShortVector w1 = l01.and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 2).and((short) 0x30));
            IntVector s1 = scv.rearrange(P1);
            IntVector u1 = w1.mul(ShortVector.fromArray(S, q, xo0 + 32)).reinterpretAsInts();
            IntVector v1 = w1.mul(ShortVector.fromArray(S, q, xo1 + 32)).reinterpretAsInts();
            isum0 = isum0.add(u1.add(u1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
            isum1 = isum1.add(v1.add(v1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
            ShortVector w2 = l00.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 4).and((short) 0x30));
            IntVector s2 = scv.rearrange(P2);
            IntVector u2 = w2.mul(ShortVector.fromArray(S, q, xo0 + 64)).reinterpretAsInts();
            IntVector v2 = w2.mul(ShortVector.fromArray(S, q, xo1 + 64)).reinterpretAsInts();
            isum0 = isum0.add(u2.add(u2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
            isum1 = isum1.add(v2.add(v2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
            ShortVector w3 = l01.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h0.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 6).and((short) 0x30));
            IntVector s3 = scv.rearrange(P3);
            IntVector u3 = w3.mul(ShortVector.fromArray(S, q, xo0 + 96)).reinterpretAsInts();
            IntVector v3 = w3.mul(ShortVector.fromArray(S, q, xo1 + 96)).reinterpretAsInts();
            isum0 = isum0.add(u3.add(u3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
            isum1 = isum1.add(v3.add(v3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
            ShortVector w4 = l10.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).and((short) 0x30));
            IntVector s4 = scv.rearrange(P4);
            IntVector u4 = w4.mul(ShortVector.fromArray(S, q, xo0 + 128)).reinterpretAsInts();
            IntVector v4 = w4.mul(ShortVector.fromArray(S, q, xo1 + 128)).reinterpretAsInts();
            isum0 = isum0.add(u4.add(u4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s4));
            isum1 = isum1.add(v4.add(v4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s4));
            ShortVector w5 = l11.and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 2).and((short) 0x30));
            IntVector s5 = scv.rearrange(P5);
            IntVector u5 = w5.mul(ShortVector.fromArray(S, q, xo0 + 160)).reinterpretAsInts();
            IntVector v5 = w5.mul(ShortVector.fromArray(S, q, xo1 + 160)).reinterpretAsInts();
            isum0 = isum0.add(u5.add(u5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s5));
            isum1 = isum1.add(v5.add(v5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s5));
            ShortVector w6 = l10.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 4).and((short) 0x30));
            IntVector s6 = scv.rearrange(P6);
            IntVector u6 = w6.mul(ShortVector.fromArray(S, q, xo0 + 192)).reinterpretAsInts();
            IntVector v6 = w6.mul(ShortVector.fromArray(S, q, xo1 + 192)).reinterpretAsInts();
            isum0 = isum0.add(u6.add(u6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s6));
            isum1 = isum1.add(v6.add(v6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s6));
            ShortVector w7 = l11.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(h1.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 6).and((short) 0x30));
            IntVector s7 = scv.rearrange(P7);
            IntVector u7 = w7.mul(ShortVector.fromArray(S, q, xo0 + 224)).reinterpretAsInts();
            IntVector v7 = w7.mul(ShortVector.fromArray(S, q, xo1 + 224)).reinterpretAsInts();
            isum0 = isum0.add(u7.add(u7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s7));
            isum1 = isum1.add(v7.add(v7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s7));
            float dw = Float.float16ToFloat(w.get(I16, bo + 208));
            FloatVector d0 = FloatVector.broadcast(F, dw * ys[ab0]);
            FloatVector d1 = FloatVector.broadcast(F, dw * ys[ab1]);
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(d0, acc0);
            off0 = ((FloatVector) scv.mul(IntVector.fromArray(I, bs, ab0 * 16)).convert(VectorOperators.I2F, 0)).fma(d0, off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(d1, acc1);
            off1 = ((FloatVector) scv.mul(IntVector.fromArray(I, bs, ab1 * 16)).convert(VectorOperators.I2F, 0)).fma(d1, off1);
        }
        FloatVector z0 = acc0.sub(off0.mul(32f));
        z0 = z0.add(z0.rearrange(SWAP8));
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1.mul(32f));
        z1 = z1.add(z1.rearrange(SWAP8));
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q5_K rows {@code r, r + 1} (at {@code base}, {@code rowBytes} apart) times activation rows {@code t .. t + 3}
     * (prompt processing), in float, each output bit for bit what {@link #dotQ5_K} gives (as {@link #dotQ4_Kr2x4}, with the fifth bit from {@code qh}). Lane i keeps what the integer
     * kernel's lane i keeps: the products of quants 2i and 2i + 1 of each sub-block (weights split into even and odd
     * int lanes and multiplied by the sub-block's scale, at most 31 * 63; activations from
     * {@link Q8KActivations#pairedQuants}), summed over the super-block. Every partial sum is an integer below 2^24,
     * so each float operation is exact and a super-block's lanes equal the integer kernel's before they are scaled;
     * what follows is the same float arithmetic as there. Two fused multiply-adds per 32 weights, row and token
     * (against six integer operations), each activation vector loaded once for both rows and each unpacked weight
     * vector used for four tokens. {@code scales}: scratch space for 32 floats (both rows' scales, broadcast from
     * memory).
     */
    static void dotQ5_Kr2x4(MemorySegment w, long base, long rowBytes, int blocks, Q8KActivations a, int t,
                            float[] out, int rows, int r, float[] scales) {
        float[] x = a.pairedQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector zero = FloatVector.zero(F);
        FloatVector acc00 = zero, acc01 = zero, acc02 = zero, acc03 = zero, acc10 = zero, acc11 = zero, acc12 = zero, acc13 = zero, off00 = zero, off01 = zero, off02 = zero, off03 = zero, off10 = zero, off11 = zero, off12 = zero, off13 = zero;
        for (int b = 0; b < blocks; b++) {
            long bo0 = base + (long) b * 176;
            long bo1 = bo0 + rowBytes;
            int ab0 = t * blocks + b;
            int ab1 = ab0 + blocks;
            int ab2 = ab1 + blocks;
            int ab3 = ab2 + blocks;
            IntVector s0 = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo0 + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl0 = s0.rearrange(SC_LOW);
            ((FloatVector) sl0.and(15).or(s0.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(sl0.and(63), FIRST_FOUR_J).convert(VectorOperators.I2F, 0)).intoArray(scales, 0);
            IntVector ml0 = s0.rearrange(MIN_LOW);
            IntVector m0 = ml0.lanewise(VectorOperators.LSHR, 4).or(s0.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml0.and(63), FIRST_FOUR_G);
            IntVector s1 = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo1 + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl1 = s1.rearrange(SC_LOW);
            ((FloatVector) sl1.and(15).or(s1.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(sl1.and(63), FIRST_FOUR_J).convert(VectorOperators.I2F, 0)).intoArray(scales, 16);
            IntVector ml1 = s1.rearrange(MIN_LOW);
            IntVector m1 = ml1.lanewise(VectorOperators.LSHR, 4).or(s1.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml1.and(63), FIRST_FOUR_G);
            IntVector hb0 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo0 + 16, LE).convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts();
            IntVector hb1 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo1 + 16, LE).convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts();
            FloatVector i00 = zero, i01 = zero, i02 = zero, i03 = zero, i10 = zero, i11 = zero, i12 = zero, i13 = zero;
            for (int j = 0; j < 8; j++) {
                int shift = (j & 1) * 4;
                long at = 48 + 32L * (j >> 1);
                IntVector n0 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo0 + at, LE)
                        .convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                IntVector g0 = hb0.lanewise(VectorOperators.LSHR, j);
                FloatVector c0 = FloatVector.broadcast(F, scales[0 + j]);
                FloatVector e0 = ((FloatVector) n0.and(15).or(g0.lanewise(VectorOperators.LSHL, 4).and(16))
                        .convert(VectorOperators.I2F, 0)).mul(c0);
                FloatVector o0 = ((FloatVector) n0.lanewise(VectorOperators.LSHR, 16).and(15)
                        .or(g0.lanewise(VectorOperators.LSHR, 12).and(16)).convert(VectorOperators.I2F, 0)).mul(c0);
                IntVector n1 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo1 + at, LE)
                        .convertShape(VectorOperators.B2S, S, 0)).reinterpretAsInts().lanewise(VectorOperators.LSHR, shift);
                IntVector g1 = hb1.lanewise(VectorOperators.LSHR, j);
                FloatVector c1 = FloatVector.broadcast(F, scales[16 + j]);
                FloatVector e1 = ((FloatVector) n1.and(15).or(g1.lanewise(VectorOperators.LSHL, 4).and(16))
                        .convert(VectorOperators.I2F, 0)).mul(c1);
                FloatVector o1 = ((FloatVector) n1.lanewise(VectorOperators.LSHR, 16).and(15)
                        .or(g1.lanewise(VectorOperators.LSHR, 12).and(16)).convert(VectorOperators.I2F, 0)).mul(c1);
                FloatVector xe0 = FloatVector.fromArray(F, x, ab0 * QK + 32 * j);
                FloatVector xo0 = FloatVector.fromArray(F, x, ab0 * QK + 32 * j + 16);
                i00 = o0.fma(xo0, e0.fma(xe0, i00));
                i10 = o1.fma(xo0, e1.fma(xe0, i10));
                FloatVector xe1 = FloatVector.fromArray(F, x, ab1 * QK + 32 * j);
                FloatVector xo1 = FloatVector.fromArray(F, x, ab1 * QK + 32 * j + 16);
                i01 = o0.fma(xo1, e0.fma(xe1, i01));
                i11 = o1.fma(xo1, e1.fma(xe1, i11));
                FloatVector xe2 = FloatVector.fromArray(F, x, ab2 * QK + 32 * j);
                FloatVector xo2 = FloatVector.fromArray(F, x, ab2 * QK + 32 * j + 16);
                i02 = o0.fma(xo2, e0.fma(xe2, i02));
                i12 = o1.fma(xo2, e1.fma(xe2, i12));
                FloatVector xe3 = FloatVector.fromArray(F, x, ab3 * QK + 32 * j);
                FloatVector xo3 = FloatVector.fromArray(F, x, ab3 * QK + 32 * j + 16);
                i03 = o0.fma(xo3, e0.fma(xe3, i03));
                i13 = o1.fma(xo3, e1.fma(xe3, i13));
            }
            float dw0 = Float.float16ToFloat(w.get(I16, bo0));
            float dm0 = Float.float16ToFloat(w.get(I16, bo0 + 2));
            float dw1 = Float.float16ToFloat(w.get(I16, bo1));
            float dm1 = Float.float16ToFloat(w.get(I16, bo1 + 2));
            IntVector bk0 = IntVector.fromArray(I, bs, ab0 * 16);
            acc00 = i00.fma(FloatVector.broadcast(F, dw0 * ys[ab0]), acc00);
            off00 = ((FloatVector) m0.mul(bk0).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab0]), off00);
            acc10 = i10.fma(FloatVector.broadcast(F, dw1 * ys[ab0]), acc10);
            off10 = ((FloatVector) m1.mul(bk0).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab0]), off10);
            IntVector bk1 = IntVector.fromArray(I, bs, ab1 * 16);
            acc01 = i01.fma(FloatVector.broadcast(F, dw0 * ys[ab1]), acc01);
            off01 = ((FloatVector) m0.mul(bk1).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab1]), off01);
            acc11 = i11.fma(FloatVector.broadcast(F, dw1 * ys[ab1]), acc11);
            off11 = ((FloatVector) m1.mul(bk1).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab1]), off11);
            IntVector bk2 = IntVector.fromArray(I, bs, ab2 * 16);
            acc02 = i02.fma(FloatVector.broadcast(F, dw0 * ys[ab2]), acc02);
            off02 = ((FloatVector) m0.mul(bk2).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab2]), off02);
            acc12 = i12.fma(FloatVector.broadcast(F, dw1 * ys[ab2]), acc12);
            off12 = ((FloatVector) m1.mul(bk2).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab2]), off12);
            IntVector bk3 = IntVector.fromArray(I, bs, ab3 * 16);
            acc03 = i03.fma(FloatVector.broadcast(F, dw0 * ys[ab3]), acc03);
            off03 = ((FloatVector) m0.mul(bk3).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm0 * ys[ab3]), off03);
            acc13 = i13.fma(FloatVector.broadcast(F, dw1 * ys[ab3]), acc13);
            off13 = ((FloatVector) m1.mul(bk3).convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dm1 * ys[ab3]), off13);
        }
        FloatVector z00 = acc00.sub(off00);
        z00 = z00.add(z00.rearrange(SWAP8));
        z00 = z00.add(z00.rearrange(SWAP4));
        z00 = z00.add(z00.rearrange(SWAP2));
        out[(t + 0) * rows + r + 0] = z00.add(z00.rearrange(SWAP1)).lane(0);
        FloatVector z01 = acc01.sub(off01);
        z01 = z01.add(z01.rearrange(SWAP8));
        z01 = z01.add(z01.rearrange(SWAP4));
        z01 = z01.add(z01.rearrange(SWAP2));
        out[(t + 1) * rows + r + 0] = z01.add(z01.rearrange(SWAP1)).lane(0);
        FloatVector z02 = acc02.sub(off02);
        z02 = z02.add(z02.rearrange(SWAP8));
        z02 = z02.add(z02.rearrange(SWAP4));
        z02 = z02.add(z02.rearrange(SWAP2));
        out[(t + 2) * rows + r + 0] = z02.add(z02.rearrange(SWAP1)).lane(0);
        FloatVector z03 = acc03.sub(off03);
        z03 = z03.add(z03.rearrange(SWAP8));
        z03 = z03.add(z03.rearrange(SWAP4));
        z03 = z03.add(z03.rearrange(SWAP2));
        out[(t + 3) * rows + r + 0] = z03.add(z03.rearrange(SWAP1)).lane(0);
        FloatVector z10 = acc10.sub(off10);
        z10 = z10.add(z10.rearrange(SWAP8));
        z10 = z10.add(z10.rearrange(SWAP4));
        z10 = z10.add(z10.rearrange(SWAP2));
        out[(t + 0) * rows + r + 1] = z10.add(z10.rearrange(SWAP1)).lane(0);
        FloatVector z11 = acc11.sub(off11);
        z11 = z11.add(z11.rearrange(SWAP8));
        z11 = z11.add(z11.rearrange(SWAP4));
        z11 = z11.add(z11.rearrange(SWAP2));
        out[(t + 1) * rows + r + 1] = z11.add(z11.rearrange(SWAP1)).lane(0);
        FloatVector z12 = acc12.sub(off12);
        z12 = z12.add(z12.rearrange(SWAP8));
        z12 = z12.add(z12.rearrange(SWAP4));
        z12 = z12.add(z12.rearrange(SWAP2));
        out[(t + 2) * rows + r + 1] = z12.add(z12.rearrange(SWAP1)).lane(0);
        FloatVector z13 = acc13.sub(off13);
        z13 = z13.add(z13.rearrange(SWAP8));
        z13 = z13.add(z13.rearrange(SWAP4));
        z13 = z13.add(z13.rearrange(SWAP2));
        out[(t + 3) * rows + r + 1] = z13.add(z13.rearrange(SWAP1)).lane(0);
    }

    /**
     * Q5_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}; written out as
     * {@link #dotQ4_K} is. Bit j of {@code qh[l]} is bit 4 of sub-block j's quant l.
     */
    static float dotQ5_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 176;
            int ab = t * blocks + b;
            int xo = ab * QK;
            IntVector s = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl = s.rearrange(SC_LOW);
            IntVector sc = sl.and(15).or(s.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(sl.and(63), FIRST_FOUR_J);
            IntVector ml = s.rearrange(MIN_LOW);
            IntVector m = ml.lanewise(VectorOperators.LSHR, 4).or(s.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml.and(63), FIRST_FOUR_G);
            ShortVector hb = bytes32(w, bo + 16).lanewise(VectorOperators.LSHL, 4);
            ShortVector n0 = bytes32(w, bo + 48), n1 = bytes32(w, bo + 80), n2 = bytes32(w, bo + 112), n3 = bytes32(w, bo + 144);
            IntVector p0 = n0.and((short) 15).or(hb.and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 0)).reinterpretAsInts();
            IntVector p1 = n0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 1).and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 32)).reinterpretAsInts();
            IntVector p2 = n1.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 2).and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 64)).reinterpretAsInts();
            IntVector p3 = n1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 3).and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 96)).reinterpretAsInts();
            IntVector p4 = n2.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4).and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 128)).reinterpretAsInts();
            IntVector p5 = n2.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 5).and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 160)).reinterpretAsInts();
            IntVector p6 = n3.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 6).and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 192)).reinterpretAsInts();
            IntVector p7 = n3.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 7).and((short) 16)).mul(ShortVector.fromArray(S, q, xo + 224)).reinterpretAsInts();
            IntVector isum = p0.add(p0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J0))
                    .add(p1.add(p1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J1)))
                    .add(p2.add(p2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J2)))
                    .add(p3.add(p3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J3)))
                    .add(p4.add(p4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J4)))
                    .add(p5.add(p5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J5)))
                    .add(p6.add(p6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J6)))
                    .add(p7.add(p7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(sc.rearrange(J7)));
            IntVector msum = m.mul(IntVector.fromArray(I, bs, ab * 16));
            float yd = ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
            off = ((FloatVector) msum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)) * yd), off);
        }
        FloatVector z = acc.sub(off);
        z = z.add(z.rearrange(SWAP8));
        z = z.add(z.rearrange(SWAP4));
        z = z.add(z.rearrange(SWAP2));
        return z.add(z.rearrange(SWAP1)).lane(0);
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
            int ab1 = ab0 + blocks;
            int xo0 = ab0 * QK;
            int xo1 = ab1 * QK;
            IntVector s = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector sl = s.rearrange(SC_LOW);
            IntVector sc = sl.and(15).or(s.rearrange(SC_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(sl.and(63), FIRST_FOUR_J);
            IntVector ml = s.rearrange(MIN_LOW);
            IntVector m = ml.lanewise(VectorOperators.LSHR, 4).or(s.rearrange(MIN_HIGH).lanewise(VectorOperators.LSHR, 2).and(0x30))
                    .blend(ml.and(63), FIRST_FOUR_G);
            ShortVector hb = bytes32(w, bo + 16).lanewise(VectorOperators.LSHL, 4);
            ShortVector n0 = bytes32(w, bo + 48), n1 = bytes32(w, bo + 80), n2 = bytes32(w, bo + 112), n3 = bytes32(w, bo + 144);
            IntVector isum0 = IntVector.zero(I), isum1 = isum0;
            ShortVector w0 = n0.and((short) 15).or(hb.and((short) 16));
            IntVector s0 = sc.rearrange(J0);
            IntVector u0 = w0.mul(ShortVector.fromArray(S, q, xo0 + 0)).reinterpretAsInts();
            IntVector v0 = w0.mul(ShortVector.fromArray(S, q, xo1 + 0)).reinterpretAsInts();
            isum0 = isum0.add(u0.add(u0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
            isum1 = isum1.add(v0.add(v0.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s0));
            ShortVector w1 = n0.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 1).and((short) 16));
            IntVector s1 = sc.rearrange(J1);
            IntVector u1 = w1.mul(ShortVector.fromArray(S, q, xo0 + 32)).reinterpretAsInts();
            IntVector v1 = w1.mul(ShortVector.fromArray(S, q, xo1 + 32)).reinterpretAsInts();
            isum0 = isum0.add(u1.add(u1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
            isum1 = isum1.add(v1.add(v1.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s1));
            ShortVector w2 = n1.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 2).and((short) 16));
            IntVector s2 = sc.rearrange(J2);
            IntVector u2 = w2.mul(ShortVector.fromArray(S, q, xo0 + 64)).reinterpretAsInts();
            IntVector v2 = w2.mul(ShortVector.fromArray(S, q, xo1 + 64)).reinterpretAsInts();
            isum0 = isum0.add(u2.add(u2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
            isum1 = isum1.add(v2.add(v2.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s2));
            ShortVector w3 = n1.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 3).and((short) 16));
            IntVector s3 = sc.rearrange(J3);
            IntVector u3 = w3.mul(ShortVector.fromArray(S, q, xo0 + 96)).reinterpretAsInts();
            IntVector v3 = w3.mul(ShortVector.fromArray(S, q, xo1 + 96)).reinterpretAsInts();
            isum0 = isum0.add(u3.add(u3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
            isum1 = isum1.add(v3.add(v3.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s3));
            ShortVector w4 = n2.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 4).and((short) 16));
            IntVector s4 = sc.rearrange(J4);
            IntVector u4 = w4.mul(ShortVector.fromArray(S, q, xo0 + 128)).reinterpretAsInts();
            IntVector v4 = w4.mul(ShortVector.fromArray(S, q, xo1 + 128)).reinterpretAsInts();
            isum0 = isum0.add(u4.add(u4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s4));
            isum1 = isum1.add(v4.add(v4.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s4));
            ShortVector w5 = n2.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 5).and((short) 16));
            IntVector s5 = sc.rearrange(J5);
            IntVector u5 = w5.mul(ShortVector.fromArray(S, q, xo0 + 160)).reinterpretAsInts();
            IntVector v5 = w5.mul(ShortVector.fromArray(S, q, xo1 + 160)).reinterpretAsInts();
            isum0 = isum0.add(u5.add(u5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s5));
            isum1 = isum1.add(v5.add(v5.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s5));
            ShortVector w6 = n3.and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 6).and((short) 16));
            IntVector s6 = sc.rearrange(J6);
            IntVector u6 = w6.mul(ShortVector.fromArray(S, q, xo0 + 192)).reinterpretAsInts();
            IntVector v6 = w6.mul(ShortVector.fromArray(S, q, xo1 + 192)).reinterpretAsInts();
            isum0 = isum0.add(u6.add(u6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s6));
            isum1 = isum1.add(v6.add(v6.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s6));
            ShortVector w7 = n3.lanewise(VectorOperators.LSHR, 4).and((short) 15).or(hb.lanewise(VectorOperators.LSHR, 7).and((short) 16));
            IntVector s7 = sc.rearrange(J7);
            IntVector u7 = w7.mul(ShortVector.fromArray(S, q, xo0 + 224)).reinterpretAsInts();
            IntVector v7 = w7.mul(ShortVector.fromArray(S, q, xo1 + 224)).reinterpretAsInts();
            isum0 = isum0.add(u7.add(u7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s7));
            isum1 = isum1.add(v7.add(v7.lanewise(VectorOperators.LSHL, 16)).lanewise(VectorOperators.ASHR, 16).mul(s7));
            float dw = Float.float16ToFloat(w.get(I16, bo));
            float dm = Float.float16ToFloat(w.get(I16, bo + 2));
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab0]), acc0);
            off0 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab0 * 16)).convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, dm * ys[ab0]), off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, dw * ys[ab1]), acc1);
            off1 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab1 * 16)).convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, dm * ys[ab1]), off1);
        }
        FloatVector z0 = acc0.sub(off0);
        z0 = z0.add(z0.rearrange(SWAP8));
        z0 = z0.add(z0.rearrange(SWAP4));
        z0 = z0.add(z0.rearrange(SWAP2));
        out[t * rows + r] = z0.add(z0.rearrange(SWAP1)).lane(0);
        FloatVector z1 = acc1.sub(off1);
        z1 = z1.add(z1.rearrange(SWAP8));
        z1 = z1.add(z1.rearrange(SWAP4));
        z1 = z1.add(z1.rearrange(SWAP2));
        out[(t + 1) * rows + r] = z1.add(z1.rearrange(SWAP1)).lane(0);
    }
}
