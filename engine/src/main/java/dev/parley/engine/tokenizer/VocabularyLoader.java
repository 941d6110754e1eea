package dev.parley.engine.tokenizer;

import dev.parley.engine.gguf.GgufException;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads the {@code tokenizer.*} metadata into a {@link Vocabulary}, applying llama.cpp's defaults
 * (src/llama-vocab.cpp, {@code llama_vocab::impl::load}): default special ids per model type, BOS
 * added by default for SentencePiece and Llama-3 style BPE vocabularies, EOT and end-of-generation
 * tokens found by their text and forced to CONTROL type.
 */
final class VocabularyLoader {

    private static final System.Logger LOG = System.getLogger(VocabularyLoader.class.getName());

    static final String MODEL = "tokenizer.ggml.model";
    static final String PRE = "tokenizer.ggml.pre";
    static final String TOKENS = "tokenizer.ggml.tokens";
    static final String SCORES = "tokenizer.ggml.scores";
    static final String TOKEN_TYPE = "tokenizer.ggml.token_type";
    static final String MERGES = "tokenizer.ggml.merges";
    static final String BOS = "tokenizer.ggml.bos_token_id";
    static final String EOS = "tokenizer.ggml.eos_token_id";
    static final String EOT = "tokenizer.ggml.eot_token_id";
    static final String EOM = "tokenizer.ggml.eom_token_id";
    static final String PAD = "tokenizer.ggml.padding_token_id";
    static final String ADD_BOS = "tokenizer.ggml.add_bos_token";
    static final String ADD_EOS = "tokenizer.ggml.add_eos_token";
    static final String ADD_SPACE_PREFIX = "tokenizer.ggml.add_space_prefix";
    static final String NAME = "general.name";

    /** Texts that llama.cpp takes as the end-of-turn token when metadata names none (in its order). */
    private static final List<String> EOT_TEXTS = List.of("<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>",
            "<|endoftext|>", "<|end_of_text|>", "<EOT>", "_<EOT>", "<｜end▁of▁sentence｜>", "<end_of_utterance>");

    /** Texts that end generation wherever they are in the vocabulary (llama.cpp's EOG list, common subset). */
    private static final Set<String> EOG_TEXTS = Set.of("<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>",
            "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "<|end_of_text|>", "<end_of_utterance>",
            "<｜end▁of▁sentence｜>");

    /** What the loader found: the vocabulary plus what only one tokenizer kind needs. */
    record Result(Vocabulary vocabulary, Map<String, Integer> ids, String[] merges, PreTokenizer preTokenizer,
                  boolean ignoreMerges, String generalName) {
    }

    private VocabularyLoader() {
    }

    /**
     * Loads from a metadata lookup ({@code key -> value} as {@code GgufMetadataValue.value()} holds it,
     * null when absent); {@code source} names the file in error messages.
     */
    static Result load(Function<String, Object> metadata, String source) throws GgufException {
        Object modelValue = metadata.apply(MODEL);
        if (!(modelValue instanceof String model)) {
            throw new GgufException(source + ": expected a string '" + MODEL + "' (llama or gpt2) but found "
                    + describe(modelValue));
        }
        boolean spm;
        switch (model) {
            case "llama" -> spm = true;
            case "gpt2" -> spm = false;
            default -> throw new GgufException(source + ": unsupported tokenizer model '" + model
                    + "': expected 'llama' (SentencePiece) or 'gpt2' (byte-level BPE)");
        }

        String[] tokens = strings(metadata, TOKENS, source, true);
        int n = tokens.length;
        if (n == 0) {
            throw new GgufException(source + ": expected a non-empty '" + TOKENS + "' array but found 0 tokens");
        }
        float[] scores = scores(metadata, n, source);
        TokenType[] types = types(metadata, n, source);
        Map<String, Integer> ids = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            if (tokens[i].isEmpty()) {
                LOG.log(Level.WARNING, "{0}: empty token at index {1}", source, i);
                tokens[i] = "[EMPTY_" + i + "]";
            }
            Integer previous = ids.putIfAbsent(tokens[i], i);
            if (previous != null) {
                throw new GgufException(source + ": expected unique token texts but '" + tokens[i] + "' has ids "
                        + previous + " and " + i);
            }
        }

        String preName = "default";
        PreTokenizer pre = null;
        boolean ignoreMerges = false;
        String[] merges = null;
        boolean addBos;
        boolean addSpacePrefix;
        int bos;
        int eos;
        if (spm) {
            bos = 1;
            eos = 2;
            addBos = true;
            addSpacePrefix = true;
            Object p = metadata.apply(PRE);
            if (p instanceof String s && !s.isEmpty()) {
                preName = s;
            }
        } else {
            merges = strings(metadata, MERGES, source, true);
            bos = 11;
            eos = 11;
            addSpacePrefix = false;
            Object p = metadata.apply(PRE);
            if (p instanceof String s && !s.isEmpty()) {
                preName = s;
            } else {
                LOG.log(Level.WARNING, "{0}: missing pre-tokenizer type, using ''default'' (generation quality will suffer)", source);
            }
            PreTokenizers.Spec spec = PreTokenizers.forName(preName);
            if (spec == null) {
                LOG.log(Level.WARNING, "{0}: unknown pre-tokenizer ''{1}'', using ''default'' (tokens may differ from llama.cpp)",
                        source, preName);
                spec = PreTokenizers.forName("default");
            }
            pre = spec.preTokenizer();
            ignoreMerges = spec.ignoreMerges();
            addBos = spec.addBos();
        }
        addSpacePrefix = bool(metadata, ADD_SPACE_PREFIX, addSpacePrefix, source);

