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
 * Register-blocked Q8_0 micro-kernels (512-bit): 3 weight rows x T activation rows per pass, each weight block
 * loaded and converted to floats once for T tokens, each activation vector loaded once for 3 rows. At T = 4 that
 * is 24 accumulators + 6 converted weight vectors + 2 activation vectors: the 32 registers of AVX-512 (measured
 * against 1x8, 1x12, 2x4, 2x6, 2x8 and 4x4 blockings in {@code Q8TileBench}: 3x4 was the fastest). Every
 * accumulator does exactly the arithmetic of {@link Q8FloatKernels#dotQ8_0w512} (two accumulators per row and
 * token, the lo and hi halves of each block, blocks in order), so every output is bit for bit what the one-token
 * kernel gives: a prompt and the same tokens decoded one by one agree exactly.
 */
final class Q8TileKernels {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    /** The fixed summation tree that ends each kernel ({@link SumTree}). */
    private static final VectorShuffle<Float> SWAP8 = SumTree.swap(F, 8), SWAP4 = SumTree.swap(F, 4),
            SWAP2 = SumTree.swap(F, 2), SWAP1 = SumTree.swap(F, 1);
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final VectorOperators.Conversion<Byte, Float> B2F = VectorOperators.B2F;
    private static final int QK = Activations.BLOCK;

    private Q8TileKernels() {
    }

