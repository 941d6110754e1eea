package dev.parley.audio.playback;

import dev.parley.audio.PcmAudio;

/**
 * Hears what a sink really plays: each piece at the moment it is handed to the output device (at the sink's own
 * rate), and each stop. The echo canceller takes its render reference from here. Called on the sink's writer
 * thread (or the caller's, for unpaced sinks); must return quickly and never block.
 */
public interface PlaybackTap {
    /** {@code audio} was just handed to the device, right behind the previous piece. */
    void played(PcmAudio audio);

    /**
     * {@code audio} was just handed to the device and, by the sink's pacing clock, starts sounding at
     * {@code startsAtNanos} ({@link System#nanoTime()}); sinks without a clock call {@link #played(PcmAudio)}.
     */
    default void played(PcmAudio audio, long startsAtNanos) {
        played(audio);
    }

    /**
     * Playback was cut ({@link AudioSink#stopNow()}): what was handed before but had not sounded yet was flushed
     * from the device. Nothing dropped by the stop reaches {@link #played} afterwards.
     */
    default void flushed() {
    }

    /** A tap that hears nothing. */
    PlaybackTap NONE = audio -> {
    };
}
