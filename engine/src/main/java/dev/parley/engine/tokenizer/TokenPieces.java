package dev.parley.engine.tokenizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

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

    /**
     * The bytes of every token's piece: special and user-defined tokens as their UTF-8 text, byte
     * tokens as their byte, unused tokens as nothing, and normal tokens as {@code normal} decodes
     * them (the one part that differs between SentencePiece and byte-level BPE vocabularies).
     */
    static byte[][] table(Vocabulary vocabulary, Function<String, byte[]> normal) {
        byte[][] pieces = new byte[vocabulary.size()][];
        for (int id = 0; id < pieces.length; id++) {
            String text = vocabulary.token(id);
            TokenType type = vocabulary.type(id);
            pieces[id] = type == null ? new byte[0] : switch (type) {
                case CONTROL, UNKNOWN, USER_DEFINED -> text.getBytes(StandardCharsets.UTF_8);
                case NORMAL -> normal.apply(text);
                case BYTE -> new byte[] {byteOf(text)};
                case UNUSED -> new byte[0];
            };
        }
        return pieces;
    }

    /** A copy of token {@code id}'s piece from a {@link #table}, with a clear error for a bad id. */
    static byte[] copy(byte[][] pieces, int id) {
        if (id < 0 || id >= pieces.length) {
            throw new IndexOutOfBoundsException("expected a token id in [0, " + pieces.length + ") but found " + id);
        }
        return pieces[id].clone();
    }

    /** The byte value of a {@code <0xXX>} token. */
    static byte byteOf(String text) {
        if (text.length() == 6 && text.startsWith("<0x") && text.endsWith(">")) {
            return (byte) Integer.parseInt(text.substring(3, 5), 16);
        }
        throw new IllegalArgumentException("expected a byte token like <0x0A> but found '" + text + "'");
    }
}
