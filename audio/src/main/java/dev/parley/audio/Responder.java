package dev.parley.audio;

import java.util.function.Consumer;

/**
 * The side of the voice loop that thinks: produces the reply to a final transcript as a stream of
 * text pieces (tokens, words, ...). The app implements it with the language-model engine.
 * Implementations must stop soon after {@code cancel} is cancelled (barge-in) and may then return
 * normally or throw.
 *
 * <p>A responder that can {@link #retract()} its last exchange lets the loop start replying
 * speculatively, before the end-of-turn silence is over (see {@link VoiceSettings#speculateAfterMillis()}).
 */
@FunctionalInterface
public interface Responder {
    /**
     * Streams the reply to {@code userText} into {@code textPieces} (called on the responder's thread).
     */
    void respond(String userText, Consumer<String> textPieces, CancellationSignal cancel) throws Exception;

    /** Whether {@link #retract()} is supported (the loop only speculates then). */
    default boolean canRetract() {
        return false;
    }

    /**
     * Forgets the last exchange as if it never happened: the user went on speaking after the loop had
     * started a speculative reply (cancelled before anything was heard). Called on the responder's
     * thread, after {@link #respond} returned and before the next one.
     */
    default void retract() {
        throw new UnsupportedOperationException("this responder cannot retract a reply");
    }
}
