package dev.parley.engine.backend;

import dev.parley.engine.tensor.Activations;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Q8_0 weights times Q8_0-quantized activations, in float: each weight block is dequantized
 * ({@code w * d}, exact in float) and multiplied into rows of dequantized activations
 * ({@code q * d}, exact too). Mathematically the sums of the integer reference (llama.cpp's
 * int8 x int8 products per block, scaled); they differ only by float rounding. Fewer operations
 * per block than int8 products widened to shorts in the Vector API, which has no multiply-add of
 * adjacent lanes; and at prompt time each converted weight vector serves several tokens. The
 * four-row kernels (prompt processing) load and convert each weight block once for four
 * activation rows and give each row bit for bit what the one-row kernels (decoding) give, so
 * that a prompt and the same tokens decoded one by one agree exactly; a different rounding would
 * flip activation quantization steps and grow through the layers.
 * 512-bit vectors only: at 256 bits (AVX2) the int8 kernels of {@link VectorKernels} measured faster.
 */
final class Q8FloatKernels {

    /** Activation rows per pass. */
    static final int TOKENS = 4;

    private static final VectorSpecies<Float> F512 = FloatVector.SPECIES_512;
    /** The fixed summation tree that ends each kernel ({@link SumTree}). */
    private static final VectorShuffle<Float> SWAP8 = SumTree.swap(F512, 8), SWAP4 = SumTree.swap(F512, 4),
            SWAP2 = SumTree.swap(F512, 2), SWAP1 = SumTree.swap(F512, 1);
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final int QK = Activations.BLOCK;

    private Q8FloatKernels() {
    }

