package dev.parley.audio.vad;

import dev.parley.audio.PcmAudio;

/**
 * Voice activity over mono 16-bit frames of any length: says when speech starts and ends. Used for the start of
 * a user's turn, its end and barge-in. Time is counted in samples, not wall-clock, so a detector behaves the same
 * on live and file input. Implementations: {@link EnergyVad} (the reference and the fallback) and the neural
 * Silero VAD. Not thread-safe: one detector per audio stream.
 */
public interface VoiceActivityDetector extends AutoCloseable {
    /** Feeds one frame and says whether speech started or ended with it. */
    VadEvent process(PcmAudio frame);

    /** Whether speech is in progress. */
    boolean inSpeech();

    /** How sure the detector was that the latest audio it judged is speech, 0..1. */
    double lastProbability();

    /** Forgets the current state (a new stream begins). */
    void reset();

    /** A short name for settings and logs, such as "energy" or "silero". */
    String name();

    /** Frees native resources; the default has none. */
    @Override
    default void close() {
    }
}
