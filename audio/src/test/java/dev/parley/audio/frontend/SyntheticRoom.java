package dev.parley.audio.frontend;

import java.util.Random;

/**
 * A simple simulated room for echo tests (hardware simulated, nothing else): a direct path after the
 * playback-to-capture latency, a few delayed and attenuated reflections, then a decaying noise tail. Convolves what
 * the speaker plays into what the microphone hears, at 16 kHz.
 */
public final class SyntheticRoom {
    private final double[] ir;

    /**
     * @param latencyMillis playback-to-capture latency (leading zeros of the response)
     * @param rt60Millis    time for the tail to decay by 60 dB
     * @param seed          seed of the tail
     */
    public SyntheticRoom(int latencyMillis, int rt60Millis, long seed) {
        int rate = 16_000;
        int start = latencyMillis * rate / 1000;
        int tail = rt60Millis * rate / 1000;
        ir = new double[start + tail + 1];
        ir[start] = 1.0;
        int[] delays = {3, 7, 13, 21};            // ms after the direct path
        double[] gains = {-0.55, 0.4, -0.3, 0.22};
        for (int i = 0; i < delays.length; i++) {
            ir[start + delays[i] * rate / 1000] += gains[i];
        }
        Random r = new Random(seed);
        double decayPerSample = Math.log(1000) / tail;  // -60 dB over the tail
        for (int n = 25 * rate / 1000; n < tail; n++) {
            ir[start + n] += 0.08 * r.nextGaussian() * Math.exp(-decayPerSample * n);
        }
    }

    /** The impulse response (16 kHz). */
    public double[] impulseResponse() {
        return ir.clone();
    }

    /** What the microphone hears of {@code played}, scaled by {@code gain}, as floating point samples. */
    public double[] echo(short[] played, double gain) {
        double[] out = new double[played.length];
        for (int k = 0; k < ir.length; k++) {
            double h = ir[k] * gain;
            if (h == 0) {
                continue;
            }
            for (int n = k; n < played.length; n++) {
                out[n] += h * played[n - k];
            }
        }
        return out;
    }

    public static double rms(double[] x, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += x[i] * x[i];
        }
        return Math.sqrt(s / Math.max(1, to - from));
    }

    public static double rms(short[] x, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += (double) x[i] * x[i];
        }
        return Math.sqrt(s / Math.max(1, to - from));
    }

    public static short[] mix(double[] a, short[] b, int bOffset, double bGain) {
        short[] out = new short[a.length];
        for (int i = 0; i < a.length; i++) {
            double v = a[i];
            int j = i - bOffset;
            if (b != null && j >= 0 && j < b.length) {
                v += bGain * b[j];
            }
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
        }
        return out;
    }
}
