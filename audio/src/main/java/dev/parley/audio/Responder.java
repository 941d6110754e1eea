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

    /**
     * Streams a speculative reply: as {@link #respond}, for a turn whose end is not certain yet. {@code heard}
     * completes with true when the end of the turn had the same words (the reply is heard), or with false when the
     * user went on speaking: then {@code cancel} is cancelled and {@link #retract()} follows once this returned.
     * It may complete before, while or after this runs (on the listening thread). A responder that shows or stores
     * turns does so only once heard. By default the same as {@link #respond}.
     */
    default void respondSpeculatively(String userText, Consumer<String> textPieces, CancellationSignal cancel,
                                      java.util.concurrent.CompletionStage<Boolean> heard) throws Exception {
        respond(userText, textPieces, cancel);
    }

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
