package dev.parley.audio;

import java.util.function.Consumer;

/**
 * The side of the voice loop that thinks: produces the reply to a final transcript as a stream of
 * text pieces (tokens, words, ...). The app implements it with the language-model engine.
 * Implementations must stop soon after {@code cancel} is cancelled (barge-in) and may then return
 * normally or throw.
 */
@FunctionalInterface
public interface Responder {
    /**
     * Streams the reply to {@code userText} into {@code textPieces} (called on the responder's thread).
     */
    void respond(String userText, Consumer<String> textPieces, CancellationSignal cancel) throws Exception;
}
