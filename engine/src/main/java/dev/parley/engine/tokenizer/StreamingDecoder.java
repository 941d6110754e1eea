package dev.parley.engine.tokenizer;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns generated token ids into text as they arrive, emitting only complete UTF-8 characters:
 * when a character's bytes are spread over several tokens (byte-fallback or byte-level pieces),
 * the incomplete tail is held back until the rest arrives. Bytes that can never form a character
 * become U+FFFD as soon as that is certain; {@link #flush()} turns an unfinished tail into
 * U+FFFD at the end. The concatenation of all outputs equals {@link Tokenizer#decode(int[])} of
 * the same ids (one leading space of the first piece dropped for space-prefix vocabularies).
 *
 * <p>Not thread-safe: one decoder per generated sequence.
 */
public final class StreamingDecoder {

    private final Tokenizer tokenizer;
    private final boolean renderSpecial;
    private final boolean stripFirstSpace;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private byte[] pending = new byte[0];
    private boolean first = true;

    /** A decoder that renders special tokens as their text, like {@link Tokenizer#decode(int[])}. */
    public StreamingDecoder(Tokenizer tokenizer) {
        this(tokenizer, true);
    }

    /** A decoder; with {@code renderSpecial = false}, CONTROL and UNKNOWN tokens produce no text. */
    public StreamingDecoder(Tokenizer tokenizer, boolean renderSpecial) {
        this(tokenizer, renderSpecial, true);
    }

    /**
     * A decoder. {@code stripFirstSpace} drops one leading space of the first piece when the
     * vocabulary adds a space prefix (right for a reply that starts fresh text, as {@code decode}
     * does); pass false when the ids continue text already shown (a completion), so that
     * {@code "▁brown"} after {@code "The quick"} keeps its space.
     */
    public StreamingDecoder(Tokenizer tokenizer, boolean renderSpecial, boolean stripFirstSpace) {
        this.tokenizer = java.util.Objects.requireNonNull(tokenizer, "tokenizer");
        this.renderSpecial = renderSpecial;
        this.stripFirstSpace = stripFirstSpace;
    }

    /** Adds one token; returns the text that is now complete (possibly empty). */
    public String push(int id) {
        TokenType type = tokenizer.vocabulary().type(id);
        if (!renderSpecial && (type == TokenType.CONTROL || type == TokenType.UNKNOWN)) {
            return "";
        }
        byte[] piece = tokenizer.pieceBytes(id);
        int from = 0;
        if (first && piece.length > 0) {
            if (stripFirstSpace && tokenizer.vocabulary().addSpacePrefix() && piece[0] == ' ') {
                from = 1;
            }
        }
        first = false;
        byte[] all = Arrays.copyOf(pending, pending.length + piece.length - from);
        System.arraycopy(piece, from, all, pending.length, piece.length - from);
        return decode(all, false);
    }

    /** Ends the stream: returns what is held back, with U+FFFD for an unfinished character. */
    public String flush() {
        byte[] rest = pending;
        pending = new byte[0];
        return rest.length == 0 ? "" : decode(rest, true);
    }

    /** Bytes held back because they may start a character that later tokens complete. */
    public int pendingBytes() {
        return pending.length;
    }

    private String decode(byte[] bytes, boolean endOfInput) {
        utf8.reset();
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult result = utf8.decode(in, out, endOfInput);
        if (result.isError()) {
            throw new IllegalStateException("UTF-8 decoding failed: " + result);
        }
        if (endOfInput) {
            utf8.flush(out);
        }
        pending = Arrays.copyOfRange(bytes, in.position(), bytes.length);
        out.flip();
        return out.toString();
    }
}
