package dev.parley.engine.tokenizer;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pre-tokenizer step given by a regular expression: matches and the gaps between them become
 * pieces. As in llama.cpp, the regex sees non-ASCII whitespace as U+000B (so {@code \s} means
 * Unicode White_Space and literal ranges never match such spaces), and it sees only the current
 * piece (look-ahead stops at the piece's end). {@code \s} here is Unicode-aware.
 */
final class RegexSplitRule implements SplitRule {

    private final Pattern pattern;

    RegexSplitRule(String regex) {
        this.pattern = Pattern.compile(regex, Pattern.UNICODE_CHARACTER_CLASS);
    }

    @Override
    public void split(String piece, List<String> out) {
        Matcher m = pattern.matcher(shadow(piece));
        int last = 0;
        while (m.find()) {
            if (m.end() == m.start()) {
                continue;
            }
            if (m.start() > last) {
                out.add(piece.substring(last, m.start()));
            }
            out.add(piece.substring(m.start(), m.end()));
            last = m.end();
        }
        if (last < piece.length()) {
            out.add(piece.substring(last));
        }
    }

    /** The piece with every non-ASCII whitespace replaced by U+000B (same UTF-16 length: all such spaces are BMP). */
    private static String shadow(String piece) {
        char[] chars = null;
        for (int i = 0; i < piece.length(); i++) {
            char c = piece.charAt(i);
            if (c > 0x7F && CodePointClass.isWhitespace(c)) {
                if (chars == null) {
                    chars = piece.toCharArray();
                }
                chars[i] = '\u000B';
            }
        }
        return chars == null ? piece : new String(chars);
    }

    @Override
    public String toString() {
        return pattern.pattern();
    }
}
