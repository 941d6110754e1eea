package dev.parley.engine.model;

import dev.parley.engine.gguf.GgufException;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufTensorInfo;
import java.util.Locale;

/**
 * A transformer's hyper-parameters, read only from GGUF metadata.
 *
 * @param architecture  the model family
 * @param dim           embedding length
 * @param layers        number of blocks
 * @param heads         query heads
 * @param kvHeads       key/value heads (grouped-query attention when fewer than heads)
 * @param headSize      values per head
 * @param ffnDim        hidden size of the feed-forward network
 * @param rmsEps        RMSNorm epsilon
 * @param ropeFreqBase  RoPE base frequency
 * @param ropeFreqScale RoPE linear scaling (1 / factor; 1 when unscaled)
 * @param ropeDims      leading values of each head that RoPE rotates
 * @param contextLength the context the model was trained for
 * @param vocabSize     number of tokens (rows of the output)
 * @param tiedOutput    whether the output projection reuses token_embd (no output.weight)
 * @param ropeFreqFactors whether a tensor of per-frequency divisors ({@link BlockVariant#ropeFactorsTensor()})
 *                      divides the frequencies (Llama 3's {@code rope_freqs.weight}, Phi-3's factors)
 * @param variant       what the family's blocks add to the Llama graph, sized from metadata
 */
