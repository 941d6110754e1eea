package dev.parley.engine.model;

import dev.parley.engine.tensor.Tensor;

/**
 * The weights of one transformer block. Norm weights and biases are small and copied to the heap;
 * the matrices stay in the mapping (Phi-3's fused {@code attn_qkv} and {@code ffn_up} as row ranges of the
 * stored tensor). What an architecture lacks is null: biases, the per-head q/k norms ({@code headSize} values
 * shared by all heads) and the norms after attention and after the feed-forward.
 */
public record LayerWeights(float[] attnNorm, Tensor wq, Tensor wk, Tensor wv, float[] bq, float[] bk, float[] bv,
                           Tensor wo, float[] ffnNorm, Tensor wGate, Tensor wUp, Tensor wDown,
                           float[] qNorm, float[] kNorm, float[] postAttnNorm, float[] postFfnNorm) {

    /** A Llama-graph block: no q/k norms, no post-norms. */
    public LayerWeights(float[] attnNorm, Tensor wq, Tensor wk, Tensor wv, float[] bq, float[] bk, float[] bv,
                        Tensor wo, float[] ffnNorm, Tensor wGate, Tensor wUp, Tensor wDown) {
        this(attnNorm, wq, wk, wv, bq, bk, bv, wo, ffnNorm, wGate, wUp, wDown, null, null, null, null);
    }

    /** The same norms and biases with other matrices (weights quantized on load). */
    public LayerWeights withMatrices(Tensor q, Tensor k, Tensor v, Tensor o, Tensor gate, Tensor up, Tensor down) {
        return new LayerWeights(attnNorm, q, k, v, bq, bk, bv, o, ffnNorm, gate, up, down, qNorm, kNorm, postAttnNorm,
                postFfnNorm);
    }
}
