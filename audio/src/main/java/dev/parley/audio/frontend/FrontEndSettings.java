package dev.parley.audio.frontend;

/**
 * What the audio front end does to each captured frame.
 *
 * @param echoCancellation  WebRTC's AEC3 removes what the speaker plays from the microphone (needed for full duplex)
 * @param noiseSuppression  stationary noise suppression level, or {@link NoiseSuppression#OFF}
 * @param highPassFilter    removes rumble below about 80 Hz
 * @param gainControl       adaptive digital gain (AGC2) towards a steady speech level
 */
public record FrontEndSettings(boolean echoCancellation, NoiseSuppression noiseSuppression, boolean highPassFilter,
                               boolean gainControl) {
    public FrontEndSettings {
        if (noiseSuppression == null) {
            throw new IllegalArgumentException("expected a noise suppression level (OFF for none) but found null");
        }
    }

    /**
     * Echo cancellation on, high-pass filter on, noise suppression and gain control off: measured on the fixture
     * recordings, even low noise suppression made Vosk mishear speech over a residual echo ("what time is it" became
     * "who are you"), and gain control would move the energy VAD's thresholds with the room (docs/audio.md).
     */
    public static FrontEndSettings defaults() {
        return new FrontEndSettings(true, NoiseSuppression.OFF, true, false);
    }

    /** Nothing at all: the captured audio goes on unchanged. */
    public static FrontEndSettings off() {
        return new FrontEndSettings(false, NoiseSuppression.OFF, false, false);
    }

    /** Whether any processing is asked for. */
    public boolean anyProcessing() {
        return echoCancellation || noiseSuppression != NoiseSuppression.OFF || highPassFilter || gainControl;
    }

    public FrontEndSettings withEchoCancellation(boolean on) {
        return new FrontEndSettings(on, noiseSuppression, highPassFilter, gainControl);
    }

    public FrontEndSettings withNoiseSuppression(NoiseSuppression level) {
        return new FrontEndSettings(echoCancellation, level, highPassFilter, gainControl);
    }

    public FrontEndSettings withGainControl(boolean on) {
        return new FrontEndSettings(echoCancellation, noiseSuppression, highPassFilter, on);
    }
}
