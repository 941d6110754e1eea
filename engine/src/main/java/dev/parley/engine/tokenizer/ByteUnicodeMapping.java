package dev.parley.engine.tokenizer;

/**
 * GPT-2's reversible map between the 256 byte values and printable code points: bytes that are
 * printable Latin-1 ({@code !..~}, {@code ¡..¬}, {@code ®..ÿ}) map to themselves, the other 68 to
 * U+0100.. in byte order. Byte-level BPE vocabularies spell every token with these characters.
 */
final class ByteUnicodeMapping {

    private static final int MAX_CHAR = 0x100 + 68;

    private final char[] byteToChar = new char[256];
    private final int[] charToByte = new int[MAX_CHAR];

    ByteUnicodeMapping() {
        java.util.Arrays.fill(charToByte, -1);
        int extra = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            char c = printable ? (char) b : (char) (0x100 + extra++);
            byteToChar[b] = c;
            charToByte[c] = b;
        }
    }

    /** The character that stands for byte {@code b} (0..255). */
    char encode(int b) {
        return byteToChar[b & 0xFF];
    }

    /** The byte that {@code c} stands for, or -1 when {@code c} is not one of the 256 mapped characters. */
    int decode(int c) {
        return c >= 0 && c < MAX_CHAR ? charToByte[c] : -1;
    }

    /** The UTF-8 bytes of {@code text}, each written as its mapped character. */
    String encodeUtf8(String text) {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        char[] out = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = byteToChar[bytes[i] & 0xFF];
        }
        return new String(out);
    }
}
