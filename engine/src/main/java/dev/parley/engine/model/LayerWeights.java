package dev.parley.engine.model;

import dev.parley.engine.tensor.Tensor;

/**
 * The weights of one transformer block. Norm weights and biases are small and copied to the heap;
 * the matrices stay in the mapping. Biases are null for architectures without them.
 */
public record LayerWeights(float[] attnNorm, Tensor wq, Tensor wk, Tensor wv, float[] bq, float[] bk, float[] bv,
                           Tensor wo, float[] ffnNorm, Tensor wGate, Tensor wUp, Tensor wDown) {
}
