package dev.parley.audio.vad;

/**
 * Hysteresis of the {@link SileroVad} over its per-window speech probability (one window = 512 samples, 32 ms at
 * 16 kHz). Speech starts once windows stay at or above {@code startThreshold} for {@code minSpeechMillis}; it ends
 * once windows stay below {@code endThreshold} for {@code minSilenceMillis} (the hangover). Durations are counted in
 * samples of the audio fed, not wall-clock time, and rounded up to whole windows.
 *
 * @param startThreshold   probability at or above which a window counts towards the start of speech, (0, 1]
 * @param endThreshold     probability below which a window in speech counts as silence, [0, startThreshold]
 * @param minSpeechMillis  how long the probability must stay at or above {@code startThreshold} before speech starts
 * @param minSilenceMillis how long it must stay below {@code endThreshold} before speech ends
 */
public record SileroVadSettings(double startThreshold, double endThreshold, int minSpeechMillis,
                                int minSilenceMillis) {
    /** 16 kHz, the only rate the model is run at. */
    public static final int SAMPLE_RATE = 16_000;
    /** Samples per model window at 16 kHz. */
    public static final int WINDOW = 512;

    public SileroVadSettings {
        if (!(startThreshold > 0 && startThreshold <= 1)) {
            throw new IllegalArgumentException("expected a start threshold in (0, 1] but found " + startThreshold);
        }
        if (!(endThreshold >= 0 && endThreshold <= startThreshold)) {
            throw new IllegalArgumentException("expected an end threshold in [0, start threshold " + startThreshold
                    + "] but found " + endThreshold);
        }
        if (minSpeechMillis < 0 || minSpeechMillis > 10_000 || minSilenceMillis < 0 || minSilenceMillis > 10_000) {
            throw new IllegalArgumentException("expected minimum speech and silence of 0..10000 ms but found "
                    + minSpeechMillis + " ms and " + minSilenceMillis + " ms");
        }
    }

    /**
     * For a voice assistant (docs/audio.md explains each): start at 0.5 and end below 0.35 (Silero's own threshold
     * and its usual 0.15 gap, so a probability hovering near one value does not flap); 160 ms (5 windows) at or above
     * the start threshold before speech starts (a knock on a desk held the probability above 0.8 for up to 4 windows
     * in the tests; a syllable holds it longer, so a barge-in is still decided about 200 ms after its onset); 256 ms
     * (8 windows) below the end threshold before speech ends (longer than the dips between words and inside
     * plosives, short enough that the listen loop's own end-of-turn silence still decides when a turn is over).
     */
    public static SileroVadSettings defaults() {
        return new SileroVadSettings(0.5, 0.35, 160, 256);
    }

    /** {@link #minSpeechMillis} in samples at 16 kHz. */
    public long minSpeechSamples() {
        return (long) minSpeechMillis * SAMPLE_RATE / 1000;
    }

    /** {@link #minSilenceMillis} in samples at 16 kHz. */
    public long minSilenceSamples() {
        return (long) minSilenceMillis * SAMPLE_RATE / 1000;
    }

    public SileroVadSettings withThresholds(double start, double end) {
        return new SileroVadSettings(start, end, minSpeechMillis, minSilenceMillis);
    }

    public SileroVadSettings withDurations(int minSpeech, int minSilence) {
        return new SileroVadSettings(startThreshold, endThreshold, minSpeech, minSilence);
    }
}
