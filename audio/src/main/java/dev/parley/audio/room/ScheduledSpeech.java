package dev.parley.audio.room;

/**
 * A recording the simulated user says into a {@link VirtualRoom}: when it starts on the room's
 * clock, where the speech in it begins (its onset, after any leading silence and the path to the
 * microphone), where the voice in it ends and when the recording ends, all as {@link System#nanoTime()} values.
 *
 * @param label      what was said (for reports)
 * @param startNanos first sample at the microphone
 * @param onsetNanos first active frame of the speech at the microphone
 * @param voiceEndNanos where the user stopped talking: the end of the dry recording's last active frame, once the
 *                   direct path has brought it to the microphone (the room's reverberation rings on after it; a
 *                   turn cannot end before it)
 * @param endNanos   one past the last sample at the microphone
 */
public record ScheduledSpeech(String label, long startNanos, long onsetNanos, long voiceEndNanos, long endNanos) {
    /** Whether {@code nanos} lies within the recording, extended by {@code afterMillis}. */
    public boolean covers(long nanos, long afterMillis) {
        return nanos >= startNanos && nanos <= endNanos + afterMillis * 1_000_000L;
    }
}
