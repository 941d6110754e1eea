package dev.parley.engine.backend;

import dev.parley.engine.tensor.Activations;
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
 * The Q8_0 dot products of {@link VectorKernels} with 512-bit vectors (AVX-512 width): one
 * whole 32-value block per vector of shorts, two blocks per loop pass into two independent
 * accumulators. Correct on any CPU, fast only where the preferred species is 512 bits wide.
 */
final class VectorKernels512 {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_512;
    private static final VectorSpecies<Byte> B256 = ByteVector.SPECIES_256;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final int QK = Activations.BLOCK;

    private VectorKernels512() {
    }

    /*
     * Each short lane holds one product w*q with |w| <= 128, |q| <= 127, so the sum of two
     * neighbours fits in a short: ((p << 16) + p) >> 16 (as ints) is that sum, sign-extended,
     * in two shifts and one add. Written out in every loop: a helper method is not always
     * inlined, and then the vectors get boxed.
     */

    /** Q8_0 row (34-byte blocks at {@code base}) x Q8_0 activations (quants widened to shorts). */
    static float dotQ8_0(MemorySegment w, long base, int blocks, short[] q, int qo, float[] s, int so) {
        FloatVector a0 = FloatVector.zero(F);
        FloatVector a1 = a0;
        int b = 0;
        for (; b + 1 < blocks; b += 2) {
            long bo = base + (long) b * 34;
            float d0 = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            float d1 = Float.float16ToFloat(w.get(I16, bo + 34)) * s[so + b + 1];
            int xo = qo + b * QK;
            ShortVector p0 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo + 2, LE)
                    .convertShape(VectorOperators.B2S, S, 0)).mul(ShortVector.fromArray(S, q, xo));
            ShortVector p1 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo + 36, LE)
                    .convertShape(VectorOperators.B2S, S, 0)).mul(ShortVector.fromArray(S, q, xo + QK));
            IntVector i0 = p0.reinterpretAsInts();
            IntVector i1 = p1.reinterpretAsInts();
            a0 = ((FloatVector) i0.lanewise(VectorOperators.LSHL, 16).add(i0).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d0), a0);
            a1 = ((FloatVector) i1.lanewise(VectorOperators.LSHL, 16).add(i1).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d1), a1);
        }
        if (b < blocks) {
            long bo = base + (long) b * 34;
            float d0 = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            ShortVector p0 = ((ShortVector) ByteVector.fromMemorySegment(B256, w, bo + 2, LE)
                    .convertShape(VectorOperators.B2S, S, 0)).mul(ShortVector.fromArray(S, q, qo + b * QK));
            IntVector i0 = p0.reinterpretAsInts();
            a0 = ((FloatVector) i0.lanewise(VectorOperators.LSHL, 16).add(i0).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, d0), a0);
        }
        return a0.add(a1).reduceLanes(VectorOperators.ADD);
    }

    /**
     * {@link #dotQ8_0} for activation rows {@code t0, t0 + 1} at once, each weight block loaded and
     * widened once (prompt processing); writes {@code out[t * rows + r]}. Each result is
     * bit-identical to {@link #dotQ8_0}'s (same blocks into the same accumulators).
     */
    static void dotQ8_0x2(MemorySegment w, long base, int blocks, short[] q, int dim, int t0, float[] s,
                          float[] out, int rows, int r) {
        FloatVector a0 = FloatVector.zero(F);
        FloatVector a1 = a0;
        FloatVector c0 = a0;
        FloatVector c1 = a0;
        int q0 = t0 * dim;
        int s0 = t0 * blocks;
        int b = 0;
        for (; b + 1 < blocks; b += 2) {
            long bo = base + (long) b * 34;
            float e0 = Float.float16ToFloat(w.get(I16, bo));
            float e1 = Float.float16ToFloat(w.get(I16, bo + 34));
            ShortVector w0 = (ShortVector) ByteVector.fromMemorySegment(B256, w, bo + 2, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector w1 = (ShortVector) ByteVector.fromMemorySegment(B256, w, bo + 36, LE).convertShape(VectorOperators.B2S, S, 0);
            int xo = q0 + b * QK;
            IntVector i0 = w0.mul(ShortVector.fromArray(S, q, xo)).reinterpretAsInts();
            IntVector i1 = w1.mul(ShortVector.fromArray(S, q, xo + QK)).reinterpretAsInts();
            IntVector j0 = w0.mul(ShortVector.fromArray(S, q, xo + dim)).reinterpretAsInts();
            IntVector j1 = w1.mul(ShortVector.fromArray(S, q, xo + dim + QK)).reinterpretAsInts();
            a0 = ((FloatVector) i0.lanewise(VectorOperators.LSHL, 16).add(i0).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, e0 * s[s0 + b]), a0);
            a1 = ((FloatVector) i1.lanewise(VectorOperators.LSHL, 16).add(i1).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, e1 * s[s0 + b + 1]), a1);
            c0 = ((FloatVector) j0.lanewise(VectorOperators.LSHL, 16).add(j0).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, e0 * s[s0 + blocks + b]), c0);
            c1 = ((FloatVector) j1.lanewise(VectorOperators.LSHL, 16).add(j1).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, e1 * s[s0 + blocks + b + 1]), c1);
        }
        if (b < blocks) {
            long bo = base + (long) b * 34;
            float e0 = Float.float16ToFloat(w.get(I16, bo));
            ShortVector w0 = (ShortVector) ByteVector.fromMemorySegment(B256, w, bo + 2, LE).convertShape(VectorOperators.B2S, S, 0);
            int xo = q0 + b * QK;
            IntVector i0 = w0.mul(ShortVector.fromArray(S, q, xo)).reinterpretAsInts();
            IntVector j0 = w0.mul(ShortVector.fromArray(S, q, xo + dim)).reinterpretAsInts();
            a0 = ((FloatVector) i0.lanewise(VectorOperators.LSHL, 16).add(i0).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, e0 * s[s0 + b]), a0);
            c0 = ((FloatVector) j0.lanewise(VectorOperators.LSHL, 16).add(j0).lanewise(VectorOperators.ASHR, 16)
                    .convert(VectorOperators.I2F, 0)).fma(FloatVector.broadcast(F, e0 * s[s0 + blocks + b]), c0);
        }
        out[t0 * rows + r] = a0.add(a1).reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r] = c0.add(c1).reduceLanes(VectorOperators.ADD);
    }
}
