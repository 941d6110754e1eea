package dev.parley.app.gui.voice;

import java.io.IOException;
import java.util.Optional;

/**
 * The voice control when no voice loop is wired into this build: every control says why, nothing
 * pretends to listen. Replaced by the audio module's pipeline adapter once it is wired in.
 */
public final class UnavailableVoice implements VoiceControl {
    private final String reason;

    public UnavailableVoice(String reason) {
        this.reason = reason;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.of(reason);
    }

    @Override
    public void start(SpokenTurns turns, VoiceEvents events) throws IOException {
        throw new IOException("voice is unavailable: " + reason);
    }

    @Override
    public void pushToTalk(boolean pressed) {
    }

    @Override
    public void setHandsFree(boolean on) {
    }

    @Override
    public void setMuted(boolean muted) {
    }

    @Override
    public void interrupt() {
    }

    @Override
    public void close() {
    }
}
