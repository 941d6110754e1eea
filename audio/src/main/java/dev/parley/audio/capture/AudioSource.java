package dev.parley.audio.capture;

import dev.parley.audio.PcmAudio;
import java.io.IOException;

/**
 * Where the voice loop's audio comes from: a microphone, a file, or audio pushed by the app.
 * Delivers mono 16-bit PCM at {@link #sampleRate()} in short frames.
 */
public interface AudioSource extends AutoCloseable {
    /** Sample rate of every frame this source returns. */
    int sampleRate();

    /**
     * The next frame, waiting until one is available; {@code null} once the source has ended or
     * was closed.
     */
    PcmAudio read() throws IOException, InterruptedException;

    /** Frames dropped because the consumer was too slow (0 for sources that never drop). */
    default long droppedFrames() {
        return 0;
    }

    /**
     * Tells {@code watcher} when the device behind this source fails and when it works again; sources that cannot
     * fail that way (files, pushed audio) never call it.
     */
    default void watch(dev.parley.audio.device.DeviceWatcher watcher) {
    }

    @Override
    void close() throws IOException;
}
