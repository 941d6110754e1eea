package dev.parley.audio.room;

/**
 * A recording the simulated user says into a {@link VirtualRoom}: when it starts on the room's
 * clock, where the speech in it begins (its onset, after any leading silence and the path to the
 * microphone) and when it ends, all as {@link System#nanoTime()} values.
 *
 * @param label      what was said (for reports)
 * @param startNanos first sample at the microphone
 * @param onsetNanos first active frame of the speech at the microphone
 * @param endNanos   one past the last sample at the microphone
 */
public record ScheduledSpeech(String label, long startNanos, long onsetNanos, long endNanos) {
    /** Whether {@code nanos} lies within the recording, extended by {@code afterMillis}. */
    public boolean covers(long nanos, long afterMillis) {
        return nanos >= startNanos && nanos <= endNanos + afterMillis * 1_000_000L;
    }
}
