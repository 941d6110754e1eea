package dev.parley.engine.tokenizer;

import java.util.List;

/**
 * The GPT-2 pre-tokenizer regex
 * {@code 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+}
 * as a single left-to-right scan, with the same decisions as llama.cpp's
 * {@code unicode_regex_split_custom_gpt2} (contractions are case-sensitive; a whitespace run
 * followed by a non-space gives up its last character to the next piece).
 */
final class Gpt2SplitRule implements SplitRule {

    @Override
    public void split(String piece, List<String> out) {
        CodePointScanner s = new CodePointScanner(piece, out);
        int n = s.length();
        int pos = 0;
        while (pos < n) {
            int cpt = s.cp(pos);
            if (cpt == '\'' && pos + 1 < n) {
                int next = s.cp(pos + 1);
                if (next == 's' || next == 't' || next == 'm' || next == 'd') {
                    pos += s.emit(pos + 2);
                    continue;
                }
                if (pos + 2 < n) {
                    int next2 = s.cp(pos + 2);
                    if ((next == 'r' && next2 == 'e') || (next == 'v' && next2 == 'e') || (next == 'l' && next2 == 'l')) {
                        pos += s.emit(pos + 3);
                        continue;
                    }
                }
            }
            int probe = cpt == ' ' ? pos + 1 : pos;
            if (s.letter(probe)) {
                pos = probe;
                while (s.letter(pos)) {
                    pos++;
                }
                s.emit(pos);
                continue;
            }
            if (s.number(probe)) {
                pos = probe;
                while (s.number(pos)) {
                    pos++;
                }
                s.emit(pos);
                continue;
            }
            if (s.other(probe)) {
                pos = probe;
                while (s.other(pos)) {
                    pos++;
                }
                s.emit(pos);
                continue;
            }
            int spaces = 0;
            while (s.whitespace(pos + spaces)) {
                spaces++;
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
