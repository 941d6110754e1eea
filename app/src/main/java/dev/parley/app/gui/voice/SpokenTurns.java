package dev.parley.app.gui.voice;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The app's answer to a spoken turn: shows it in the open chat, generates the reply and streams its
 * text to {@code pieces} (for speech synthesis). Same shape as the audio module's {@code Responder}, so
 * an adapter is one line. Called on the voice loop's thread; returns when the reply is complete.
 */
@FunctionalInterface
public interface SpokenTurns {
    void respond(String userText, Consumer<String> pieces, BooleanSupplier cancelled) throws Exception;
}
