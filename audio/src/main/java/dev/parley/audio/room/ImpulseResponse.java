package dev.parley.audio.room;

/**
 * A room impulse response at a sample rate: what the microphone hears when the source plays a unit
 * impulse. Its leading zeros are the device latency (plus the time sound needs to reach the
 * microphone, less the half-width of the interpolation kernel).
 *
 * @param name       a label
 * @param taps       the response (not copied; treat as read-only)
 * @param sampleRate samples per second
 */
public record ImpulseResponse(String name, float[] taps, int sampleRate) {
    public ImpulseResponse {
        if (taps == null || taps.length == 0) {
            throw new IllegalArgumentException("expected an impulse response with at least one tap but found none");
        }
        if (sampleRate <= 0) {
            throw new IllegalArgumentException("expected a positive sample rate but found " + sampleRate);
        }
        boolean any = false;
        for (float t : taps) {
            if (!Float.isFinite(t)) {
                throw new IllegalArgumentException("expected finite taps but found " + t + " in " + name);
            }
            any |= t != 0;
        }
        if (!any) {
            throw new IllegalArgumentException("expected an impulse response with a non-zero tap but " + name + " is all zeros");
        }
    }

    /** Samples before the first non-zero tap. */
    public int leadingZeros() {
        int i = 0;
        while (taps[i] == 0) {
            i++;
        }
        return i;
    }

    /** Index of the largest tap (the direct path in a room whose source is in sight of the microphone). */
    public int peakIndex() {
        int best = 0;
        for (int i = 1; i < taps.length; i++) {
            if (Math.abs(taps[i]) > Math.abs(taps[best])) {
                best = i;
            }
        }
        return best;
    }

    /** Sum of squared taps. */
    public double energy() {
        double e = 0;
        for (float t : taps) {
            e += (double) t * t;
        }
        return e;
    }

    public double durationMillis() {
        return taps.length * 1000.0 / sampleRate;
    }

    /** A single tap of {@code gain} after {@code delaySamples} zeros: a dry path (with a device latency). */
    public static ImpulseResponse dry(String name, int delaySamples, float gain, int sampleRate) {
        float[] t = new float[delaySamples + 1];
        t[delaySamples] = gain;
        return new ImpulseResponse(name, t, sampleRate);
    }
}
