package dev.parley.audio.playback;

import dev.parley.audio.PcmAudio;
import java.io.IOException;

/**
 * Where synthesized speech goes: a speaker or a file. Audio is queued and played in order without
 * overlaps or gaps; {@link #stopNow()} is the barge-in path.
 */
public interface AudioSink extends AutoCloseable {
    /** Queues audio behind what is already queued; may block while the queue is full. */
    void play(PcmAudio audio) throws InterruptedException;

    /**
     * Queues a callback that runs (on the sink's thread) once everything queued before it has been
     * played out; callbacks dropped by {@link #stopNow()} run at once on the caller's thread.
     */
    void mark(Runnable callback) throws InterruptedException;

    /** Stops playback at once: flushes the device and drops everything queued. */
    void stopNow();

    /** Whether audio is queued or still sounding. */
    boolean isPlaying();

    /** Total samples handed to the device so far (at the sink's own rate). */
    long samplesWritten();

    /**
     * Hands every piece to {@code tap} at the moment it goes to the device, and each stop ({@link PlaybackTap}); one
     * tap at a time, {@link PlaybackTap#NONE} removes it.
     */
    void tap(PlaybackTap tap);

    /**
     * Holds playback where it is (a possible barge-in is being checked): queued audio stays queued and nothing new
     * goes to the device until {@link #resume()}; what was already handed to the device (at most one lead, tens of
     * ms) plays out. Unpaced sinks ignore it.
     */
    default void pause() {
    }

    /** Continues after {@link #pause()} from where playback was held. */
    default void resume() {
    }

    /** Whether playback is held by {@link #pause()}. */
    default boolean isPaused() {
        return false;
    }

    /**
     * Tells {@code watcher} when the output device fails and when it works again; sinks that cannot fail that way
     * (files) never call it.
     */
    default void watch(dev.parley.audio.device.DeviceWatcher watcher) {
    }

    @Override
    void close() throws IOException;
}
