package dev.parley.engine.backend;

import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The shuffles of the fixed summation tree that ends the vector kernels: lane {@code i ^ (n/2)}, then
 * {@code i ^ (n/4)}, ... {@code i ^ 1} added to lane {@code i}, after which lane 0 holds the sum.
 * {@code reduceLanes(ADD)} leaves the order of its additions open, and the JIT's order is not the interpreter's,
 * so two kernels that do the same arithmetic, one compiled and the other not yet (a one-token kernel called once
 * per product for a leftover token, say), would round differently, and a prompt or a batch would not give the bits
 * of the same tokens run alone. Kernels write the steps out ({@code v = v.add(v.rearrange(SWAP4))}, ...) with
 * these shuffles as constants: a call of our own at the end of a kernel is not always inlined, and a vector handed
 * to it would be boxed.
 */
public final class SumTree {

    private SumTree() {
    }

    /**
     * The shuffle that moves lane {@code i ^ bit} to lane {@code i} in {@code species}.
     *
     * @throws IllegalArgumentException unless {@code bit} is a power of two below the species' lane count
     */
    public static VectorShuffle<Float> swap(VectorSpecies<Float> species, int bit) {
        int lanes = species.length();
        if (bit <= 0 || bit >= lanes || Integer.bitCount(bit) != 1) {
            throw new IllegalArgumentException("expected a power of two below " + lanes + " lanes but found " + bit);
        }
        int[] index = new int[lanes];
        for (int i = 0; i < lanes; i++) {
            index[i] = i ^ bit;
        }
        return VectorShuffle.fromArray(species, index, 0);
    }
}
