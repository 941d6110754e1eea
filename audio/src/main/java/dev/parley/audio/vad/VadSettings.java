package dev.parley.audio.vad;

/**
 * Energy voice-activity detection with hysteresis: speech starts when frames stay at or above
 * {@code startDbfs} for {@code minSpeechMillis}, and ends when frames stay below {@code stopDbfs}
 * for {@code hangoverMillis}.
 */
public record VadSettings(double startDbfs, double stopDbfs, int minSpeechMillis, int hangoverMillis) {
    public VadSettings {
        if (stopDbfs > startDbfs) {
            throw new IllegalArgumentException("expected the stop threshold (" + stopDbfs
                    + " dBFS) at or below the start threshold (" + startDbfs + " dBFS)");
        }
        if (minSpeechMillis < 0 || hangoverMillis < 0) {
            throw new IllegalArgumentException("expected non-negative durations but found " + minSpeechMillis
                    + " ms and " + hangoverMillis + " ms");
        }
    }

    /** -36 dBFS to start, -46 dBFS to stop, 100 ms minimum speech, 250 ms hangover. */
    public static VadSettings defaults() {
        return new VadSettings(-36, -46, 100, 250);
    }
}
