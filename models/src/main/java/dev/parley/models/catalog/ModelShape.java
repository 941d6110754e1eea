package dev.parley.models.catalog;

/**
 * The shape of a decoder-only transformer, enough to size it: parameters and KV cache.
 *
 * @param embeddingLength   model width ({@code dim})
 * @param blockCount        number of layers
 * @param headCount         query heads
 * @param headCountKv       key/value heads (grouped-query attention when fewer than {@code headCount})
 * @param headDim           width of one head
 * @param feedForwardLength hidden width of the SwiGLU feed-forward block
 * @param vocabSize         tokens in the vocabulary
 * @param tiedEmbeddings    whether the output projection reuses the token embeddings
 * @param attentionBias     whether q/k/v projections carry biases (Qwen2)
 * @param qkNorm            whether q and k have per-head RMSNorm weights of {@code headDim} (Qwen3, Gemma 3)
 * @param postNorms         whether each block has norms after attention and after the feed-forward (Gemma 3)
 */
public record ModelShape(int embeddingLength, int blockCount, int headCount, int headCountKv, int headDim,
                         int feedForwardLength, int vocabSize, boolean tiedEmbeddings, boolean attentionBias,
                         boolean qkNorm, boolean postNorms) {

    /** A Llama-style shape: no q/k norms, no post-norms. */
    public ModelShape(int embeddingLength, int blockCount, int headCount, int headCountKv, int headDim,
                      int feedForwardLength, int vocabSize, boolean tiedEmbeddings, boolean attentionBias) {
        this(embeddingLength, blockCount, headCount, headCountKv, headDim, feedForwardLength, vocabSize,
                tiedEmbeddings, attentionBias, false, false);
    }

    /** Bytes of one F32 element of the KV cache. */
    public static final int F32_BYTES = 4;

    public ModelShape {
        requirePositive("embeddingLength", embeddingLength);
        requirePositive("blockCount", blockCount);
        requirePositive("headCount", headCount);
        requirePositive("headCountKv", headCountKv);
        requirePositive("headDim", headDim);
        requirePositive("feedForwardLength", feedForwardLength);
        requirePositive("vocabSize", vocabSize);
        if (headCount % headCountKv != 0) {
            throw new IllegalArgumentException("expected headCount (" + headCount
                    + ") to be a multiple of headCountKv but found headCountKv " + headCountKv);
        }
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("expected " + name + " > 0 but found " + value);
        }
    }

    /** KV cache bytes per token of context for an F32 cache: 2 (K and V) * layers * kv heads * head dim * 4. */
    public long kvBytesPerToken() {
        return 2L * blockCount * headCountKv * headDim * F32_BYTES;
    }

    /**
     * Parameters of a llama-style decoder: embeddings (+ output unless tied), per layer the q/k/v/o projections,
     * the three feed-forward matrices, two RMSNorm weights, the optional q/k/v biases, q/k norms and post-norms,
     * and the final norm.
     */
    public long parameterCount() {
        long dim = embeddingLength;
        long qDim = (long) headCount * headDim;
        long kvDim = (long) headCountKv * headDim;
        long embeddings = (long) vocabSize * dim * (tiedEmbeddings ? 1 : 2);
        long perLayer = dim * qDim + 2 * dim * kvDim + qDim * dim
                + 3 * dim * feedForwardLength
                + 2 * dim
                + (attentionBias ? qDim + 2 * kvDim : 0)
                + (qkNorm ? 2L * headDim : 0)
                + (postNorms ? 2 * dim : 0);
        return embeddings + blockCount * perLayer + dim;
    }
}
