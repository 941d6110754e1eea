package dev.parley.engine.model;

/**
 * The sized details that set a family's blocks apart, read from its metadata (see
 * {@link Configuration#fromGguf}); {@link #NONE} is the plain Llama graph.
 *
 * @param embeddingScale    factor applied to each embedding row before the first block (Gemma: sqrt(dim))
 * @param queryScale        factor of q.k in attention, or 0 for 1/sqrt(head size)
 * @param slidingWindow     positions a local layer sees (itself and window - 1 before it), or 0 for none
 * @param windowPattern     layer l is local when {@code l % pattern < pattern - 1} (Gemma 3: 6, five local then one
 *                          global); 1 makes every layer global
 * @param localRopeBase     RoPE base of the local layers (they take no RoPE scaling)
 * @param attentionSoftcap  {@code cap * tanh(score / cap)} on attention scores, or 0 for none
 * @param finalSoftcap      the same on the output logits, or 0 for none
 * @param ropeFactorsTensor the tensor of per-frequency RoPE divisors ({@code rope_freqs.weight}, Phi-3's
 *                          {@code rope_factors_short.weight}) or null
 * @param ropeAttnFactor    {@code rope.scaling.attn_factor}: the rotated values are multiplied by it (ggml's
 *                          {@code mscale}, Phi-3.5's LongRoPE), 1 when absent
 */
public record BlockVariant(float embeddingScale, float queryScale, int slidingWindow, int windowPattern,
                           float localRopeBase, float attentionSoftcap, float finalSoftcap, String ropeFactorsTensor,
                           float ropeAttnFactor) {

    /** The Llama graph: nothing scaled, no window, no softcap, no RoPE factors. */
    public static final BlockVariant NONE = new BlockVariant(1f, 0f, 0, 1, 10_000f, 0f, 0f, null, 1f);

    public BlockVariant {
        if (!(embeddingScale > 0) || queryScale < 0 || slidingWindow < 0 || windowPattern < 1 || !(localRopeBase > 0)
                || attentionSoftcap < 0 || finalSoftcap < 0 || !(ropeAttnFactor > 0)) {
            throw new IllegalArgumentException("expected a positive embedding scale, RoPE base and window pattern and "
                    + "non-negative query scale, window and softcaps and a positive RoPE attn_factor but found " + embeddingScale
                    + ", " + localRopeBase + ", " + windowPattern + ", " + queryScale + ", " + slidingWindow + ", "
                    + attentionSoftcap + ", " + finalSoftcap + ", " + ropeAttnFactor);
        }
    }

    /** Whether layer {@code l} attends only within the sliding window. */
    public boolean local(int l) {
        return slidingWindow > 0 && l % windowPattern < windowPattern - 1;
    }

    /** A copy with another RoPE factors tensor. */
    public BlockVariant withRopeFactors(String tensor) {
        return new BlockVariant(embeddingScale, queryScale, slidingWindow, windowPattern, localRopeBase,
                attentionSoftcap, finalSoftcap, tensor, ropeAttnFactor);
    }

    /** A copy with another sliding window (tests of the window's edge). */
    public BlockVariant withSlidingWindow(int window) {
        return new BlockVariant(embeddingScale, queryScale, window, windowPattern, localRopeBase, attentionSoftcap,
                finalSoftcap, ropeFactorsTensor, ropeAttnFactor);
    }

    /** A copy with another RoPE attn_factor. */
    public BlockVariant withRopeAttnFactor(float factor) {
        return new BlockVariant(embeddingScale, queryScale, slidingWindow, windowPattern, localRopeBase,
                attentionSoftcap, finalSoftcap, ropeFactorsTensor, factor);
    }
}
