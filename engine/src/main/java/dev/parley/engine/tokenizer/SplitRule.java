package dev.parley.engine.tokenizer;

import java.util.List;

/**
 * One step of a pre-tokenizer: cuts one piece of text into consecutive sub-pieces that together
 * give back the piece (matches and the gaps between them are both kept, as llama.cpp's
 * {@code unicode_regex_split} does).
 */
interface SplitRule {

    /** Appends the sub-pieces of {@code piece} (never empty strings) to {@code out}. */
    void split(String piece, List<String> out);
}
