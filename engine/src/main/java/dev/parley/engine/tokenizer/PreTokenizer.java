package dev.parley.engine.tokenizer;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits text into the words that byte-level BPE merges within: a sequence of {@link SplitRule}s,
 * each applied to every piece the previous one produced (llama.cpp's {@code unicode_regex_split}
 * with the regex list of one {@code tokenizer.ggml.pre}).
 */
final class PreTokenizer {

    private final String name;
    private final List<SplitRule> rules;

    PreTokenizer(String name, List<SplitRule> rules) {
        this.name = name;
        this.rules = List.copyOf(rules);
    }

    String name() {
        return name;
    }

    /** The pieces of {@code text}, in order; their concatenation is {@code text}. */
    List<String> split(String text) {
        List<String> pieces = new ArrayList<>();
        if (text.isEmpty()) {
            return pieces;
        }
        pieces.add(text);
        for (SplitRule rule : rules) {
            List<String> next = new ArrayList<>(pieces.size() * 2);
            for (String piece : pieces) {
                rule.split(piece, next);
            }
            pieces = next;
        }
        return pieces;
    }

    @Override
    public String toString() {
        return "PreTokenizer[" + name + ", " + rules + "]";
    }
}
