package dev.parley.engine.tokenizer;

import dev.parley.engine.gguf.GgufException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Small tokenizers built in memory, for tests that must run without ../shared (fuzzing, CI): a
 * SentencePiece vocabulary with all 256 byte-fallback tokens and a byte-level BPE vocabulary with
 * merges for a few English words, each with control and user-defined special tokens. They go
 * through the same loader as a GGUF file's metadata.
 */
final class GeneratedVocabularies {

    /** Words whose pieces (SentencePiece) or merges (BPE) the vocabularies hold; a few non-ASCII ones. */
    static final List<String> WORDS = List.of("the", "hello", "world", "in", "ing", "and", "is", "it", "you",
            "there", "here", "what", "don't", "I'm", "café", "naïve", "日本", "123", "  ", "\n\n");

    private GeneratedVocabularies() {
    }

    /** A SentencePiece ({@code llama}) tokenizer: unk, BOS, EOS, 256 byte tokens, single characters and words. */
    static Tokenizer sentencePiece() {
        Set<String> pieces = new LinkedHashSet<>();
        List<Integer> types = new ArrayList<>();
        addTyped(pieces, types, "<unk>", 2);
        addTyped(pieces, types, "<s>", 3);
        addTyped(pieces, types, "</s>", 3);
        for (int b = 0; b < 256; b++) {
            addTyped(pieces, types, String.format("<0x%02X>", b), 6);
        }
        addTyped(pieces, types, "<|user|>", 4);
        addTyped(pieces, types, "\u2581", 1);
        for (char c = ' ' + 1; c < 0x7F; c++) {
            addTyped(pieces, types, String.valueOf(c), 1);
        }
        for (String w : WORDS) {
            String spm = w.replace(' ', '\u2581');
            for (int end = 1; end <= spm.length(); end++) {
                addTyped(pieces, types, spm.substring(0, end), 1);
                addTyped(pieces, types, "\u2581" + spm.substring(0, end), 1);
            }
        }
        String[] tokens = pieces.toArray(String[]::new);
        float[] scores = new float[tokens.length];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = types.get(i) == 1 ? -i : 0f; // longer pieces come later: a mix of scores
        }
        Map<String, Object> m = new HashMap<>();
        m.put(VocabularyLoader.MODEL, "llama");
        m.put(VocabularyLoader.TOKENS, tokens);
        m.put(VocabularyLoader.SCORES, scores);
        m.put(VocabularyLoader.TOKEN_TYPE, types.stream().mapToInt(Integer::intValue).toArray());
        return load(m);
    }

    /**
     * A byte-level BPE ({@code gpt2}) tokenizer with pre-tokenizer {@code pre} (for example {@code default},
     * {@code llama-bpe}, {@code qwen2}): the 256 byte characters, merges that build each word and its
     * space-prefixed form left to right, and three control tokens.
     */
    static Tokenizer bytePairs(String pre) {
        ByteUnicodeMapping bytes = new ByteUnicodeMapping();
        Set<String> tokens = new LinkedHashSet<>();
        for (int b = 0; b < 256; b++) {
            tokens.add(String.valueOf(bytes.encode(b)));
        }
        Set<String> merges = new LinkedHashSet<>();
        for (String w : WORDS) {
            for (String form : new String[] {w, " " + w}) {
                String mapped = bytes.encodeUtf8(form);
                String left = mapped.substring(0, 1);
                for (int i = 1; i < mapped.length(); i++) {
                    String right = mapped.substring(i, i + 1);
                    merges.add(left + " " + right);
                    left = left + right;
                    tokens.add(left);
                }
            }
        }
        int normal = tokens.size();
        tokens.add("<|endoftext|>");
        tokens.add("<|im_start|>");
        tokens.add("<|im_end|>");
        int[] types = new int[tokens.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = i < normal ? 1 : 3;
        }
        Map<String, Object> m = new HashMap<>();
        m.put(VocabularyLoader.MODEL, "gpt2");
        m.put(VocabularyLoader.PRE, pre);
        m.put(VocabularyLoader.TOKENS, tokens.toArray(String[]::new));
        m.put(VocabularyLoader.MERGES, merges.toArray(String[]::new));
        m.put(VocabularyLoader.TOKEN_TYPE, types);
        m.put(VocabularyLoader.BOS, normal);
        m.put(VocabularyLoader.EOS, normal);
        return load(m);
    }

    private static void addTyped(Set<String> pieces, List<Integer> types, String piece, int type) {
        if (pieces.add(piece)) {
            types.add(type);
        }
    }

    private static Tokenizer load(Map<String, Object> metadata) {
        try {
            return Tokenizers.fromMetadata(metadata::get, "generated");
        } catch (GgufException e) {
            throw new UncheckedIOException(e);
        }
    }
}