        bos = specialId(metadata, BOS, bos, n, source);
        eos = specialId(metadata, EOS, eos, n, source);
        int eot = specialId(metadata, EOT, -1, n, source);
        int eom = specialId(metadata, EOM, -1, n, source);
        int pad = specialId(metadata, PAD, -1, n, source);
        addBos = bool(metadata, ADD_BOS, addBos, source);
        boolean addEos = bool(metadata, ADD_EOS, false, source);
        if (addBos && bos < 0) {
            throw new GgufException(source + ": '" + ADD_BOS + "' is true but the vocabulary has no BOS token ('" + BOS + "')");
        }
        if (addEos && eos < 0) {
            throw new GgufException(source + ": '" + ADD_EOS + "' is true but the vocabulary has no EOS token ('" + EOS + "')");
        }

        if (eot < 0) {
            int best = Integer.MAX_VALUE;
            for (String text : EOT_TEXTS) {
                Integer id = ids.get(text);
                if (id != null && id < best) {
                    best = id;
                }
            }
            if (best != Integer.MAX_VALUE) {
                eot = best;
            }
        }
        if (eom < 0) {
            eom = ids.getOrDefault("<|eom_id|>", -1);
        }
        Set<Integer> eog = new TreeSet<>();
        for (String text : EOG_TEXTS) {
            Integer id = ids.get(text);
            if (id != null) {
                eog.add(id);
                types[id] = TokenType.CONTROL;
            }
        }
        for (int id : new int[] {eos, eot, eom}) {
            if (id >= 0) {
                eog.add(id);
            }
        }
        if (eot >= 0) {
            types[eot] = TokenType.CONTROL;
        }
        int[] endOfGeneration = eog.stream().mapToInt(Integer::intValue).toArray();

        Object name = metadata.apply(NAME);
        Vocabulary vocabulary = new Vocabulary(model, preName, tokens, scores, types, bos, eos, eot, pad, addBos, addEos,
                addSpacePrefix, endOfGeneration);
        return new Result(vocabulary, java.util.Collections.unmodifiableMap(ids), merges, pre, ignoreMerges,
                name instanceof String s ? s : "");
    }

    private static String[] strings(Function<String, Object> metadata, String key, String source, boolean required)
            throws GgufException {
        Object v = metadata.apply(key);
        if (v instanceof String[] a) {
            return a.clone();
        }
        if (v == null && !required) {
            return null;
        }
        throw new GgufException(source + ": expected an array of strings '" + key + "' but found " + describe(v));
    }

    private static float[] scores(Function<String, Object> metadata, int n, String source) throws GgufException {
        Object v = metadata.apply(SCORES);
        float[] scores = new float[n];
        if (v == null) {
            return scores;
        }
        int length;
        if (v instanceof float[] f) {
            length = f.length;
            if (length >= n) {
                System.arraycopy(f, 0, scores, 0, n);
            }
        } else if (v instanceof int[] ints) {
            length = ints.length;
            for (int i = 0; i < Math.min(n, length); i++) {
                scores[i] = ints[i];
            }
        } else {
            throw new GgufException(source + ": expected an array of float32 '" + SCORES + "' but found " + describe(v));
        }
        if (length < n) {
            throw new GgufException(source + ": expected " + n + " scores (one per token) in '" + SCORES + "' but found " + length);
        }
        return scores;
    }

    private static TokenType[] types(Function<String, Object> metadata, int n, String source) throws GgufException {
        Object v = metadata.apply(TOKEN_TYPE);
        TokenType[] types = new TokenType[n];
        if (v == null) {
            java.util.Arrays.fill(types, TokenType.NORMAL);
            return types;
        }
        if (!(v instanceof int[] codes)) {
            throw new GgufException(source + ": expected an array of int32 '" + TOKEN_TYPE + "' but found " + describe(v));
        }
        if (codes.length < n) {
            throw new GgufException(source + ": expected " + n + " token types (one per token) in '" + TOKEN_TYPE
                    + "' but found " + codes.length);
        }
        for (int i = 0; i < n; i++) {
            types[i] = TokenType.fromGguf(codes[i]);
        }
        return types;
    }

    private static int specialId(Function<String, Object> metadata, String key, int fallback, int n, String source)
            throws GgufException {
        if (fallback >= n) {
            fallback = -1;
        }
        Object v = metadata.apply(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Number number)) {
            throw new GgufException(source + ": expected an integer '" + key + "' but found " + describe(v));
        }
        long id = number.longValue();
        if (id < 0 || id >= n) {
            LOG.log(Level.WARNING, "{0}: bad special token {1} = {2} (vocabulary has {3} tokens), using {4}",
                    source, key, id, n, fallback);
            return fallback;
        }
        return (int) id;
    }

    private static boolean bool(Function<String, Object> metadata, String key, boolean fallback, String source)
            throws GgufException {
        Object v = metadata.apply(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw new GgufException(source + ": expected a bool '" + key + "' but found " + describe(v));
    }

    private static String describe(Object v) {
        if (v == null) {
            return "nothing (key absent)";
        }
        if (v.getClass().isArray()) {
            return "an array of " + v.getClass().getComponentType().getSimpleName() + " (length "
                    + java.lang.reflect.Array.getLength(v) + ")";
        }
        return v.getClass().getSimpleName() + " " + v;
    }
}
