package dev.parley.app.gui.voice;

import dev.parley.audio.TurnLatency;
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
     * The voice stages the loop measured for chat turn {@code chatTurn} (speech end, final transcript,
     * first text, first audio), once its audio finished or was interrupted. Ignored by default.
     */
    default void measured(long chatTurn, TurnLatency latency) {
    }
}