public record Configuration(Architecture architecture, int dim, int layers, int heads, int kvHeads, int headSize,
                            int ffnDim, float rmsEps, float ropeFreqBase, float ropeFreqScale, int ropeDims,
                            int contextLength, int vocabSize, boolean tiedOutput, boolean ropeFreqFactors,
                            BlockVariant variant) {

    /** A Llama-graph configuration (no {@link BlockVariant}; RoPE factors from {@code rope_freqs.weight}). */
    public Configuration(Architecture architecture, int dim, int layers, int heads, int kvHeads, int headSize,
                         int ffnDim, float rmsEps, float ropeFreqBase, float ropeFreqScale, int ropeDims,
                         int contextLength, int vocabSize, boolean tiedOutput, boolean ropeFreqFactors) {
        this(architecture, dim, layers, heads, kvHeads, headSize, ffnDim, rmsEps, ropeFreqBase, ropeFreqScale, ropeDims,
                contextLength, vocabSize, tiedOutput, ropeFreqFactors,
                ropeFreqFactors ? BlockVariant.NONE.withRopeFactors("rope_freqs.weight") : BlockVariant.NONE);
    }

    public Configuration {
        java.util.Objects.requireNonNull(variant, "variant");
        require(ropeFreqFactors == (variant.ropeFactorsTensor() != null), "a RoPE factors tensor iff ropeFreqFactors",
                variant.ropeFactorsTensor());
        require(dim > 0 && layers > 0 && heads > 0 && kvHeads > 0 && headSize > 0 && ffnDim > 0
                && contextLength > 0 && vocabSize > 0, "positive sizes", this);
        require(heads % kvHeads == 0, "head_count a multiple of head_count_kv", heads + " and " + kvHeads);
        require(ropeDims > 0 && ropeDims <= headSize && ropeDims % 2 == 0,
                "an even rope.dimension_count of at most the head size " + headSize, ropeDims);
        require(ropeFreqBase > 0 && ropeFreqScale > 0, "positive RoPE base and scale", ropeFreqBase + ", " + ropeFreqScale);
    }

    private static void require(boolean ok, String expected, Object found) {
        if (!ok) {
            throw new IllegalArgumentException("expected " + expected + " but found " + found);
        }
    }

    /** Values of all query heads together. */
    public int qDim() { return heads * headSize; }

    /** Values of all key (or value) heads together. */
    public int kvDim() { return kvHeads * headSize; }

    /** Query heads sharing one key/value head. */
    public int groupSize() { return heads / kvHeads; }

    /** The factor of q.k in attention. */
    public float attentionScale() {
        return variant.queryScale() > 0 ? variant.queryScale() : (float) (1.0 / Math.sqrt(headSize));
    }

    /** Positions layer {@code l} attends to (itself included): the window on local layers, else unbounded. */
    public int window(int l) {
        return variant.local(l) ? variant.slidingWindow() : Integer.MAX_VALUE;
    }

    /** A copy with another sliding window (tests of the window's edge). */
    public Configuration withSlidingWindow(int window) {
        return new Configuration(architecture, dim, layers, heads, kvHeads, headSize, ffnDim, rmsEps, ropeFreqBase,
                ropeFreqScale, ropeDims, contextLength, vocabSize, tiedOutput, ropeFreqFactors,
                variant.withSlidingWindow(window));
    }

    /**
     * Reads the configuration of {@code gguf}.
     *
     * @throws GgufException for an unknown architecture or missing or inconsistent keys
     */
    public static Configuration fromGguf(GgufFile gguf) throws GgufException {
        Architecture arch = Architecture.fromGguf(gguf.getString("general.architecture"));
        String p = arch.ggufName() + ".";
        int dim = gguf.getInt(p + "embedding_length");
        int layers = gguf.getInt(p + "block_count");
        int heads = gguf.getInt(p + "attention.head_count");
        int kvHeads = gguf.getInt(p + "attention.head_count_kv", heads);
        if (heads <= 0 || kvHeads <= 0 || dim <= 0) {
            throw new GgufException("expected positive embedding_length and head counts but found " + dim + ", " + heads
                    + ", " + kvHeads);
        }
        int headSize = gguf.getInt(p + "attention.key_length", dim / heads);
        int valueLength = gguf.getInt(p + "attention.value_length", headSize);
        if (valueLength != headSize) {
            throw new GgufException("expected attention.value_length equal to key_length " + headSize + " but found "
                    + valueLength);
        }
        int ffn = gguf.getInt(p + "feed_forward_length");
        float eps = (float) gguf.getDouble(p + "attention.layer_norm_rms_epsilon");
        float base = (float) gguf.getDouble(p + "rope.freq_base", 10000.0);
        int ropeDims = gguf.getInt(p + "rope.dimension_count", headSize);
        int ctx = gguf.getInt(p + "context_length");
        float freqScale = ropeScale(gguf, p);
        int vocab;
        if (gguf.has("tokenizer.ggml.tokens")) {
            vocab = gguf.getStrings("tokenizer.ggml.tokens").length;
        } else {
            vocab = (int) gguf.tensor("token_embd.weight").dim(1);
        }
        boolean tied = gguf.findTensor("output.weight").isEmpty();
        BlockVariant variant = variant(gguf, arch, p, dim, heads, layers);
        try {
            return new Configuration(arch, dim, layers, heads, kvHeads, headSize, ffn, eps, base, freqScale, ropeDims, ctx,
                    vocab, tied, variant.ropeFactorsTensor() != null, variant);
        } catch (IllegalArgumentException e) {
            throw new GgufException(gguf.path().getFileName() + ": " + e.getMessage(), e);
        }
    }

    /** What the family adds to the Llama graph, from the keys llama.cpp reads for it. */
    private static BlockVariant variant(GgufFile gguf, Architecture arch, String p, int dim, int heads, int layers)
            throws GgufException {
        BlockVariant v = switch (arch) {
            case LLAMA, QWEN2, QWEN3 -> BlockVariant.NONE;
            // llama.cpp ignores phi3.attention.sliding_window (it disables Phi's SWA): so does Parley.
            case PHI3 -> BlockVariant.NONE;
            case GEMMA3 -> {
                int window = gguf.getInt(p + "attention.sliding_window", 0);
                // llama.cpp's default when the key is absent (as in Google's files): five local layers, one global.
                int pattern = gguf.getInt(p + "attention.sliding_window_pattern", 6);
                if (window < 0 || pattern < 1) {
                    throw new GgufException("expected a non-negative " + p + "attention.sliding_window and a positive "
                            + "sliding_window_pattern but found " + window + " and " + pattern);
                }
                // Gemma 3 27B (62 layers) scales queries by query_pre_attn_scalar = dim / heads, the others by
                // key_length, as llama.cpp does.
                float queryScale = layers == 62 ? (float) (1.0 / Math.sqrt((double) dim / heads)) : 0f;
                yield new BlockVariant((float) Math.sqrt(dim), queryScale, window, pattern,
                        (float) gguf.getDouble(p + "rope.freq_base_swa", 10_000.0),
                        (float) gguf.getDouble(p + "attn_logit_softcapping", 0.0),
                        (float) gguf.getDouble(p + "final_logit_softcapping", 0.0), null, 1f);
            }
        };
        // llama.cpp multiplies the rotated values by rope.scaling.attn_factor when the file has it (Phi-3.5).
        double attnFactor = gguf.getDouble(p + "rope.scaling.attn_factor", 1.0);
        if (!(attnFactor > 0)) {
            throw new GgufException("expected a positive " + p + "rope.scaling.attn_factor but found " + attnFactor);
        }
        v = v.withRopeAttnFactor((float) attnFactor);
        if (gguf.findTensor("rope_freqs.weight").isPresent()) {
            v = v.withRopeFactors("rope_freqs.weight");
        } else if (gguf.findTensor("rope_factors_short.weight").isPresent()) {
            // Phi-3 LongRoPE: the short factors serve contexts up to the original length, which Parley's sessions use.
            v = v.withRopeFactors("rope_factors_short.weight");
        }
        return v;
    }

    private static float ropeScale(GgufFile gguf, String p) throws GgufException {
        String type = gguf.getString(p + "rope.scaling.type", "none").toLowerCase(Locale.ROOT);
        double factor = gguf.getDouble(p + "rope.scaling.factor", gguf.getDouble(p + "rope.scale_linear", 0.0));
        return switch (type) {
            case "none" -> (gguf.has(p + "rope.scale_linear") && factor > 0) ? (float) (1.0 / factor) : 1f;
            case "linear" -> factor > 0 ? (float) (1.0 / factor) : 1f;
            // Phi-3's LongRoPE comes as the rope_factors_*.weight tensors; positions themselves are not scaled.
            case "longrope" -> 1f;
            default -> throw new GgufException("unsupported rope.scaling.type '" + type
                    + "': expected none or linear (Llama 3 scaling comes as the rope_freqs.weight tensor)");
        };
    }

    /** Shape of a tensor in ggml order, for error messages. */
    static String shape(GgufTensorInfo t) {
        return java.util.Arrays.toString(t.dims());
    }
}
