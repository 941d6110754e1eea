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
 * shifts), multiplied with the activation quants, adjacent products summed into 16 int lanes and multiplied by the
 * sub-block's scale, which comes out of a vector of the super-block's scales by one permute (the 6-bit scales and
 * mins are unpacked with vector operations, not byte by byte). The mins of Q4_K and Q5_K and the offset 32 of Q6_K
 * go through the activations' sums of 16 as one vector product per super-block. Every integer sum of a
 * super-block is exact, as in ggml, and fits a float exactly per lane; only the float additions across blocks and
 * lanes come in another order than in the scalar reference ({@code Q4_KTensor.dot} and its siblings).
 *
 * <p>The two-row kernels (prompt processing) give each activation row bit for bit what the one-row kernels give.
 */
final class KQuantKernels512 {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_512;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_512;
    private static final VectorSpecies<Byte> B256 = ByteVector.SPECIES_256;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LE);
    private static final int QK = Q8KActivations.BLOCK;

    /** For lane g (a sum of 16 activations), sub-block g / 2's min: its low bits' lane and its high bits' lane. */
    private static final VectorShuffle<Integer> MIN_LOW = shuffle(i -> i / 2 + 4);
    private static final VectorShuffle<Integer> MIN_HIGH = shuffle(i -> i / 2);
    private static final VectorMask<Integer> FIRST_FOUR_G = VectorMask.fromLong(I, 0x00ff);

    /** Q6_K: for the 32 values {@code 32p .. 32p+31}, scale {@code 2p} in lanes 0-7 (values 0-15) and {@code 2p + 1} in 8-15. */
    private static final VectorShuffle<Integer>[] PAIRS = pairs();

    private KQuantKernels512() {
    }

    private static VectorShuffle<Integer> shuffle(java.util.function.IntUnaryOperator lane) {
        int[] index = new int[16];
        for (int i = 0; i < 16; i++) {
            index[i] = lane.applyAsInt(i);
        }
        return VectorShuffle.fromArray(I, index, 0);
    }

    @SuppressWarnings("unchecked")
    private static VectorShuffle<Integer>[] pairs() {
        VectorShuffle<Integer>[] p = new VectorShuffle[8];
        for (int k = 0; k < 8; k++) {
            int first = 2 * k;
            p[k] = shuffle(i -> first + i / 8);
        }
        return p;
    }

    /** The 16 bytes at {@code at} as unsigned ints. */
    private static IntVector bytes16(MemorySegment w, long at) {
        return ((IntVector) ByteVector.fromMemorySegment(B128, w, at, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
    }

    /** The 32 bytes at {@code at} widened (sign-extended) to shorts. */
    private static ShortVector bytes32(MemorySegment w, long at) {
        return (ShortVector) ByteVector.fromMemorySegment(B256, w, at, LE).convertShape(VectorOperators.B2S, S, 0);
    }

    /** Q4_K / Q5_K: lane g = sub-block g / 2's 6-bit min. */
    private static IntVector mins(IntVector s) {
        IntVector low = s.rearrange(MIN_LOW);
        IntVector high = s.rearrange(MIN_HIGH);
        return low.lanewise(VectorOperators.LSHR, 4).or(high.lanewise(VectorOperators.LSHR, 2).and(0x30))
                .blend(low.and(63), FIRST_FOUR_G);
    }

    /** Q4_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}. */
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
            long lo = w.get(I64, bo + 4);
            int hi = w.get(I32, bo + 12);
            IntVector isum = IntVector.zero(I);
            for (int c = 0; c < 4; c++) {
                ShortVector n = bytes32(w, bo + 16 + 32L * c);
                int o = xo + 64 * c;
                IntVector p0 = n.and((short) 15).mul(ShortVector.fromArray(S, q, o)).reinterpretAsInts();
                IntVector p1 = n.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, o + 32))
                        .reinterpretAsInts();
                isum = isum.add(p0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                                .add(p0.lanewise(VectorOperators.ASHR, 16)).mul(scale(lo, hi, 2 * c)))
                        .add(p1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                                .add(p1.lanewise(VectorOperators.ASHR, 16)).mul(scale(lo, hi, 2 * c + 1)));
            }
            IntVector msum = mins(bytes16(w, bo + 4)).mul(IntVector.fromArray(I, bs, ab * 16));
            float yd = ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
            off = ((FloatVector) msum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)) * yd), off);
        }
        return acc.reduceLanes(VectorOperators.ADD) - off.reduceLanes(VectorOperators.ADD);
    }

    /** Sub-block j's 6-bit scale from the 12 scale bytes read as a long {@code lo} (bytes 0-7) and an int {@code hi}. */
    private static int scale(long lo, int hi, int j) {
        if (j < 4) {
            return (int) (lo >>> (8 * j)) & 63;
        }
        int k = j - 4;
        return ((hi >>> (8 * k)) & 15) | (((int) (lo >>> (8 * k + 6)) & 3) << 4);
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
            long lo = w.get(I64, bo + 4);
            int hi = w.get(I32, bo + 12);
            IntVector isum0 = IntVector.zero(I), isum1 = isum0;
            for (int j = 0; j < 8; j++) {
                ShortVector n = bytes32(w, bo + 16 + 32L * (j / 2));
                ShortVector nq = (j & 1) == 0 ? n.and((short) 15) : n.lanewise(VectorOperators.LSHR, 4).and((short) 15);
                int sc = scale(lo, hi, j);
                IntVector p0 = nq.mul(ShortVector.fromArray(S, q, ab0 * QK + 32 * j)).reinterpretAsInts();
                IntVector p1 = nq.mul(ShortVector.fromArray(S, q, ab1 * QK + 32 * j)).reinterpretAsInts();
                isum0 = isum0.add(p0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(p0.lanewise(VectorOperators.ASHR, 16)).mul(sc));
                isum1 = isum1.add(p1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(p1.lanewise(VectorOperators.ASHR, 16)).mul(sc));
            }
            IntVector m = mins(bytes16(w, bo + 4));
            FloatVector dw = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)));
            FloatVector dm = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)));
            FloatVector y0 = FloatVector.broadcast(F, ys[ab0]);
            FloatVector y1 = FloatVector.broadcast(F, ys[ab1]);
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(dw.mul(y0), acc0);
            off0 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab0 * 16)).convert(VectorOperators.I2F, 0)).fma(dm.mul(y0), off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(dw.mul(y1), acc1);
            off1 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab1 * 16)).convert(VectorOperators.I2F, 0)).fma(dm.mul(y1), off1);
        }
        out[t * rows + r] = acc0.reduceLanes(VectorOperators.ADD) - off0.reduceLanes(VectorOperators.ADD);
        out[(t + 1) * rows + r] = acc1.reduceLanes(VectorOperators.ADD) - off1.reduceLanes(VectorOperators.ADD);
    }

    /** Q6_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}. */
    static float dotQ6_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 210;
            int ab = t * blocks + b;
            IntVector scv = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 192, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector isum = IntVector.zero(I);
            for (int p = 0; p < 8; p++) {
                int h = p / 4;
                int k = p % 4;
                ShortVector wq = q6(w, bo, h, k);
                IntVector v = wq.mul(ShortVector.fromArray(S, q, ab * QK + 32 * p)).reinterpretAsInts();
                isum = isum.add(v.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(v.lanewise(VectorOperators.ASHR, 16)).mul(scv.rearrange(PAIRS[p])));
            }
            IntVector corr = scv.mul(IntVector.fromArray(I, bs, ab * 16));
            FloatVector d = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 208)) * ys[ab]);
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0)).fma(d, acc);
            off = ((FloatVector) corr.convert(VectorOperators.I2F, 0)).fma(d, off);
        }
        return acc.reduceLanes(VectorOperators.ADD) - 32f * off.reduceLanes(VectorOperators.ADD);
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
            IntVector scv = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 192, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector isum0 = IntVector.zero(I), isum1 = isum0;
            for (int p = 0; p < 8; p++) {
                ShortVector wq = q6(w, bo, p / 4, p % 4);
                IntVector sc = scv.rearrange(PAIRS[p]);
                IntVector v0 = wq.mul(ShortVector.fromArray(S, q, ab0 * QK + 32 * p)).reinterpretAsInts();
                IntVector v1 = wq.mul(ShortVector.fromArray(S, q, ab1 * QK + 32 * p)).reinterpretAsInts();
                isum0 = isum0.add(v0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(v0.lanewise(VectorOperators.ASHR, 16)).mul(sc));
                isum1 = isum1.add(v1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(v1.lanewise(VectorOperators.ASHR, 16)).mul(sc));
            }
            float dw = Float.float16ToFloat(w.get(I16, bo + 208));
            FloatVector d0 = FloatVector.broadcast(F, dw * ys[ab0]);
            FloatVector d1 = FloatVector.broadcast(F, dw * ys[ab1]);
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(d0, acc0);
            off0 = ((FloatVector) scv.mul(IntVector.fromArray(I, bs, ab0 * 16)).convert(VectorOperators.I2F, 0)).fma(d0, off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(d1, acc1);
            off1 = ((FloatVector) scv.mul(IntVector.fromArray(I, bs, ab1 * 16)).convert(VectorOperators.I2F, 0)).fma(d1, off1);
        }
        out[t * rows + r] = acc0.reduceLanes(VectorOperators.ADD) - 32f * off0.reduceLanes(VectorOperators.ADD);
        out[(t + 1) * rows + r] = acc1.reduceLanes(VectorOperators.ADD) - 32f * off1.reduceLanes(VectorOperators.ADD);
    }

    /**
     * The 32 6-bit quants (0..63, the offset 32 not yet taken) of values {@code 128h + 32k .. +31} of the Q6_K block at
     * {@code bo}: low bits from {@code ql[64h + 32(k & 1) + l]} (low nibble for k &lt; 2, high for k &ge; 2), high bits
     * from bits {@code 2k, 2k+1} of {@code qh[32h + l]}.
     */
    private static ShortVector q6(MemorySegment w, long bo, int h, int k) {
        ShortVector l = bytes32(w, bo + 64L * h + 32 * (k & 1));
        ShortVector nib = k < 2 ? l.and((short) 15) : l.lanewise(VectorOperators.LSHR, 4).and((short) 15);
        ShortVector hb = bytes32(w, bo + 128 + 32L * h);
        return nib.or(hb.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, 2 * k).and((short) 0x30));
    }

    /** Q5_K row at {@code base} ({@code blocks} super-blocks) x activation row {@code t} of {@code a}. */
    static float dotQ5_K(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 176;
            int ab = t * blocks + b;
            long lo = w.get(I64, bo + 4);
            int hi = w.get(I32, bo + 12);
            ShortVector high = bytes32(w, bo + 16);
            IntVector isum = IntVector.zero(I);
            for (int j = 0; j < 8; j++) {
                ShortVector wq = q5(w, bo, high, j);
                IntVector v = wq.mul(ShortVector.fromArray(S, q, ab * QK + 32 * j)).reinterpretAsInts();
                isum = isum.add(v.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(v.lanewise(VectorOperators.ASHR, 16)).mul(scale(lo, hi, j)));
            }
            IntVector msum = mins(bytes16(w, bo + 4)).mul(IntVector.fromArray(I, bs, ab * 16));
            float yd = ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
            off = ((FloatVector) msum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)) * yd), off);
        }
        return acc.reduceLanes(VectorOperators.ADD) - off.reduceLanes(VectorOperators.ADD);
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
            long lo = w.get(I64, bo + 4);
            int hi = w.get(I32, bo + 12);
            ShortVector high = bytes32(w, bo + 16);
            IntVector isum0 = IntVector.zero(I), isum1 = isum0;
            for (int j = 0; j < 8; j++) {
                ShortVector wq = q5(w, bo, high, j);
                int sc = scale(lo, hi, j);
                IntVector v0 = wq.mul(ShortVector.fromArray(S, q, ab0 * QK + 32 * j)).reinterpretAsInts();
                IntVector v1 = wq.mul(ShortVector.fromArray(S, q, ab1 * QK + 32 * j)).reinterpretAsInts();
                isum0 = isum0.add(v0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(v0.lanewise(VectorOperators.ASHR, 16)).mul(sc));
                isum1 = isum1.add(v1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                        .add(v1.lanewise(VectorOperators.ASHR, 16)).mul(sc));
            }
            IntVector m = mins(bytes16(w, bo + 4));
            FloatVector dw = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)));
            FloatVector dm = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)));
            FloatVector y0 = FloatVector.broadcast(F, ys[ab0]);
            FloatVector y1 = FloatVector.broadcast(F, ys[ab1]);
            acc0 = ((FloatVector) isum0.convert(VectorOperators.I2F, 0)).fma(dw.mul(y0), acc0);
            off0 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab0 * 16)).convert(VectorOperators.I2F, 0)).fma(dm.mul(y0), off0);
            acc1 = ((FloatVector) isum1.convert(VectorOperators.I2F, 0)).fma(dw.mul(y1), acc1);
            off1 = ((FloatVector) m.mul(IntVector.fromArray(I, bs, ab1 * 16)).convert(VectorOperators.I2F, 0)).fma(dm.mul(y1), off1);
        }
        out[t * rows + r] = acc0.reduceLanes(VectorOperators.ADD) - off0.reduceLanes(VectorOperators.ADD);
        out[(t + 1) * rows + r] = acc1.reduceLanes(VectorOperators.ADD) - off1.reduceLanes(VectorOperators.ADD);
    }

    /**
     * Sub-block j's 32 5-bit quants of the Q5_K block at {@code bo}: the low nibbles (j even) or high nibbles (j odd) of
     * {@code ql[32(j/2) + l]} and bit j of {@code qh[l]} ({@code high}, the 32 bytes widened) as bit 4.
     */
    private static ShortVector q5(MemorySegment w, long bo, ShortVector high, int j) {
        ShortVector l = bytes32(w, bo + 48 + 32L * (j / 2));
        ShortVector nib = (j & 1) == 0 ? l.and((short) 15) : l.lanewise(VectorOperators.LSHR, 4).and((short) 15);
        return nib.or(high.lanewise(VectorOperators.LSHL, 4).lanewise(VectorOperators.LSHR, j).and((short) 16));
    }
}
