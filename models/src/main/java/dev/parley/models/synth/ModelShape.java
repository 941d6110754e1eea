package dev.parley.models.synth;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The hyper-parameters of a decoder-only transformer (llama / qwen2 family), enough to lay out
 * its GGUF tensors and metadata.
 *
 * @param name        short id, e.g. {@code qwen2.5-0.5b}
 * @param arch        the architecture the real model uses ({@code llama} or {@code qwen2})
 * @param dim         embedding length (hidden_size)
 * @param layers      block count
 * @param heads       attention heads
 * @param kvHeads     key/value heads (GQA); divides {@code heads}
 * @param headDim     per-head size (even)
 * @param ffn         feed-forward length (intermediate_size)
 * @param vocab       vocabulary size; 0 means "whatever the tokenizer has"
 * @param ropeBase    RoPE frequency base (rope_theta)
 * @param context     training context length (max_position_embeddings)
 * @param rmsEps      RMSNorm epsilon
 * @param tied        whether the output projection reuses the token embedding
 * @param ropeScaling Llama 3 RoPE scaling, or null
 * @param window      Gemma 3's sliding window (its local layers see this many positions), 0 for none
 * @param ropeLinear  linear RoPE scaling factor (Gemma 3's global layers), 0 for none
 * @param windowPattern Gemma 3's {@code sliding_window_pattern} key, or 0 to leave it out (as Google's files do:
 *                    llama.cpp then takes 6)
 */
