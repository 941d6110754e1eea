package dev.parley.audio.frontend;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The front end that changes nothing: the fallback where WebRTC's library cannot load, and what "all off" means.
 * It cancels no echo, so the voice loop stays half-duplex with it.
 */
public final class PassThroughFrontEnd implements AudioFrontEnd {
    private final String description;
    private final AtomicLong frames = new AtomicLong();

    /** @param description why nothing is processed, e.g. "front end off" or the library's load failure */
    public PassThroughFrontEnd(String description) {
        this.description = description;
    }

    @Override
    public PcmAudio process(PcmAudio captured) {
        frames.addAndGet(captured.length() / FRAME_SAMPLES);
        return captured;
    }

    @Override
    public void played(PcmAudio audio) {
        // no echo canceller to feed
    }

    @Override
    public boolean cancelsEcho() {
        return false;
    }

    @Override
    public boolean echoConverged() {
        return false;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public double renderLevelDbfs() {
        return LevelMeter.SILENCE_DBFS;
    }

    @Override
    public FrontEndStats stats() {
        return FrontEndStats.inactive(frames.get());
    }

    @Override
    public void close() {
        // nothing native
    }
}
