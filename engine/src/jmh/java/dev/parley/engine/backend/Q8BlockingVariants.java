package dev.parley.engine.backend;

import dev.parley.engine.tensor.Activations;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register blockings {@link Q8TileKernels}' 3 x 4 was chosen against (benchmarks only): {@code rRxT} keep two
 * accumulators per row and token as the engine's kernels do; {@code sRxT} one (lo then hi half of each block),
 * which frees registers for more tokens but would change decode's rounding.
 */
final class Q8BlockingVariants {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final VectorOperators.Conversion<Byte, Float> B2F = VectorOperators.B2F;
    private static final int QK = Activations.BLOCK;

    private Q8BlockingVariants() {
    }

    /** 1 row(s) x 8 activation rows: 16 accumulators, each weight block converted once for 8 tokens. */
    static void r1x8(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a0_1 = z, c0_1 = z, a0_2 = z, c0_2 = z, a0_3 = z, c0_3 = z;
        FloatVector a0_4 = z, c0_4 = z, a0_5 = z, c0_5 = z, a0_6 = z, c0_6 = z, a0_7 = z, c0_7 = z;
        int x0 = t0 * dim;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long b0 = bo;
            FloatVector d0 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b0)));
            FloatVector l0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 2, LE).convertShape(B2F, F, 0)).mul(d0);
            FloatVector h0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 18, LE).convertShape(B2F, F, 0)).mul(d0);
            int xo = x0 + b * QK;
            a0_0 = l0.fma(FloatVector.fromArray(F, x, xo), a0_0);
            c0_0 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_0);
            xo += dim;
            a0_1 = l0.fma(FloatVector.fromArray(F, x, xo), a0_1);
            c0_1 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_1);
            xo += dim;
            a0_2 = l0.fma(FloatVector.fromArray(F, x, xo), a0_2);
            c0_2 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_2);
            xo += dim;
            a0_3 = l0.fma(FloatVector.fromArray(F, x, xo), a0_3);
            c0_3 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_3);
            xo += dim;
            a0_4 = l0.fma(FloatVector.fromArray(F, x, xo), a0_4);
            c0_4 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_4);
            xo += dim;
            a0_5 = l0.fma(FloatVector.fromArray(F, x, xo), a0_5);
            c0_5 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_5);
            xo += dim;
            a0_6 = l0.fma(FloatVector.fromArray(F, x, xo), a0_6);
            c0_6 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_6);
            xo += dim;
            a0_7 = l0.fma(FloatVector.fromArray(F, x, xo), a0_7);
            c0_7 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_7);
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.add(c0_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.add(c0_1).reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.add(c0_2).reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.add(c0_3).reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 0] = a0_4.add(c0_4).reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 0] = a0_5.add(c0_5).reduceLanes(VectorOperators.ADD);
        out[(t0 + 6) * rows + r + 0] = a0_6.add(c0_6).reduceLanes(VectorOperators.ADD);
        out[(t0 + 7) * rows + r + 0] = a0_7.add(c0_7).reduceLanes(VectorOperators.ADD);
    }

    /** 1 row(s) x 12 activation rows: 24 accumulators, each weight block converted once for 12 tokens. */
    static void r1x12(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a0_1 = z, c0_1 = z, a0_2 = z, c0_2 = z, a0_3 = z, c0_3 = z;
        FloatVector a0_4 = z, c0_4 = z, a0_5 = z, c0_5 = z, a0_6 = z, c0_6 = z, a0_7 = z, c0_7 = z;
        FloatVector a0_8 = z, c0_8 = z, a0_9 = z, c0_9 = z, a0_10 = z, c0_10 = z, a0_11 = z, c0_11 = z;
        int x0 = t0 * dim;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long b0 = bo;
            FloatVector d0 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b0)));
            FloatVector l0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 2, LE).convertShape(B2F, F, 0)).mul(d0);
            FloatVector h0 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b0 + 18, LE).convertShape(B2F, F, 0)).mul(d0);
            int xo = x0 + b * QK;
            a0_0 = l0.fma(FloatVector.fromArray(F, x, xo), a0_0);
            c0_0 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_0);
            xo += dim;
            a0_1 = l0.fma(FloatVector.fromArray(F, x, xo), a0_1);
            c0_1 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_1);
            xo += dim;
            a0_2 = l0.fma(FloatVector.fromArray(F, x, xo), a0_2);
            c0_2 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_2);
            xo += dim;
            a0_3 = l0.fma(FloatVector.fromArray(F, x, xo), a0_3);
            c0_3 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_3);
            xo += dim;
            a0_4 = l0.fma(FloatVector.fromArray(F, x, xo), a0_4);
            c0_4 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_4);
            xo += dim;
            a0_5 = l0.fma(FloatVector.fromArray(F, x, xo), a0_5);
            c0_5 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_5);
            xo += dim;
            a0_6 = l0.fma(FloatVector.fromArray(F, x, xo), a0_6);
            c0_6 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_6);
            xo += dim;
            a0_7 = l0.fma(FloatVector.fromArray(F, x, xo), a0_7);
            c0_7 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_7);
            xo += dim;
            a0_8 = l0.fma(FloatVector.fromArray(F, x, xo), a0_8);
            c0_8 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_8);
            xo += dim;
            a0_9 = l0.fma(FloatVector.fromArray(F, x, xo), a0_9);
            c0_9 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_9);
            xo += dim;
            a0_10 = l0.fma(FloatVector.fromArray(F, x, xo), a0_10);
            c0_10 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_10);
            xo += dim;
            a0_11 = l0.fma(FloatVector.fromArray(F, x, xo), a0_11);
            c0_11 = h0.fma(FloatVector.fromArray(F, x, xo + 16), c0_11);
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.add(c0_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.add(c0_1).reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.add(c0_2).reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.add(c0_3).reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 0] = a0_4.add(c0_4).reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 0] = a0_5.add(c0_5).reduceLanes(VectorOperators.ADD);
        out[(t0 + 6) * rows + r + 0] = a0_6.add(c0_6).reduceLanes(VectorOperators.ADD);
        out[(t0 + 7) * rows + r + 0] = a0_7.add(c0_7).reduceLanes(VectorOperators.ADD);
        out[(t0 + 8) * rows + r + 0] = a0_8.add(c0_8).reduceLanes(VectorOperators.ADD);
        out[(t0 + 9) * rows + r + 0] = a0_9.add(c0_9).reduceLanes(VectorOperators.ADD);
        out[(t0 + 10) * rows + r + 0] = a0_10.add(c0_10).reduceLanes(VectorOperators.ADD);
        out[(t0 + 11) * rows + r + 0] = a0_11.add(c0_11).reduceLanes(VectorOperators.ADD);
    }

    /** 2 row(s) x 6 activation rows: 24 accumulators, each weight block converted once for 6 tokens. */
    static void r2x6(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a0_1 = z, c0_1 = z, a0_2 = z, c0_2 = z, a0_3 = z, c0_3 = z;
        FloatVector a0_4 = z, c0_4 = z, a0_5 = z, c0_5 = z, a1_0 = z, c1_0 = z, a1_1 = z, c1_1 = z;
        FloatVector a1_2 = z, c1_2 = z, a1_3 = z, c1_3 = z, a1_4 = z, c1_4 = z, a1_5 = z, c1_5 = z;
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
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = l0.fma(xl0, a0_0);
            c0_0 = h0.fma(xh0, c0_0);
            a1_0 = l1.fma(xl0, a1_0);
            c1_0 = h1.fma(xh0, c1_0);
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = l0.fma(xl1, a0_1);
            c0_1 = h0.fma(xh1, c0_1);
            a1_1 = l1.fma(xl1, a1_1);
            c1_1 = h1.fma(xh1, c1_1);
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = l0.fma(xl2, a0_2);
            c0_2 = h0.fma(xh2, c0_2);
            a1_2 = l1.fma(xl2, a1_2);
            c1_2 = h1.fma(xh2, c1_2);
            xo += dim;
            FloatVector xl3 = FloatVector.fromArray(F, x, xo);
            FloatVector xh3 = FloatVector.fromArray(F, x, xo + 16);
            a0_3 = l0.fma(xl3, a0_3);
            c0_3 = h0.fma(xh3, c0_3);
            a1_3 = l1.fma(xl3, a1_3);
            c1_3 = h1.fma(xh3, c1_3);
            xo += dim;
            FloatVector xl4 = FloatVector.fromArray(F, x, xo);
            FloatVector xh4 = FloatVector.fromArray(F, x, xo + 16);
            a0_4 = l0.fma(xl4, a0_4);
            c0_4 = h0.fma(xh4, c0_4);
            a1_4 = l1.fma(xl4, a1_4);
            c1_4 = h1.fma(xh4, c1_4);
            xo += dim;
            FloatVector xl5 = FloatVector.fromArray(F, x, xo);
            FloatVector xh5 = FloatVector.fromArray(F, x, xo + 16);
            a0_5 = l0.fma(xl5, a0_5);
            c0_5 = h0.fma(xh5, c0_5);
            a1_5 = l1.fma(xl5, a1_5);
            c1_5 = h1.fma(xh5, c1_5);
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.add(c0_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.add(c0_1).reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.add(c0_2).reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.add(c0_3).reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 0] = a0_4.add(c0_4).reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 0] = a0_5.add(c0_5).reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.add(c1_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 1] = a1_1.add(c1_1).reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 1] = a1_2.add(c1_2).reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 1] = a1_3.add(c1_3).reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 1] = a1_4.add(c1_4).reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 1] = a1_5.add(c1_5).reduceLanes(VectorOperators.ADD);
    }

    /** 2 row(s) x 4 activation rows: 16 accumulators, each weight block converted once for 4 tokens. */
    static void r2x4(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a0_1 = z, c0_1 = z, a0_2 = z, c0_2 = z, a0_3 = z, c0_3 = z;
        FloatVector a1_0 = z, c1_0 = z, a1_1 = z, c1_1 = z, a1_2 = z, c1_2 = z, a1_3 = z, c1_3 = z;
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
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = l0.fma(xl0, a0_0);
            c0_0 = h0.fma(xh0, c0_0);
            a1_0 = l1.fma(xl0, a1_0);
            c1_0 = h1.fma(xh0, c1_0);
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = l0.fma(xl1, a0_1);
            c0_1 = h0.fma(xh1, c0_1);
            a1_1 = l1.fma(xl1, a1_1);
            c1_1 = h1.fma(xh1, c1_1);
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = l0.fma(xl2, a0_2);
            c0_2 = h0.fma(xh2, c0_2);
            a1_2 = l1.fma(xl2, a1_2);
            c1_2 = h1.fma(xh2, c1_2);
            xo += dim;
            FloatVector xl3 = FloatVector.fromArray(F, x, xo);
            FloatVector xh3 = FloatVector.fromArray(F, x, xo + 16);
            a0_3 = l0.fma(xl3, a0_3);
            c0_3 = h0.fma(xh3, c0_3);
            a1_3 = l1.fma(xl3, a1_3);
            c1_3 = h1.fma(xh3, c1_3);
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.add(c0_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.add(c0_1).reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.add(c0_2).reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.add(c0_3).reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.add(c1_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 1] = a1_1.add(c1_1).reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 1] = a1_2.add(c1_2).reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 1] = a1_3.add(c1_3).reduceLanes(VectorOperators.ADD);
    }


    /** 2 row(s) x 4 activation rows, one accumulator each (lo then hi half of each block). */
    static void s2x4(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, a0_1 = z, a0_2 = z, a0_3 = z, a1_0 = z, a1_1 = z, a1_2 = z, a1_3 = z;
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
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = h0.fma(xh0, l0.fma(xl0, a0_0));
            a1_0 = h1.fma(xh0, l1.fma(xl0, a1_0));
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = h0.fma(xh1, l0.fma(xl1, a0_1));
            a1_1 = h1.fma(xh1, l1.fma(xl1, a1_1));
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = h0.fma(xh2, l0.fma(xl2, a0_2));
            a1_2 = h1.fma(xh2, l1.fma(xl2, a1_2));
            xo += dim;
            FloatVector xl3 = FloatVector.fromArray(F, x, xo);
            FloatVector xh3 = FloatVector.fromArray(F, x, xo + 16);
            a0_3 = h0.fma(xh3, l0.fma(xl3, a0_3));
            a1_3 = h1.fma(xh3, l1.fma(xl3, a1_3));
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 1] = a1_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 1] = a1_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 1] = a1_3.reduceLanes(VectorOperators.ADD);
    }

    /** 2 row(s) x 8 activation rows, one accumulator each (lo then hi half of each block). */
    static void s2x8(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, a0_1 = z, a0_2 = z, a0_3 = z, a0_4 = z, a0_5 = z, a0_6 = z, a0_7 = z;
        FloatVector a1_0 = z, a1_1 = z, a1_2 = z, a1_3 = z, a1_4 = z, a1_5 = z, a1_6 = z, a1_7 = z;
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
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = h0.fma(xh0, l0.fma(xl0, a0_0));
            a1_0 = h1.fma(xh0, l1.fma(xl0, a1_0));
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = h0.fma(xh1, l0.fma(xl1, a0_1));
            a1_1 = h1.fma(xh1, l1.fma(xl1, a1_1));
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = h0.fma(xh2, l0.fma(xl2, a0_2));
            a1_2 = h1.fma(xh2, l1.fma(xl2, a1_2));
            xo += dim;
            FloatVector xl3 = FloatVector.fromArray(F, x, xo);
            FloatVector xh3 = FloatVector.fromArray(F, x, xo + 16);
            a0_3 = h0.fma(xh3, l0.fma(xl3, a0_3));
            a1_3 = h1.fma(xh3, l1.fma(xl3, a1_3));
            xo += dim;
            FloatVector xl4 = FloatVector.fromArray(F, x, xo);
            FloatVector xh4 = FloatVector.fromArray(F, x, xo + 16);
            a0_4 = h0.fma(xh4, l0.fma(xl4, a0_4));
            a1_4 = h1.fma(xh4, l1.fma(xl4, a1_4));
            xo += dim;
            FloatVector xl5 = FloatVector.fromArray(F, x, xo);
            FloatVector xh5 = FloatVector.fromArray(F, x, xo + 16);
            a0_5 = h0.fma(xh5, l0.fma(xl5, a0_5));
            a1_5 = h1.fma(xh5, l1.fma(xl5, a1_5));
            xo += dim;
            FloatVector xl6 = FloatVector.fromArray(F, x, xo);
            FloatVector xh6 = FloatVector.fromArray(F, x, xo + 16);
            a0_6 = h0.fma(xh6, l0.fma(xl6, a0_6));
            a1_6 = h1.fma(xh6, l1.fma(xl6, a1_6));
            xo += dim;
            FloatVector xl7 = FloatVector.fromArray(F, x, xo);
            FloatVector xh7 = FloatVector.fromArray(F, x, xo + 16);
            a0_7 = h0.fma(xh7, l0.fma(xl7, a0_7));
            a1_7 = h1.fma(xh7, l1.fma(xl7, a1_7));
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 0] = a0_4.reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 0] = a0_5.reduceLanes(VectorOperators.ADD);
        out[(t0 + 6) * rows + r + 0] = a0_6.reduceLanes(VectorOperators.ADD);
        out[(t0 + 7) * rows + r + 0] = a0_7.reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 1] = a1_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 1] = a1_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 1] = a1_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 1] = a1_4.reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 1] = a1_5.reduceLanes(VectorOperators.ADD);
        out[(t0 + 6) * rows + r + 1] = a1_6.reduceLanes(VectorOperators.ADD);
        out[(t0 + 7) * rows + r + 1] = a1_7.reduceLanes(VectorOperators.ADD);
    }

    /** 4 row(s) x 4 activation rows, one accumulator each (lo then hi half of each block). */
    static void s4x4(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, a0_1 = z, a0_2 = z, a0_3 = z, a1_0 = z, a1_1 = z, a1_2 = z, a1_3 = z;
        FloatVector a2_0 = z, a2_1 = z, a2_2 = z, a2_3 = z, a3_0 = z, a3_1 = z, a3_2 = z, a3_3 = z;
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
            long b3 = bo + 3 * rowBytes;
            FloatVector d3 = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, b3)));
            FloatVector l3 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b3 + 2, LE).convertShape(B2F, F, 0)).mul(d3);
            FloatVector h3 = ((FloatVector) ByteVector.fromMemorySegment(B128, w, b3 + 18, LE).convertShape(B2F, F, 0)).mul(d3);
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = h0.fma(xh0, l0.fma(xl0, a0_0));
            a1_0 = h1.fma(xh0, l1.fma(xl0, a1_0));
            a2_0 = h2.fma(xh0, l2.fma(xl0, a2_0));
            a3_0 = h3.fma(xh0, l3.fma(xl0, a3_0));
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = h0.fma(xh1, l0.fma(xl1, a0_1));
            a1_1 = h1.fma(xh1, l1.fma(xl1, a1_1));
            a2_1 = h2.fma(xh1, l2.fma(xl1, a2_1));
            a3_1 = h3.fma(xh1, l3.fma(xl1, a3_1));
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = h0.fma(xh2, l0.fma(xl2, a0_2));
            a1_2 = h1.fma(xh2, l1.fma(xl2, a1_2));
            a2_2 = h2.fma(xh2, l2.fma(xl2, a2_2));
            a3_2 = h3.fma(xh2, l3.fma(xl2, a3_2));
            xo += dim;
            FloatVector xl3 = FloatVector.fromArray(F, x, xo);
            FloatVector xh3 = FloatVector.fromArray(F, x, xo + 16);
            a0_3 = h0.fma(xh3, l0.fma(xl3, a0_3));
            a1_3 = h1.fma(xh3, l1.fma(xl3, a1_3));
            a2_3 = h2.fma(xh3, l2.fma(xl3, a2_3));
            a3_3 = h3.fma(xh3, l3.fma(xl3, a3_3));
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 1] = a1_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 1] = a1_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 1] = a1_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 2] = a2_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 2] = a2_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 2] = a2_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 2] = a2_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 3] = a3_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 3] = a3_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 3] = a3_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 3] = a3_3.reduceLanes(VectorOperators.ADD);
    }

    /** 3 row(s) x 6 activation rows, one accumulator each (lo then hi half of each block). */
    static void s3x6(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, a0_1 = z, a0_2 = z, a0_3 = z, a0_4 = z, a0_5 = z, a1_0 = z, a1_1 = z;
        FloatVector a1_2 = z, a1_3 = z, a1_4 = z, a1_5 = z, a2_0 = z, a2_1 = z, a2_2 = z, a2_3 = z;
        FloatVector a2_4 = z, a2_5 = z;
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
            a0_0 = h0.fma(xh0, l0.fma(xl0, a0_0));
            a1_0 = h1.fma(xh0, l1.fma(xl0, a1_0));
            a2_0 = h2.fma(xh0, l2.fma(xl0, a2_0));
            xo += dim;
            FloatVector xl1 = FloatVector.fromArray(F, x, xo);
            FloatVector xh1 = FloatVector.fromArray(F, x, xo + 16);
            a0_1 = h0.fma(xh1, l0.fma(xl1, a0_1));
            a1_1 = h1.fma(xh1, l1.fma(xl1, a1_1));
            a2_1 = h2.fma(xh1, l2.fma(xl1, a2_1));
            xo += dim;
            FloatVector xl2 = FloatVector.fromArray(F, x, xo);
            FloatVector xh2 = FloatVector.fromArray(F, x, xo + 16);
            a0_2 = h0.fma(xh2, l0.fma(xl2, a0_2));
            a1_2 = h1.fma(xh2, l1.fma(xl2, a1_2));
            a2_2 = h2.fma(xh2, l2.fma(xl2, a2_2));
            xo += dim;
            FloatVector xl3 = FloatVector.fromArray(F, x, xo);
            FloatVector xh3 = FloatVector.fromArray(F, x, xo + 16);
            a0_3 = h0.fma(xh3, l0.fma(xl3, a0_3));
            a1_3 = h1.fma(xh3, l1.fma(xl3, a1_3));
            a2_3 = h2.fma(xh3, l2.fma(xl3, a2_3));
            xo += dim;
            FloatVector xl4 = FloatVector.fromArray(F, x, xo);
            FloatVector xh4 = FloatVector.fromArray(F, x, xo + 16);
            a0_4 = h0.fma(xh4, l0.fma(xl4, a0_4));
            a1_4 = h1.fma(xh4, l1.fma(xl4, a1_4));
            a2_4 = h2.fma(xh4, l2.fma(xl4, a2_4));
            xo += dim;
            FloatVector xl5 = FloatVector.fromArray(F, x, xo);
            FloatVector xh5 = FloatVector.fromArray(F, x, xo + 16);
            a0_5 = h0.fma(xh5, l0.fma(xl5, a0_5));
            a1_5 = h1.fma(xh5, l1.fma(xl5, a1_5));
            a2_5 = h2.fma(xh5, l2.fma(xl5, a2_5));
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 0] = a0_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 0] = a0_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 0] = a0_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 0] = a0_4.reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 0] = a0_5.reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 1] = a1_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 1] = a1_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 1] = a1_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 1] = a1_4.reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 1] = a1_5.reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 2] = a2_0.reduceLanes(VectorOperators.ADD);
        out[(t0 + 1) * rows + r + 2] = a2_1.reduceLanes(VectorOperators.ADD);
        out[(t0 + 2) * rows + r + 2] = a2_2.reduceLanes(VectorOperators.ADD);
        out[(t0 + 3) * rows + r + 2] = a2_3.reduceLanes(VectorOperators.ADD);
        out[(t0 + 4) * rows + r + 2] = a2_4.reduceLanes(VectorOperators.ADD);
        out[(t0 + 5) * rows + r + 2] = a2_5.reduceLanes(VectorOperators.ADD);
    }

    /** 3 row(s) x 1 activation rows: 6 accumulators, each weight block converted once for 1 tokens. */
    static void r3x1(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a1_0 = z, c1_0 = z, a2_0 = z, c2_0 = z;
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
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.add(c0_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.add(c1_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 2] = a2_0.add(c2_0).reduceLanes(VectorOperators.ADD);
    }

    /** 2 row(s) x 1 activation rows: 4 accumulators, each weight block converted once for 1 tokens. */
    static void r2x1(MemorySegment w, long base, long rowBytes, int blocks, float[] x, int dim, int t0,
                    float[] out, int rows, int r) {
        FloatVector z = FloatVector.zero(F);
        FloatVector a0_0 = z, c0_0 = z, a1_0 = z, c1_0 = z;
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
            int xo = x0 + b * QK;
            FloatVector xl0 = FloatVector.fromArray(F, x, xo);
            FloatVector xh0 = FloatVector.fromArray(F, x, xo + 16);
            a0_0 = l0.fma(xl0, a0_0);
            c0_0 = h0.fma(xh0, c0_0);
            a1_0 = l1.fma(xl0, a1_0);
            c1_0 = h1.fma(xh0, c1_0);
        }
        out[(t0 + 0) * rows + r + 0] = a0_0.add(c0_0).reduceLanes(VectorOperators.ADD);
        out[(t0 + 0) * rows + r + 1] = a1_0.add(c1_0).reduceLanes(VectorOperators.ADD);
    }
}
