package dev.parley.engine.tokenizer;

/**
 * The code point classes llama.cpp's pre-tokenizers test (src/unicode.cpp flags): letter
 * (\p{L}), number (\p{N}) and whitespace (the Unicode White_Space property, as the \s of its
 * regexes and of its hand-written splitters).
 */
final class CodePointClass {

    private CodePointClass() {
    }

    static boolean isLetter(int cp) {
        return Character.isLetter(cp);
    }

    static boolean isNumber(int cp) {
        int t = Character.getType(cp);
        return t == Character.DECIMAL_DIGIT_NUMBER || t == Character.LETTER_NUMBER || t == Character.OTHER_NUMBER;
    }

    /** Unicode White_Space (PropList.txt). */
    static boolean isWhitespace(int cp) {
        return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F
                || cp == 0x3000;
    }
}
