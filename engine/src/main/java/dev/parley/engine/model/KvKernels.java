package dev.parley.engine.model;

import dev.parley.engine.backend.SumTree;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The int8 x float loops of {@link Int8KvCache}: a scalar reference and a Vector API version (8 bytes widened to
 * 8 floats per step) that differs only in the order of float additions.
 */
final class KvKernels {

    private static final VectorSpecies<Byte> B64 = ByteVector.SPECIES_64;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    /** The fixed summation tree that ends each kernel ({@link SumTree}). */
    private static final VectorShuffle<Float> SWAP4 = SumTree.swap(F, 4), SWAP2 = SumTree.swap(F, 2),
            SWAP1 = SumTree.swap(F, 1);

    private KvKernels() {
    }

    /** {@code sum q[qo + i] * k[ko + i]} over {@code n} values. */
    static float dotScalar(byte[] k, int ko, float[] q, int qo, int n) {
        float sum = 0f;
        for (int i = 0; i < n; i++) {
            sum += k[ko + i] * q[qo + i];
        }
        return sum;
    }

    /** {@code y[yo + i] += a * v[vo + i]} over {@code n} values. */
    static void axpyScalar(float a, byte[] v, int vo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i++) {
            y[yo + i] += a * v[vo + i];
        }
    }

    static float dotVector(byte[] k, int ko, float[] q, int qo, int n) {
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            FloatVector kv = (FloatVector) ByteVector.fromArray(B64, k, ko + i).convertShape(VectorOperators.B2F, F, 0);
            acc = kv.fma(FloatVector.fromArray(F, q, qo + i), acc);
        }
        acc = acc.add(acc.rearrange(SWAP4));
        acc = acc.add(acc.rearrange(SWAP2));
        float sum = acc.add(acc.rearrange(SWAP1)).lane(0);
        for (; i < n; i++) {
            sum += k[ko + i] * q[qo + i];
        }
        return sum;
    }

    static void axpyVector(float a, byte[] v, int vo, float[] y, int yo, int n) {
        FloatVector av = FloatVector.broadcast(F, a);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            FloatVector x = (FloatVector) ByteVector.fromArray(B64, v, vo + i).convertShape(VectorOperators.B2F, F, 0);
            x.fma(av, FloatVector.fromArray(F, y, yo + i)).intoArray(y, yo + i);
        }
        for (; i < n; i++) {
            y[yo + i] += a * v[vo + i];
        }
    }
}