    /** 3 row(s) x 4 activation rows: 24 accumulators, each weight block converted once for 4 tokens. */
    static void r3x4(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a0_1 = z, c0_1 = z, a0_2 = z, c0_2 = z, a0_3 = z, c0_3 = z;
        FloatVector a1_0 = z, c1_0 = z, a1_1 = z, c1_1 = z, a1_2 = z, c1_2 = z, a1_3 = z, c1_3 = z;
        FloatVector a2_0 = z, c2_0 = z, a2_1 = z, c2_1 = z, a2_2 = z, c2_2 = z, a2_3 = z, c2_3 = z;
        int x0 = t0 * dim;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long b0 = bo;
            FloatVector d0 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b0)));
            FloatVector l0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 2, LE).convertShape(B2F, F, 0)).mul(d0);
            FloatVector h0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 18, LE).convertShape(B2F, F, 0)).mul(d0);
            long b1 = bo + rowBytes;
            FloatVector d1 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b1)));
            FloatVector l1 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b1 + 2, LE).convertShape(B2F, F, 0)).mul(d1);
            FloatVector h1 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b1 + 18, LE).convertShape(B2F, F, 0)).mul(d1);
            long b2 = bo + 2 * rowBytes;
            FloatVector d2 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b2)));
            FloatVector l2 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b2 + 2, LE).convertShape(B2F, F, 0)).mul(d2);
            FloatVector h2 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b2 + 18, LE).convertShape(B2F, F, 0)).mul(d2);
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = l0.fma(xl0, a0_0);
            c0_0 = h0.fma(xh0, c0_0);
            a1_0 = l1.fma(xl0, a1_0);
            c1_0 = h1.fma(xh0, c1_0);
            a2_0 = l2.fma(xl0, a2_0);
            c2_0 = h2.fma(xh0, c2_0);
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = l0.fma(xl1, a0_1);
            c0_1 = h0.fma(xh1, c0_1);
            a1_1 = l1.fma(xl1, a1_1);
            c1_1 = h1.fma(xh1, c1_1);
            a2_1 = l2.fma(xl1, a2_1);
            c2_1 = h2.fma(xh1, c2_1);
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = l0.fma(xl2, a0_2);
            c0_2 = h0.fma(xh2, c0_2);
            a1_2 = l1.fma(xl2, a1_2);
            c1_2 = h1.fma(xh2, c1_2);
            a2_2 = l2.fma(xl2, a2_2);
            c2_2 = h2.fma(xh2, c2_2);
            xo += dim;
            FloatVector xl3 = FloatVector.fromArray(F, x, xo);
            FloatVector xh3 = FloatVector.fromArray(F, x, xo + 16);
            a0_3 = l0.fma(xl3, a0_3);
            c0_3 = h0.fma(xh3, c0_3);
            a1_3 = l1.fma(xl3, a1_3);
            c1_3 = h1.fma(xh3, c1_3);
            a2_3 = l2.fma(xl3, a2_3);
            c2_3 = h2.fma(xh3, c2_3);
        }
        a0_0 = a0_0.add(c0_0);
        a0_0 = a0_0.add(a0_0.rearrange(SWAP8));
        a0_0 = a0_0.add(a0_0.rearrange(SWAP4));
        a0_0 = a0_0.add(a0_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 0] = a0_0.add(a0_0.rearrange(SWAP1)).lane(0);
        a0_1 = a0_1.add(c0_1);
        a0_1 = a0_1.add(a0_1.rearrange(SWAP8));
        a0_1 = a0_1.add(a0_1.rearrange(SWAP4));
        a0_1 = a0_1.add(a0_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 0] = a0_1.add(a0_1.rearrange(SWAP1)).lane(0);
        a0_2 = a0_2.add(c0_2);
        a0_2 = a0_2.add(a0_2.rearrange(SWAP8));
        a0_2 = a0_2.add(a0_2.rearrange(SWAP4));
        a0_2 = a0_2.add(a0_2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r + 0] = a0_2.add(a0_2.rearrange(SWAP1)).lane(0);
        a0_3 = a0_3.add(c0_3);
        a0_3 = a0_3.add(a0_3.rearrange(SWAP8));
        a0_3 = a0_3.add(a0_3.rearrange(SWAP4));
        a0_3 = a0_3.add(a0_3.rearrange(SWAP2));
        out[(t0 + 3) * rows + r + 0] = a0_3.add(a0_3.rearrange(SWAP1)).lane(0);
        a1_0 = a1_0.add(c1_0);
        a1_0 = a1_0.add(a1_0.rearrange(SWAP8));
        a1_0 = a1_0.add(a1_0.rearrange(SWAP4));
        a1_0 = a1_0.add(a1_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 1] = a1_0.add(a1_0.rearrange(SWAP1)).lane(0);
        a1_1 = a1_1.add(c1_1);
        a1_1 = a1_1.add(a1_1.rearrange(SWAP8));
        a1_1 = a1_1.add(a1_1.rearrange(SWAP4));
        a1_1 = a1_1.add(a1_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 1] = a1_1.add(a1_1.rearrange(SWAP1)).lane(0);
        a1_2 = a1_2.add(c1_2);
        a1_2 = a1_2.add(a1_2.rearrange(SWAP8));
        a1_2 = a1_2.add(a1_2.rearrange(SWAP4));
        a1_2 = a1_2.add(a1_2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r + 1] = a1_2.add(a1_2.rearrange(SWAP1)).lane(0);
        a1_3 = a1_3.add(c1_3);
        a1_3 = a1_3.add(a1_3.rearrange(SWAP8));
        a1_3 = a1_3.add(a1_3.rearrange(SWAP4));
        a1_3 = a1_3.add(a1_3.rearrange(SWAP2));
        out[(t0 + 3) * rows + r + 1] = a1_3.add(a1_3.rearrange(SWAP1)).lane(0);
        a2_0 = a2_0.add(c2_0);
        a2_0 = a2_0.add(a2_0.rearrange(SWAP8));
        a2_0 = a2_0.add(a2_0.rearrange(SWAP4));
        a2_0 = a2_0.add(a2_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 2] = a2_0.add(a2_0.rearrange(SWAP1)).lane(0);
        a2_1 = a2_1.add(c2_1);
        a2_1 = a2_1.add(a2_1.rearrange(SWAP8));
        a2_1 = a2_1.add(a2_1.rearrange(SWAP4));
        a2_1 = a2_1.add(a2_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 2] = a2_1.add(a2_1.rearrange(SWAP1)).lane(0);
        a2_2 = a2_2.add(c2_2);
        a2_2 = a2_2.add(a2_2.rearrange(SWAP8));
        a2_2 = a2_2.add(a2_2.rearrange(SWAP4));
        a2_2 = a2_2.add(a2_2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r + 2] = a2_2.add(a2_2.rearrange(SWAP1)).lane(0);
        a2_3 = a2_3.add(c2_3);
        a2_3 = a2_3.add(a2_3.rearrange(SWAP8));
        a2_3 = a2_3.add(a2_3.rearrange(SWAP4));
        a2_3 = a2_3.add(a2_3.rearrange(SWAP2));
        out[(t0 + 3) * rows + r + 2] = a2_3.add(a2_3.rearrange(SWAP1)).lane(0);
    }

    /** 3 row(s) x 3 activation rows: 18 accumulators, each weight block converted once for 3 tokens. */
    static void r3x3(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a0_1 = z, c0_1 = z, a0_2 = z, c0_2 = z, a1_0 = z, c1_0 = z;
        FloatVector a1_1 = z, c1_1 = z, a1_2 = z, c1_2 = z, a2_0 = z, c2_0 = z, a2_1 = z, c2_1 = z;
        FloatVector a2_2 = z, c2_2 = z;
        int x0 = t0 * dim;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long b0 = bo;
            FloatVector d0 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b0)));
            FloatVector l0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 2, LE).convertShape(B2F, F, 0)).mul(d0);
            FloatVector h0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 18, LE).convertShape(B2F, F, 0)).mul(d0);
            long b1 = bo + rowBytes;
            FloatVector d1 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b1)));
            FloatVector l1 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b1 + 2, LE).convertShape(B2F, F, 0)).mul(d1);
            FloatVector h1 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b1 + 18, LE).convertShape(B2F, F, 0)).mul(d1);
            long b2 = bo + 2 * rowBytes;
            FloatVector d2 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b2)));
            FloatVector l2 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b2 + 2, LE).convertShape(B2F, F, 0)).mul(d2);
            FloatVector h2 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b2 + 18, LE).convertShape(B2F, F, 0)).mul(d2);
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = l0.fma(xl0, a0_0);
            c0_0 = h0.fma(xh0, c0_0);
            a1_0 = l1.fma(xl0, a1_0);
            c1_0 = h1.fma(xh0, c1_0);
            a2_0 = l2.fma(xl0, a2_0);
            c2_0 = h2.fma(xh0, c2_0);
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = l0.fma(xl1, a0_1);
            c0_1 = h0.fma(xh1, c0_1);
            a1_1 = l1.fma(xl1, a1_1);
            c1_1 = h1.fma(xh1, c1_1);
            a2_1 = l2.fma(xl1, a2_1);
            c2_1 = h2.fma(xh1, c2_1);
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = l0.fma(xl2, a0_2);
            c0_2 = h0.fma(xh2, c0_2);
            a1_2 = l1.fma(xl2, a1_2);
            c1_2 = h1.fma(xh2, c1_2);
            a2_2 = l2.fma(xl2, a2_2);
            c2_2 = h2.fma(xh2, c2_2);
        }
        a0_0 = a0_0.add(c0_0);
        a0_0 = a0_0.add(a0_0.rearrange(SWAP8));
        a0_0 = a0_0.add(a0_0.rearrange(SWAP4));
        a0_0 = a0_0.add(a0_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 0] = a0_0.add(a0_0.rearrange(SWAP1)).lane(0);
        a0_1 = a0_1.add(c0_1);
        a0_1 = a0_1.add(a0_1.rearrange(SWAP8));
        a0_1 = a0_1.add(a0_1.rearrange(SWAP4));
        a0_1 = a0_1.add(a0_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 0] = a0_1.add(a0_1.rearrange(SWAP1)).lane(0);
        a0_2 = a0_2.add(c0_2);
        a0_2 = a0_2.add(a0_2.rearrange(SWAP8));
        a0_2 = a0_2.add(a0_2.rearrange(SWAP4));
        a0_2 = a0_2.add(a0_2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r + 0] = a0_2.add(a0_2.rearrange(SWAP1)).lane(0);
        a1_0 = a1_0.add(c1_0);
        a1_0 = a1_0.add(a1_0.rearrange(SWAP8));
        a1_0 = a1_0.add(a1_0.rearrange(SWAP4));
        a1_0 = a1_0.add(a1_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 1] = a1_0.add(a1_0.rearrange(SWAP1)).lane(0);
        a1_1 = a1_1.add(c1_1);
        a1_1 = a1_1.add(a1_1.rearrange(SWAP8));
        a1_1 = a1_1.add(a1_1.rearrange(SWAP4));
        a1_1 = a1_1.add(a1_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 1] = a1_1.add(a1_1.rearrange(SWAP1)).lane(0);
        a1_2 = a1_2.add(c1_2);
        a1_2 = a1_2.add(a1_2.rearrange(SWAP8));
        a1_2 = a1_2.add(a1_2.rearrange(SWAP4));
        a1_2 = a1_2.add(a1_2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r + 1] = a1_2.add(a1_2.rearrange(SWAP1)).lane(0);
        a2_0 = a2_0.add(c2_0);
        a2_0 = a2_0.add(a2_0.rearrange(SWAP8));
        a2_0 = a2_0.add(a2_0.rearrange(SWAP4));
        a2_0 = a2_0.add(a2_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 2] = a2_0.add(a2_0.rearrange(SWAP1)).lane(0);
        a2_1 = a2_1.add(c2_1);
        a2_1 = a2_1.add(a2_1.rearrange(SWAP8));
        a2_1 = a2_1.add(a2_1.rearrange(SWAP4));
        a2_1 = a2_1.add(a2_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 2] = a2_1.add(a2_1.rearrange(SWAP1)).lane(0);
        a2_2 = a2_2.add(c2_2);
        a2_2 = a2_2.add(a2_2.rearrange(SWAP8));
        a2_2 = a2_2.add(a2_2.rearrange(SWAP4));
        a2_2 = a2_2.add(a2_2.rearrange(SWAP2));
        out[(t0 + 2) * rows + r + 2] = a2_2.add(a2_2.rearrange(SWAP1)).lane(0);
    }

    /** 3 row(s) x 2 activation rows: 12 accumulators, each weight block converted once for 2 tokens. */
    static void r3x2(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a0_1 = z, c0_1 = z, a1_0 = z, c1_0 = z, a1_1 = z, c1_1 = z;
        FloatVector a2_0 = z, c2_0 = z, a2_1 = z, c2_1 = z;
        int x0 = t0 * dim;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long b0 = bo;
            FloatVector d0 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b0)));
            FloatVector l0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 2, LE).convertShape(B2F, F, 0)).mul(d0);
            FloatVector h0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 18, LE).convertShape(B2F, F, 0)).mul(d0);
            long b1 = bo + rowBytes;
            FloatVector d1 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b1)));
            FloatVector l1 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b1 + 2, LE).convertShape(B2F, F, 0)).mul(d1);
            FloatVector h1 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b1 + 18, LE).convertShape(B2F, F, 0)).mul(d1);
            long b2 = bo + 2 * rowBytes;
            FloatVector d2 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b2)));
            FloatVector l2 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b2 + 2, LE).convertShape(B2F, F, 0)).mul(d2);
            FloatVector h2 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b2 + 18, LE).convertShape(B2F, F, 0)).mul(d2);
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = l0.fma(xl0, a0_0);
            c0_0 = h0.fma(xh0, c0_0);
            a1_0 = l1.fma(xl0, a1_0);
            c1_0 = h1.fma(xh0, c1_0);
            a2_0 = l2.fma(xl0, a2_0);
            c2_0 = h2.fma(xh0, c2_0);
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = l0.fma(xl1, a0_1);
            c0_1 = h0.fma(xh1, c0_1);
            a1_1 = l1.fma(xl1, a1_1);
            c1_1 = h1.fma(xh1, c1_1);
            a2_1 = l2.fma(xl1, a2_1);
            c2_1 = h2.fma(xh1, c2_1);
        }
        a0_0 = a0_0.add(c0_0);
        a0_0 = a0_0.add(a0_0.rearrange(SWAP8));
        a0_0 = a0_0.add(a0_0.rearrange(SWAP4));
        a0_0 = a0_0.add(a0_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 0] = a0_0.add(a0_0.rearrange(SWAP1)).lane(0);
        a0_1 = a0_1.add(c0_1);
        a0_1 = a0_1.add(a0_1.rearrange(SWAP8));
        a0_1 = a0_1.add(a0_1.rearrange(SWAP4));
        a0_1 = a0_1.add(a0_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 0] = a0_1.add(a0_1.rearrange(SWAP1)).lane(0);
        a1_0 = a1_0.add(c1_0);
        a1_0 = a1_0.add(a1_0.rearrange(SWAP8));
        a1_0 = a1_0.add(a1_0.rearrange(SWAP4));
        a1_0 = a1_0.add(a1_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 1] = a1_0.add(a1_0.rearrange(SWAP1)).lane(0);
        a1_1 = a1_1.add(c1_1);
        a1_1 = a1_1.add(a1_1.rearrange(SWAP8));
        a1_1 = a1_1.add(a1_1.rearrange(SWAP4));
        a1_1 = a1_1.add(a1_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 1] = a1_1.add(a1_1.rearrange(SWAP1)).lane(0);
        a2_0 = a2_0.add(c2_0);
        a2_0 = a2_0.add(a2_0.rearrange(SWAP8));
        a2_0 = a2_0.add(a2_0.rearrange(SWAP4));
        a2_0 = a2_0.add(a2_0.rearrange(SWAP2));
        out[(t0 + 0) * rows + r + 2] = a2_0.add(a2_0.rearrange(SWAP1)).lane(0);
        a2_1 = a2_1.add(c2_1);
        a2_1 = a2_1.add(a2_1.rearrange(SWAP8));
        a2_1 = a2_1.add(a2_1.rearrange(SWAP4));
        a2_1 = a2_1.add(a2_1.rearrange(SWAP2));
        out[(t0 + 1) * rows + r + 2] = a2_1.add(a2_1.rearrange(SWAP1)).lane(0);
    }
}
