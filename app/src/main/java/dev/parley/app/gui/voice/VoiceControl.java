package dev.parley.app.gui.voice;

import java.io.IOException;
import java.util.Optional;

/**
 * The seam between the voice controls and a voice loop (capture, recognition, reply, speech). The
 * audio module's {@code VoicePipeline} is adapted to it: push-to-talk maps to {@code pushToTalk},
 * a barge-in or the stop button to {@code interrupt}, its listener to {@link VoiceEvents} and its
 * responder to {@link SpokenTurns}.
 */
public interface VoiceControl extends AutoCloseable {

    /** Why voice cannot be used here, or empty when it can. */
    Optional<String> unavailableReason();

    /** Starts capturing (may take seconds: not on the UI thread); spoken turns go to {@code turns}, live state to {@code events}. */
    void start(SpokenTurns turns, VoiceEvents events) throws IOException;

    /** Push-to-talk pressed (start of an utterance) or released (its end). */
    void pushToTalk(boolean pressed);

    /** Hands-free: turns end on silence instead of on push-to-talk release (may restart the loop: not on the UI thread). */
    void setHandsFree(boolean on) throws IOException;

    /** Mute: the microphone's frames are dropped while on. */
    void setMuted(boolean muted);

    /** Adopts new devices, model or timing (restarting a running loop); may block, so not on the UI thread. */
    default void apply(VoiceOptions options) throws IOException {
    }

    /** Stops Parley speaking and cancels the reply (barge-in). */
    void interrupt();

    /** The echo canceller's live figures while the loop runs; never blocks (the dashboard asks at 4 Hz). */
    default java.util.Optional<dev.parley.audio.frontend.FrontEndStats> frontEndStats() {
        return java.util.Optional.empty();
    }

    @Override
    void close();
}
