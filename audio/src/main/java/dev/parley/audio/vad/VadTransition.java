package dev.parley.audio.vad;

/**
 * A change of speech state and where in the stream it was decided: {@code atSample} counts the samples fed since
 * the detector was made or reset, up to the end of the window that decided it.
 */
public record VadTransition(VadEvent event, long atSample) {
    public VadTransition {
        if (event == null || event == VadEvent.NONE) {
            throw new IllegalArgumentException("expected SPEECH_START or SPEECH_END but found " + event);
        }
        if (atSample < 0) {
            throw new IllegalArgumentException("expected a sample position >= 0 but found " + atSample);
        }
    }

    /** {@link #atSample} in milliseconds at {@code sampleRate}. */
    public double atMillis(int sampleRate) {
        return atSample * 1000.0 / sampleRate;
    }
}
