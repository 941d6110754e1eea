package dev.parley.engine.tokenizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Helpers shared by the decoders: joining pieces to text and reading {@code <0xXX>} byte tokens. */
final class TokenPieces {

    private TokenPieces() {
    }

    /**
     * The UTF-8 text of the pieces of {@code ids} (special tokens as their text); with
     * {@code stripFirstSpace}, one leading space of the first piece is dropped, as llama.cpp's
     * detokenizer does for vocabularies that add a space prefix.
     */
    static String join(Tokenizer tokenizer, int[] ids, boolean stripFirstSpace) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(ids.length * 4);
        for (int i = 0; i < ids.length; i++) {
            byte[] piece = tokenizer.pieceBytes(ids[i]);
            int from = i == 0 && stripFirstSpace && piece.length > 0 && piece[0] == ' ' ? 1 : 0;
            out.write(piece, from, piece.length - from);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The byte value of a {@code <0xXX>} token. */
    static byte byteOf(String text) {
        if (text.length() == 6 && text.startsWith("<0x") && text.endsWith(">")) {
            return (byte) Integer.parseInt(text.substring(3, 5), 16);
        }
        throw new IllegalArgumentException("expected a byte token like <0x0A> but found '" + text + "'");
    }
}
