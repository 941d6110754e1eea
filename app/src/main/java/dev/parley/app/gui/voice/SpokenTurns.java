package dev.parley.app.gui.voice;

import dev.parley.audio.TurnLatency;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The app's answer to a spoken turn: shows it in the open chat, generates the reply and streams its
 * text to {@code pieces} (for speech synthesis). Same shape as the audio module's {@code Responder}, so
 * an adapter is one line. Called on the voice loop's thread; returns when the reply is complete.
 */
@FunctionalInterface
public interface SpokenTurns {
    /**
     * Answers {@code userText}.
     *
     * @return the number of the chat turn that answered (the chat service's latency record), or -1 for none
     */
    long respond(String userText, Consumer<String> pieces, BooleanSupplier cancelled) throws Exception;

    /**
     * Answers {@code userText} speculatively (the voice loop's reply started at a pause, before the end of the turn
     * is certain): the reply streams to {@code pieces} at once, but the turn is shown and stored only once
     * {@code heard} completes with true; completed with false (withdrawn), it leaves nothing behind. Returns when the
     * reply is complete, or soon after the withdrawal. Only called when {@link #speculates()}.
     *
     * @return the number of the chat turn that answered, or -1 for none (withdrawn)
     */
    default long speculate(String userText, Consumer<String> pieces, BooleanSupplier cancelled,
                           CompletionStage<Boolean> heard) throws Exception {
        throw new UnsupportedOperationException("these spoken turns cannot be answered speculatively");
    }

    /** Whether {@link #speculate} is supported (the voice loop speculates only then); false by default. */
    default boolean speculates() {
        return false;
    }

    /**
     * The voice stages the loop measured for chat turn {@code chatTurn} (speech end, final transcript,
     * first text, first audio), once its audio finished or was interrupted. Ignored by default.
     */
    default void measured(long chatTurn, TurnLatency latency) {
    }
}
