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
 * One-token Q8_0 kernel variants (benchmarks only), written out beside {@link Q8FloatKernels#dotQ8_0w512} on purpose:
 * each is that kernel with one thing changed, and a shared helper would box its vectors (see SumTree).
 */
final class Q8DecodeVariants {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final VectorShuffle<Float> SWAP8 = SumTree.swap(F, 8), SWAP4 = SumTree.swap(F, 4),
            SWAP2 = SumTree.swap(F, 2), SWAP1 = SumTree.swap(F, 1);
    private static final int QK = Activations.BLOCK;

    private Q8DecodeVariants() {
    }

    /** The engine's kernel plus one byte load {@code ahead} bytes further on per block (a software prefetch). */
    static float prefetch(MemorySegment w, long base, int blocks, float[] x, int xo, long ahead, long limit, int[] sink) {
        FloatVector a = FloatVector.zero(F);
        FloatVector c = a;
        int s = 0;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 34;
            long p = bo + ahead;
            s += w.get(ValueLayout.JAVA_BYTE, p < limit ? p : limit);
            FloatVector d = FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)));
            FloatVector lo = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE)
                    .convertShape(VectorOperators.B2F, F, 0)).mul(d);
            FloatVector hi = ((FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE)
                    .convertShape(VectorOperators.B2F, F, 0)).mul(d);
            int o = xo + b * QK;
            a = lo.fma(FloatVector.fromArray(F, x, o), a);
            c = hi.fma(FloatVector.fromArray(F, x, o + 16), c);
        }
        sink[0] += s;
        a = a.add(c);
        a = a.add(a.rearrange(SWAP8));
        a = a.add(a.rearrange(SWAP4));
        a = a.add(a.rearrange(SWAP2));
        return a.add(a.rearrange(SWAP1)).lane(0);
    }

    /** The block at {@code bo}'s 32 weights times {@code x[o..o+32)}, unscaled, summed pairwise into one vector. */
    private static FloatVector blockProducts(MemorySegment w, long bo, float[] x, int o) {
        FloatVector lo = (FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 2, LE)
                .convertShape(VectorOperators.B2F, F, 0);
        FloatVector hi = (FloatVector) ByteVector.fromMemorySegment(B128, w, bo + 18, LE)
                .convertShape(VectorOperators.B2F, F, 0);
        return hi.fma(FloatVector.fromArray(F, x, o + 16), lo.mul(FloatVector.fromArray(F, x, o)));
    }

    /** The block at {@code bo}'s scale, in every lane. */
    private static FloatVector scale(MemorySegment w, long bo) {
        return FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)));
    }

    /** Scale after the block: one product per half, the block's sum times d into one accumulator (other bits). */
    static float scaleAfter(MemorySegment w, long base, int blocks, float[] x, int xo) {
        FloatVector a = FloatVector.zero(F);
        FloatVector c = a;
        int b = 0;
        for (; b + 1 < blocks; b += 2) {
            long bo = base + (long) b * 34;
            int o = xo + b * QK;
            a = blockProducts(w, bo, x, o).fma(scale(w, bo), a);
            c = blockProducts(w, bo + 34, x, o + QK).fma(scale(w, bo + 34), c);
        }
        if (b < blocks) {           // an odd last block
            long bo = base + (long) b * 34;
            a = blockProducts(w, bo, x, xo + b * QK).fma(scale(w, bo), a);
        }
        a = a.add(c);
        a = a.add(a.rearrange(SWAP8));
        a = a.add(a.rearrange(SWAP4));
        a = a.add(a.rearrange(SWAP2));
        return a.add(a.rearrange(SWAP1)).lane(0);
    }
}
