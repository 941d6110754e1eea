package dev.parley.engine.tokenizer;

import java.util.List;

/**
 * The Llama 3 pre-tokenizer regex
 * {@code (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+}
 * as a single scan with llama.cpp's decisions ({@code unicode_regex_split_custom_llama3}):
 * case-insensitive contractions, digits in groups of at most three from the left.
 */
final class Llama3SplitRule implements SplitRule {

    @Override
    public void split(String piece, List<String> out) {
        CodePointScanner s = new CodePointScanner(piece, out);
        int n = s.length();
        int pos = 0;
        while (pos < n) {
            int cpt = s.cp(pos);
            if (cpt == '\'' && pos + 1 < n) {
                int next = Character.toLowerCase(s.cp(pos + 1));
                if (next == 's' || next == 't' || next == 'm' || next == 'd') {
                    pos += s.emit(pos + 2);
                    continue;
                }
                if (pos + 2 < n) {
                    int next2 = Character.toLowerCase(s.cp(pos + 2));
                    if ((next == 'r' && next2 == 'e') || (next == 'v' && next2 == 'e') || (next == 'l' && next2 == 'l')) {
                        pos += s.emit(pos + 3);
                        continue;
                    }
                }
            }
            // [^\r\n\p{L}\p{N}]?\p{L}+
            if (!(cpt == '\r' || cpt == '\n' || s.number(pos))) {
                if (s.letter(pos) || s.letter(pos + 1)) {
                    pos++;
                    while (s.letter(pos)) {
                        pos++;
                    }
                    s.emit(pos);
                    continue;
                }
            }
            // \p{N}{1,3}
            if (s.number(pos)) {
                int start = pos;
                while (s.number(pos)) {
                    if (++pos - start >= 3) {
                        s.emit(pos);
                        start = pos;
                    }
                }
                s.emit(pos);
                continue;
            }
            // " ?[^\s\p{L}\p{N}]+[\r\n]*"; a lone space at the end of the piece also lands here, as in llama.cpp
            int probe = cpt == ' ' ? pos + 1 : pos;
            if (!(s.whitespace(probe) || s.letter(probe) || s.number(probe))) {
                pos = probe;
                while (s.other(pos)) {
                    pos++;
                }
                while (s.cp(pos) == '\r' || s.cp(pos) == '\n') {
                    pos++;
                }
                s.emit(pos);
                continue;
            }
            int spaces = 0;
            int afterLastNewline = 0;
            while (s.whitespace(pos + spaces)) {
                int c = s.cp(pos + spaces);
                if (c == '\r' || c == '\n') {
                    afterLastNewline = pos + spaces + 1;
                }
                spaces++;
            }
            if (afterLastNewline > 0) {
                pos = afterLastNewline;
                s.emit(pos);
                continue;
            }
            if (spaces > 1 && s.inRange(pos + spaces)) {
                pos += spaces - 1;
                s.emit(pos);
                continue;
            }
            if (spaces > 0) {
                pos += spaces;
                s.emit(pos);
                continue;
            }
            s.emit(++pos);
        }
    }
}
