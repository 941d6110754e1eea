package dev.parley.audio.frontend;

/**
 * What the audio front end does to each captured frame.
 *
 * @param echoCanceller     what removes the speaker's sound from the microphone (needed for full duplex), or
 *                          {@link EchoCanceller#OFF}
 * @param noiseSuppression  stationary noise suppression level, or {@link NoiseSuppression#OFF}
 * @param highPassFilter    removes rumble below about 80 Hz
 * @param gainControl       adaptive digital gain (AGC2) towards a steady speech level
 */
public record FrontEndSettings(EchoCanceller echoCanceller, NoiseSuppression noiseSuppression, boolean highPassFilter,
                               boolean gainControl) {
    public FrontEndSettings {
        if (echoCanceller == null) {
            throw new IllegalArgumentException("expected an echo canceller (OFF for none) but found null");
        }
        if (noiseSuppression == null) {
            throw new IllegalArgumentException("expected a noise suppression level (OFF for none) but found null");
        }
    }

    /**
     * Echo cancellation on (Parley's linear canceller: AEC3's suppressor ducks the user under a loud echo), high-pass
     * filter on, noise suppression {@link NoiseSuppression#AUTO} (only where the room's noise is steady: in a bed of
     * voices, and over a residual echo in the fixture recordings, it made Vosk mishear speech, "what time is it" became
     * "who are you"; in a fan's noise it is what lets Vosk hear at all), gain control off: it would move the energy
     * VAD's thresholds with the room (docs/audio.md).
     */
    public static FrontEndSettings defaults() {
        return new FrontEndSettings(EchoCanceller.LINEAR, NoiseSuppression.AUTO, true, false);
    }

    /** Nothing at all: the captured audio goes on unchanged. */
    public static FrontEndSettings off() {
        return new FrontEndSettings(EchoCanceller.OFF, NoiseSuppression.OFF, false, false);
    }

    /** Whether any processing is asked for. */
    public boolean anyProcessing() {
        return echoCancellation() || noiseSuppression != NoiseSuppression.OFF || highPassFilter || gainControl;
    }

    /** Whether an echo canceller runs. */
    public boolean echoCancellation() {
        return echoCanceller != EchoCanceller.OFF;
    }

    /** On: the default canceller ({@link EchoCanceller#LINEAR}); off: none. */
    public FrontEndSettings withEchoCancellation(boolean on) {
        return withEchoCanceller(on ? EchoCanceller.LINEAR : EchoCanceller.OFF);
    }

    public FrontEndSettings withEchoCanceller(EchoCanceller canceller) {
        return new FrontEndSettings(canceller, noiseSuppression, highPassFilter, gainControl);
    }

    public FrontEndSettings withNoiseSuppression(NoiseSuppression level) {
        return new FrontEndSettings(echoCanceller, level, highPassFilter, gainControl);
    }

    public FrontEndSettings withGainControl(boolean on) {
        return new FrontEndSettings(echoCanceller, noiseSuppression, highPassFilter, on);
    }
}