    /**
     * Row {@code r} of a Q8_0 matrix (at {@code base}) dotted with activation rows
     * {@code t0 .. t0 + 3} of {@code x} (dequantized, row length {@code dim}); writes
     * {@code out[t * rows + r]}. 512-bit vectors.
     */
    static void dotQ8_0x4w512(MemorySegment w, long base, int blocks, float[] x, int dim, int t0,
                             float[] out, int rows, int r) {
        FloatVector a0 = FloatVector.zero(F512);
        FloatVector a1 = a0, a2 = a0, a3 = a0, c0 = a0, c1 = a0, c2 = a0, c3 = a0;
        int x0 = t0 * dim;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            FloatVector d = FloatVector.broadcast(F512, Float.float16ToFloat(w.get(I16, bo)));
            FloatVector lo = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(d);
            FloatVector hi = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(d);
            int xo = x0 + b * QK;
            a0 = lo.fma(FloatVector.fromArray(F512, x, xo), a0);
            c0 = hi.fma(FloatVector.fromArray(F512, x, xo + 16), c0);
            xo += dim;
            a1 = lo.fma(FloatVector.fromArray(F512, x, xo), a1);
            c1 = hi.fma(FloatVector.fromArray(F512, x, xo + 16), c1);
            xo += dim;
            a2 = lo.fma(FloatVector.fromArray(F512, x, xo), a2);
            c2 = hi.fma(FloatVector.fromArray(F512, x, xo + 16), c2);
            xo += dim;
            a3 = lo.fma(FloatVector.fromArray(F512, x, xo), a3);
            c3 = hi.fma(FloatVector.fromArray(F512, x, xo + 16), c3);
        }
        a0 = a0.add(c0);
        a0 = a0.add(a0.rearrange(SWAP8));
        a0 = a0.add(a0.rearrange(SWAP4));
        a0 = a0.add(a0.rearrange(SWAP2));
        out[t0 * rows + r] = a0.add(a0.rearrange(SWAP1)).lane(0);
        a1 = a1.add(c1);
        a1 = a1.add(a1.rearrange(SWAP8));
        a1 = a1.add(a1.rearrange(SWAP4));
        a1 = a1.add(a1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r] = a1.add(a1.rearrange(SWAP1)).lane(0);
        a2 = a2.add(c2);
        a2 = a2.add(a2.rearrange(SWAP8));
        a2 = a2.add(a2.rearrange(SWAP4));
        a2 = a2.add(a2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r] = a2.add(a2.rearrange(SWAP1)).lane(0);
        a3 = a3.add(c3);
        a3 = a3.add(a3.rearrange(SWAP8));
        a3 = a3.add(a3.rearrange(SWAP4));
        a3 = a3.add(a3.rearrange(SWAP2));
        out[(t0 + 3) * rows + r] = a3.add(a3.rearrange(SWAP1)).lane(0);
    }

    /**
     * {@link #dotQ8_0x4w512} for rows {@code r, r + 1} (at {@code base}, {@code rowBytes} apart): each
     * activation vector loaded serves two rows, each weight vector four activation rows.
     */
    static void dotQ8_0r2x4w512(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                                float[] out, int rows, int r) {
        FloatVector a0 = FloatVector.zero(F512);
        FloatVector a1 = a0, a2 = a0, a3 = a0, c0 = a0, c1 = a0, c2 = a0, c3 = a0;
        FloatVector e0 = a0, e1 = a0, e2 = a0, e3 = a0, g0 = a0, g1 = a0, g2 = a0, g3 = a0;
        int x0 = t0 * dim;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long bp = bo + rowBytes;
            FloatVector d = FloatVector.broadcast(F512, Float.float16ToFloat(w.get(I16, bo)));
            FloatVector lo = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(d);
            FloatVector hi = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(d);
            FloatVector dp = FloatVector.broadcast(F512, Float.float16ToFloat(w.get(I16, bp)));
            FloatVector lp = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bp + 2, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(dp);
            FloatVector hp = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bp + 18, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(dp);
            int xo = x0 + b * QK;
            FloatVector xl = FloatVector.fromArray(F512, x, xo);
            FloatVector xh = FloatVector.fromArray(F512, x, xo + 16);
            a0 = lo.fma(xl, a0);
            c0 = hi.fma(xh, c0);
            e0 = lp.fma(xl, e0);
            g0 = hp.fma(xh, g0);
            xo += dim;
            xl = FloatVector.fromArray(F512, x, xo);
            xh = FloatVector.fromArray(F512, x, xo + 16);
            a1 = lo.fma(xl, a1);
            c1 = hi.fma(xh, c1);
            e1 = lp.fma(xl, e1);
            g1 = hp.fma(xh, g1);
            xo += dim;
            xl = FloatVector.fromArray(F512, x, xo);
            xh = FloatVector.fromArray(F512, x, xo + 16);
            a2 = lo.fma(xl, a2);
            c2 = hi.fma(xh, c2);
            e2 = lp.fma(xl, e2);
            g2 = hp.fma(xh, g2);
            xo += dim;
            xl = FloatVector.fromArray(F512, x, xo);
            xh = FloatVector.fromArray(F512, x, xo + 16);
            a3 = lo.fma(xl, a3);
            c3 = hi.fma(xh, c3);
            e3 = lp.fma(xl, e3);
            g3 = hp.fma(xh, g3);
        }
        a0 = a0.add(c0);
        a0 = a0.add(a0.rearrange(SWAP8));
        a0 = a0.add(a0.rearrange(SWAP4));
        a0 = a0.add(a0.rearrange(SWAP2));
        out[t0 * rows + r] = a0.add(a0.rearrange(SWAP1)).lane(0);
        a1 = a1.add(c1);
        a1 = a1.add(a1.rearrange(SWAP8));
        a1 = a1.add(a1.rearrange(SWAP4));
        a1 = a1.add(a1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r] = a1.add(a1.rearrange(SWAP1)).lane(0);
        a2 = a2.add(c2);
        a2 = a2.add(a2.rearrange(SWAP8));
        a2 = a2.add(a2.rearrange(SWAP4));
        a2 = a2.add(a2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r] = a2.add(a2.rearrange(SWAP1)).lane(0);
        a3 = a3.add(c3);
        a3 = a3.add(a3.rearrange(SWAP8));
        a3 = a3.add(a3.rearrange(SWAP4));
        a3 = a3.add(a3.rearrange(SWAP2));
        out[(t0 + 3) * rows + r] = a3.add(a3.rearrange(SWAP1)).lane(0);
        e0 = e0.add(g0);
        e0 = e0.add(e0.rearrange(SWAP8));
        e0 = e0.add(e0.rearrange(SWAP4));
        e0 = e0.add(e0.rearrange(SWAP2));
        out[t0 * rows + r + 1] = e0.add(e0.rearrange(SWAP1)).lane(0);
        e1 = e1.add(g1);
        e1 = e1.add(e1.rearrange(SWAP8));
        e1 = e1.add(e1.rearrange(SWAP4));
        e1 = e1.add(e1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 1] = e1.add(e1.rearrange(SWAP1)).lane(0);
        e2 = e2.add(g2);
        e2 = e2.add(e2.rearrange(SWAP8));
        e2 = e2.add(e2.rearrange(SWAP4));
        e2 = e2.add(e2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r + 1] = e2.add(e2.rearrange(SWAP1)).lane(0);
        e3 = e3.add(g3);
        e3 = e3.add(e3.rearrange(SWAP8));
        e3 = e3.add(e3.rearrange(SWAP4));
        e3 = e3.add(e3.rearrange(SWAP2));
        out[(t0 + 3) * rows + r + 1] = e3.add(e3.rearrange(SWAP1)).lane(0);
    }

    /** Row {@code r} (at {@code base}) dotted with activation row {@code t} of {@code x}; 512-bit vectors. */
    static float dotQ8_0w512(MemorySegment w, long base, int blocks, float[] x, int xo) {
        FloatVector a = FloatVector.zero(F512);
        FloatVector c = a;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            FloatVector d = FloatVector.broadcast(F512, Float.float16ToFloat(w.get(I16, bo)));
            FloatVector lo = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(d);
            FloatVector hi = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE)
                    .convertShape(VectorOperators.B2F, F512, 0)).mul(d);
            int o = xo + b * QK;
            a = lo.fma(FloatVector.fromArray(F512, x, o), a);
            c = hi.fma(FloatVector.fromArray(F512, x, o + 16), c);
        }
        a = a.add(c);
        a = a.add(a.rearrange(SWAP8));
        a = a.add(a.rearrange(SWAP4));
        a = a.add(a.rearrange(SWAP2));
        return a.add(a.rearrange(SWAP1)).lane(0);
    }
}