public record ModelShape(String name, String arch, int dim, int layers, int heads, int kvHeads, int headDim, int ffn,
                         int vocab, double ropeBase, int context, double rmsEps, boolean tied, RopeScaling ropeScaling,
                         int window, double ropeLinear, int windowPattern) {

    /** A shape without a sliding_window_pattern key. */
    public ModelShape(String name, String arch, int dim, int layers, int heads, int kvHeads, int headDim, int ffn,
                      int vocab, double ropeBase, int context, double rmsEps, boolean tied, RopeScaling ropeScaling,
                      int window, double ropeLinear) {
        this(name, arch, dim, layers, heads, kvHeads, headDim, ffn, vocab, ropeBase, context, rmsEps, tied, ropeScaling,
                window, ropeLinear, 0);
    }

    /** A shape without a sliding window or linear RoPE scaling. */
    public ModelShape(String name, String arch, int dim, int layers, int heads, int kvHeads, int headDim, int ffn,
                      int vocab, double ropeBase, int context, double rmsEps, boolean tied, RopeScaling ropeScaling) {
        this(name, arch, dim, layers, heads, kvHeads, headDim, ffn, vocab, ropeBase, context, rmsEps, tied, ropeScaling,
                0, 0);
    }

    /**
     * Llama 3 RoPE frequency scaling ({@code rope_type: llama3} in config.json).
     *
     * @param factor          scale of the low frequencies
     * @param lowFreqFactor   low_freq_factor
     * @param highFreqFactor  high_freq_factor
     * @param originalContext original_max_position_embeddings
     */
    public record RopeScaling(double factor, double lowFreqFactor, double highFreqFactor, int originalContext) {
        public RopeScaling {
            if (!(factor > 0) || !(lowFreqFactor > 0) || !(highFreqFactor > lowFreqFactor) || originalContext <= 0) {
                throw new IllegalArgumentException("expected factor > 0, 0 < low_freq_factor < high_freq_factor and an "
                        + "original context > 0 but found " + factor + ", " + lowFreqFactor + ", " + highFreqFactor + ", " + originalContext);
            }
        }
    }

    public ModelShape {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arch, "arch");
        check(dim > 0, "dim > 0", dim);
        check(layers > 0, "layers > 0", layers);
        check(heads > 0, "heads > 0", heads);
        check(kvHeads > 0 && heads % kvHeads == 0, "kv heads dividing heads (" + heads + ")", kvHeads);
        check(headDim > 0 && headDim % 2 == 0, "an even head dim > 0", headDim);
        check(ffn > 0, "ffn > 0", ffn);
        check(vocab >= 0, "vocab >= 0 (0: from the tokenizer)", vocab);
        check(ropeBase > 0, "rope base > 0", ropeBase);
        check(context > 0, "context > 0", context);
        check(rmsEps > 0 && rmsEps < 1, "0 < rms eps < 1", rmsEps);
        check(window >= 0, "window >= 0 (0: none)", window);
        check(windowPattern >= 0, "window pattern >= 0 (0: no key)", windowPattern);
        check(ropeLinear == 0 || ropeLinear >= 1, "a linear RoPE factor of 0 (none) or at least 1", ropeLinear);
    }

    private static void check(boolean ok, String what, Object found) {
        if (!ok) {
            throw new IllegalArgumentException("model shape: expected " + what + " but found " + found);
        }
    }

    /** Parameters of the weights, embeddings and norms included (output counted once when tied). */
    public long parameterCount(int vocabSize) {
        long q = (long) heads * headDim;
        long kv = (long) kvHeads * headDim;
        long norms = switch (arch) {
            case "qwen3" -> 2L * dim + 2L * headDim;
            case "gemma3" -> 4L * dim + 2L * headDim;
            default -> 2L * dim;
        };
        long biases = arch.equals("qwen2") ? q + 2 * kv : 0;
        long perLayer = norms + biases + dim * q + 2 * dim * kv + q * dim + 3L * dim * ffn;
        long emb = (long) vocabSize * dim;
        return emb + (tied ? 0 : emb) + layers * perLayer + dim;
    }

    /** A copy with a different vocabulary size. */
    public ModelShape withVocab(int newVocab) {
        return new ModelShape(name, arch, dim, layers, heads, kvHeads, headDim, ffn, newVocab, ropeBase, context, rmsEps,
                tied, ropeScaling, window, ropeLinear, windowPattern);
    }

    private static final Map<String, ModelShape> BUILT_IN = builtInShapes();

    private static Map<String, ModelShape> builtInShapes() {
        Map<String, ModelShape> m = new LinkedHashMap<>();
        // HuggingFaceTB/SmolLM2-135M config.json: hidden 576, 30 layers, 9 heads, 3 kv heads, intermediate 1536,
        // vocab 49152, rope_theta 100000, max_position_embeddings 8192, rms_norm_eps 1e-5, tie_word_embeddings true.
        add(m, new ModelShape("smollm2-135m", "llama", 576, 30, 9, 3, 64, 1536, 49152, 100_000, 8192, 1e-5, true, null));
        // HuggingFaceTB/SmolLM2-360M config.json: hidden 960, 32 layers, 15 heads, 5 kv heads, intermediate 2560,
        // vocab 49152, rope_theta 100000, max_position_embeddings 8192, rms_norm_eps 1e-5, tied.
        add(m, new ModelShape("smollm2-360m", "llama", 960, 32, 15, 5, 64, 2560, 49152, 100_000, 8192, 1e-5, true, null));
        // Qwen/Qwen2.5-0.5B config.json: hidden 896, 24 layers, 14 heads, 2 kv heads, intermediate 4864, vocab 151936,
        // rope_theta 1e6, max_position_embeddings 32768, rms_norm_eps 1e-6, tied; q/k/v biases (qwen2).
        add(m, new ModelShape("qwen2.5-0.5b", "qwen2", 896, 24, 14, 2, 64, 4864, 151936, 1_000_000, 32768, 1e-6, true, null));
        // Qwen/Qwen2.5-1.5B(-Instruct) config.json: hidden 1536, 28 layers, 12 heads, 2 kv heads, intermediate 8960,
        // vocab 151936, rope_theta 1e6, max_position_embeddings 32768 (Instruct; the base card says 131072), eps 1e-6, tied.
        add(m, new ModelShape("qwen2.5-1.5b", "qwen2", 1536, 28, 12, 2, 128, 8960, 151936, 1_000_000, 32768, 1e-6, true, null));
        // meta-llama/Llama-3.2-1B config.json: hidden 2048, 16 layers, 32 heads, 8 kv heads, head_dim 64,
        // intermediate 8192, vocab 128256, rope_theta 500000, max_position_embeddings 131072, eps 1e-5, tied,
        // rope_scaling {rope_type llama3, factor 32, low_freq_factor 1, high_freq_factor 4, original 8192}.
        add(m, new ModelShape("llama-3.2-1b", "llama", 2048, 16, 32, 8, 64, 8192, 128256, 500_000, 131072, 1e-5, true,
                new RopeScaling(32, 1, 4, 8192)));
        // TinyLlama/TinyLlama-1.1B-Chat-v1.0 config.json: hidden 2048, 22 layers, 32 heads, 4 kv heads, intermediate
        // 5632, vocab 32000, rope_theta 10000, max_position_embeddings 2048, eps 1e-5, tie_word_embeddings false.
        add(m, new ModelShape("tinyllama-1.1b", "llama", 2048, 22, 32, 4, 64, 5632, 32000, 10_000, 2048, 1e-5, false, null));
        // meta-llama/Llama-3.2-3B-Instruct config.json: hidden 3072, 28 layers, 24 heads, 8 kv heads, head_dim 128,
        // intermediate 8192, vocab 128256, rope_theta 500000, max_position_embeddings 131072, eps 1e-5, tied, llama3
        // rope scaling as the 1B.
        add(m, new ModelShape("llama-3.2-3b", "llama", 3072, 28, 24, 8, 128, 8192, 128256, 500_000, 131072, 1e-5, true,
                new RopeScaling(32, 1, 4, 8192)));
        // Qwen/Qwen3-0.6B config.json: hidden 1024, 28 layers, 16 heads, 8 kv heads, head_dim 128, intermediate 3072,
        // vocab 151936, rope_theta 1e6, max_position_embeddings 40960, rms_norm_eps 1e-6, tied.
        add(m, new ModelShape("qwen3-0.6b", "qwen3", 1024, 28, 16, 8, 128, 3072, 151936, 1_000_000, 40960, 1e-6, true,
                null));
        // Qwen/Qwen3-1.7B config.json: hidden 2048, 28 layers, 16 heads, 8 kv heads, head_dim 128, intermediate 6144,
        // vocab 151936, rope_theta 1e6, max_position_embeddings 40960, rms_norm_eps 1e-6, tied.
        add(m, new ModelShape("qwen3-1.7b", "qwen3", 2048, 28, 16, 8, 128, 6144, 151936, 1_000_000, 40960, 1e-6, true,
                null));
        // google/gemma-3-1b-it config.json: hidden 1152, 26 layers, 4 heads, 1 kv head, head_dim 256, intermediate 6912,
        // vocab 262144, rope_theta 1e6 (local 10000), sliding_window 512 (pattern 6), max_position_embeddings 32768,
        // rms_norm_eps 1e-6, tied, no RoPE scaling.
        add(m, new ModelShape("gemma3-1b", "gemma3", 1152, 26, 4, 1, 256, 6912, 262144, 1_000_000, 32768, 1e-6, true,
                null, 512, 0));
        // microsoft/Phi-3.5-mini-instruct config.json: hidden 3072, 32 layers, 32 heads, 32 kv heads, intermediate 8192,
        // vocab 32064, rope_theta 10000, max_position_embeddings 131072 (original 4096, LongRoPE), rms_norm_eps 1e-5,
        // untied.
        add(m, new ModelShape("phi3.5-mini", "phi3", 3072, 32, 32, 32, 96, 8192, 32064, 10_000, 131072, 1e-5, false,
                null));
        // Test shapes (not real models): vocabulary from the tokenizer.
        add(m, new ModelShape("tiny", "llama", 64, 2, 4, 2, 16, 128, 0, 10_000, 2048, 1e-5, false, null));
        add(m, new ModelShape("tiny-qwen2", "qwen2", 64, 2, 4, 2, 16, 128, 0, 1_000_000, 2048, 1e-6, true, null));
        // Wider heads than dim / heads, as Qwen3 has (q is 128 wide on a 64-wide model).
        add(m, new ModelShape("tiny-qwen3", "qwen3", 64, 2, 4, 2, 32, 128, 0, 1_000_000, 2048, 1e-6, true, null));
        // Six layers so that the default pattern gives five local layers and one global; a window of 8.
        add(m, new ModelShape("tiny-gemma3", "gemma3", 64, 6, 4, 2, 16, 128, 0, 1_000_000, 2048, 1e-6, true, null, 8,
                8));
        add(m, new ModelShape("tiny-phi3", "phi3", 64, 2, 4, 4, 16, 128, 0, 10_000, 2048, 1e-5, false, null));
        return java.util.Collections.unmodifiableMap(m);
    }

    private static void add(Map<String, ModelShape> m, ModelShape s) {
        m.put(s.name(), s);
    }

    /** The built-in shapes by name, in a stable order. */
    public static Map<String, ModelShape> builtIns() {
        return BUILT_IN;
    }

    /** The built-in shape called {@code name}. */
    public static ModelShape builtIn(String name) {
        ModelShape s = BUILT_IN.get(name.toLowerCase(Locale.ROOT));
        if (s == null) {
            throw new IllegalArgumentException("expected a model shape, one of " + BUILT_IN.keySet() + ", but found '" + name + "'");
        }
        return s;
    }

    /**
     * A built-in shape, optionally changed: {@code "tiny"}, {@code "tiny:layers=4,tied=true"},
     * {@code "qwen2.5-0.5b:layers=2"}. Keys: arch, dim, layers, heads, kv, headdim, ffn, vocab,
     * rope, ctx, eps, tied, window (Gemma 3's sliding window), ropescale (linear RoPE factor), pattern (Gemma 3's
     * sliding_window_pattern key), name. Changing dim or heads without headdim recomputes headdim as
     * dim / heads.
     */
    public static ModelShape parse(String spec) {
        int colon = spec.indexOf(':');
        ModelShape base = builtIn(colon < 0 ? spec.trim() : spec.substring(0, colon).trim());
        if (colon < 0) {
            return base;
        }
        String name = base.name + ":" + spec.substring(colon + 1).trim();
        String arch = base.arch;
        int dim = base.dim, layers = base.layers, heads = base.heads, kv = base.kvHeads, headDim = base.headDim;
        int ffn = base.ffn, vocab = base.vocab, ctx = base.context;
        double rope = base.ropeBase, eps = base.rmsEps;
        boolean tied = base.tied;
        int window = base.window;
        double ropeLinear = base.ropeLinear;
        int windowPattern = base.windowPattern;
        boolean headDimGiven = false;
        for (String part : spec.substring(colon + 1).split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value in model shape '" + spec + "' but found '" + part + "'");
            }
            String k = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String v = part.substring(eq + 1).trim();
            try {
                switch (k) {
                    case "name" -> name = v;
                    case "arch" -> arch = v;
                    case "dim" -> dim = Integer.parseInt(v);
                    case "layers" -> layers = Integer.parseInt(v);
                    case "heads" -> heads = Integer.parseInt(v);
                    case "kv" -> kv = Integer.parseInt(v);
                    case "headdim" -> { headDim = Integer.parseInt(v); headDimGiven = true; }
                    case "ffn" -> ffn = Integer.parseInt(v);
                    case "vocab" -> vocab = Integer.parseInt(v);
                    case "ctx" -> ctx = Integer.parseInt(v);
                    case "rope" -> rope = Double.parseDouble(v);
                    case "eps" -> eps = Double.parseDouble(v);
                    case "tied" -> tied = parseBool(v);
                    case "window" -> window = Integer.parseInt(v);
                    case "ropescale" -> ropeLinear = Double.parseDouble(v);
                    case "pattern" -> windowPattern = Integer.parseInt(v);
                    default -> throw new IllegalArgumentException("unknown key '" + k + "' in model shape '" + spec
                            + "'; expected arch, dim, layers, heads, kv, headdim, ffn, vocab, rope, ctx, eps, tied, window, ropescale, pattern or name");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a number for '" + k + "' in model shape '" + spec + "' but found '" + v + "'");
            }
        }
        if (!headDimGiven && (dim != base.dim || heads != base.heads)) {
            if (dim % heads != 0) {
                throw new IllegalArgumentException("model shape '" + spec + "': dim " + dim + " is not a multiple of heads " + heads
                        + "; give headdim explicitly");
            }
            headDim = dim / heads;
        }
        return new ModelShape(name, arch, dim, layers, heads, kv, headDim, ffn, vocab, rope, ctx, eps, tied, base.ropeScaling,
                window, ropeLinear, windowPattern);
    }

    private static boolean parseBool(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException("expected true or false but found '" + v + "'");
        };
    }
}
