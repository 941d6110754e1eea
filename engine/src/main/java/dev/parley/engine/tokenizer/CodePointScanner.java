package dev.parley.engine.tokenizer;

import java.util.List;

/**
 * Shared state of llama.cpp's hand-written splitters: the piece as code points, a cursor over
 * them, and {@link #emit(int)} which closes the current sub-piece. Positions outside the piece
 * read as "no code point" ({@link #NONE}), which belongs to no class.
 */
final class CodePointScanner {

    static final int NONE = -1;

    private final String piece;
    private final int[] cps;
    private final int[] utf16Offsets;
    private final List<String> out;
    private int prevEnd;

    CodePointScanner(String piece, List<String> out) {
        this.piece = piece;
        this.cps = piece.codePoints().toArray();
        this.utf16Offsets = new int[cps.length + 1];
        for (int i = 0, off = 0; i < cps.length; i++) {
            utf16Offsets[i] = off;
            off += Character.charCount(cps[i]);
            utf16Offsets[i + 1] = off;
        }
        this.out = out;
    }

    int length() {
        return cps.length;
    }

    int cp(int pos) {
        return pos >= 0 && pos < cps.length ? cps[pos] : NONE;
    }

    boolean inRange(int pos) {
        return pos >= 0 && pos < cps.length;
    }

    boolean letter(int pos) {
        return inRange(pos) && CodePointClass.isLetter(cps[pos]);
    }

    boolean number(int pos) {
        return inRange(pos) && CodePointClass.isNumber(cps[pos]);
    }

    boolean whitespace(int pos) {
        return inRange(pos) && CodePointClass.isWhitespace(cps[pos]);
    }

    /** In range and neither whitespace, letter nor number: the class [^\s\p{L}\p{N}]. */
    boolean other(int pos) {
        return inRange(pos) && !whitespace(pos) && !letter(pos) && !number(pos);
    }

    /** Ends the current sub-piece at {@code end} (code point index); returns its length in code points. */
    int emit(int end) {
        int len = end - prevEnd;
        if (len > 0) {
            out.add(piece.substring(utf16Offsets[prevEnd], utf16Offsets[end]));
        }
        prevEnd = end;
        return len;
    }
}
