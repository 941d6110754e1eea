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
import jdk.incubator.vector.VectorSpecies;

/**
 * Dot products of one weight row (read straight from its {@link MemorySegment}) with one prepared
 * activation row, with 256-bit vectors (AVX2 width). Each mirrors the scalar reference in its
 * tensor class; only the order of float additions differs.
 */
final class VectorKernels {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_256;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_256;
    private static final VectorSpecies<Short> S128 = ShortVector.SPECIES_128;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(LE);
    private static final int QK = Activations.BLOCK;

    private VectorKernels() {
    }

    /** Q8_0 row (34-byte blocks at {@code base}) x Q8_0 activations. */
    static float dotQ8_0(MemorySegment w, long base, int blocks, byte[] q, int qo, float[] s, int so) {
        FloatVector acc = FloatVector.zero(F);
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            float d = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            int xo = qo + b * QK;
            ShortVector w0 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector w1 = (ShortVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE).convertShape(VectorOperators.B2S, S, 0);
            ShortVector x0 = (ShortVector) ByteVector.fromArray(B128, q, xo).convertShape(VectorOperators.B2S, S, 0);
            ShortVector x1 = (ShortVector) ByteVector.fromArray(B128, q, xo + 16).convertShape(VectorOperators.B2S, S, 0);
            // |w| <= 128 and |x| <= 127, so two products fit in a short before widening.
            ShortVector p = w0.mul(x0).add(w1.mul(x1));
            acc = sumToFloat(p).fma(FloatVector.broadcast(F, d), acc);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /** Q4_0 row (18-byte blocks at {@code base}) x Q8_0 activations. */
    static float dotQ4_0(MemorySegment w, long base, int blocks, byte[] q, int qo, float[] s, int so) {
        FloatVector acc = FloatVector.zero(F);
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 18;
            float d = Float.float16ToFloat(w.get(I16, bo)) * s[so + b];
            int xo = qo + b * QK;
            ByteVector packed = ByteVector.fromMemorySegment(B128, w, bo + 2, LE);
            ByteVector lo = packed.and((byte) 0x0f).sub((byte) 8);
            ByteVector hi = packed.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0f).sub((byte) 8);
            ShortVector w0 = (ShortVector) lo.convertShape(VectorOperators.B2S, S, 0);
            ShortVector w1 = (ShortVector) hi.convertShape(VectorOperators.B2S, S, 0);
            ShortVector x0 = (ShortVector) ByteVector.fromArray(B128, q, xo).convertShape(VectorOperators.B2S, S, 0);
            ShortVector x1 = (ShortVector) ByteVector.fromArray(B128, q, xo + 16).convertShape(VectorOperators.B2S, S, 0);
            ShortVector p = w0.mul(x0).add(w1.mul(x1));
            acc = sumToFloat(p).fma(FloatVector.broadcast(F, d), acc);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /** Adds the two halves of 16 shorts as 8 ints and converts them to float. */
    private static FloatVector sumToFloat(ShortVector p) {
        IntVector lo = (IntVector) p.convertShape(VectorOperators.S2I, I, 0);
        IntVector hi = (IntVector) p.convertShape(VectorOperators.S2I, I, 1);
        return (FloatVector) lo.add(hi).convert(VectorOperators.I2F, 0);
    }

    /** F32 row x plain activations. */
    static float dotF32(MemorySegment w, long base, int n, float[] x, int xo) {
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        int upper = F.loopBound(n);
        for (; i < upper; i += F.length()) {
            acc = FloatVector.fromMemorySegment(F, w, base + 4L * i, LE).fma(FloatVector.fromArray(F, x, xo + i), acc);
        }
        float sum = acc.reduceLanes(VectorOperators.ADD);
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
        float sum = acc.reduceLanes(VectorOperators.ADD);
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
        float sum = acc.reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            sum += Float.intBitsToFloat((w.get(I16, base + 2L * i) & 0xffff) << 16) * x[xo + i];
        }
        return sum;
    }
}
