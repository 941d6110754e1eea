package dev.parley.audio.vad;

import dev.parley.audio.PcmAudio;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Noise beds made by the tests themselves, seeded so every run hears the same: white, pink, a fan (motor hum, blade
 * tone and low rumble), clicks and knocks, and babble (many recordings talking at once). 16 kHz mono, scaled to an
 * RMS level in dBFS (a full-scale sine is -3 dBFS).
 */
final class TestNoise {
    static final int RATE = 16_000;

    private TestNoise() {
    }

    static PcmAudio white(int millis, double dbfs, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[samples(millis)];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextDouble(-1, 1);
        }
        return scaled(x, dbfs);
    }

    /** Pink (1/f) noise: the Voss-McCartney sum of 16 random rows, row k redrawn every 2^k samples. */
    static PcmAudio pink(int millis, double dbfs, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int rows = 16;
        double[] row = new double[rows];
        double sum = 0;
        double[] x = new double[samples(millis)];
        for (int i = 0; i < x.length; i++) {
            // the row to redraw is the number of trailing zeros of the counter (one row per sample)
            int k = Integer.numberOfTrailingZeros(i + 1);
            if (k < rows) {
                sum -= row[k];
                row[k] = r.nextDouble(-1, 1);
                sum += row[k];
            }
            x[i] = sum + r.nextDouble(-1, 1);
        }
        return scaled(x, dbfs);
    }

    /**
     * A desk fan: 50 Hz mains hum and its harmonics, a 90 Hz blade tone with harmonics whose loudness wobbles at
     * 3 Hz, over broadband noise low-passed at about 400 Hz (the air).
     */
    static PcmAudio fan(int millis, double dbfs, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[samples(millis)];
        double low = 0;
        double a = Math.exp(-2 * Math.PI * 400.0 / RATE);
        for (int i = 0; i < x.length; i++) {
            double t = (double) i / RATE;
            low = a * low + (1 - a) * r.nextDouble(-1, 1);
            double hum = 0.25 * Math.sin(2 * Math.PI * 50 * t) + 0.12 * Math.sin(2 * Math.PI * 100 * t)
                    + 0.05 * Math.sin(2 * Math.PI * 150 * t);
            double wobble = 1 + 0.3 * Math.sin(2 * Math.PI * 3 * t);
            double blade = wobble * (0.2 * Math.sin(2 * Math.PI * 90 * t) + 0.1 * Math.sin(2 * Math.PI * 180 * t)
                    + 0.05 * Math.sin(2 * Math.PI * 270 * t));
            x[i] = hum + blade + 6 * low;
        }
        return scaled(x, dbfs);
    }

    /**
     * Clicks and knocks on a silent background: every 250 to 900 ms either a 1 ms click of noise or a knock (a
     * damped 120 to 400 Hz resonance decaying over about 20 ms), peaks at {@code peakDbfs}.
     */
    static PcmAudio knocks(int millis, double peakDbfs, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[samples(millis)];
        int at = samples(100);
        while (at < x.length) {
            if (r.nextBoolean()) {
                for (int k = 0; k < 16 && at + k < x.length; k++) {
                    x[at + k] += r.nextDouble(-1, 1);
                }
            } else {
                double f = r.nextDouble(120, 400);
                double tau = r.nextDouble(0.01, 0.03) * RATE;
                for (int k = 0; k < 6 * tau && at + k < x.length; k++) {
                    x[at + k] += Math.exp(-k / tau) * Math.sin(2 * Math.PI * f * k / RATE);
                }
            }
            at += samples(r.nextInt(250, 900));
        }
        double peak = 0;
        for (double v : x) {
            peak = Math.max(peak, Math.abs(v));
        }
        double g = Math.pow(10, peakDbfs / 20) * 32767 / peak;
        short[] s = new short[x.length];
        for (int i = 0; i < x.length; i++) {
            s[i] = clip(x[i] * g);
        }
        return new PcmAudio(s, RATE);
    }

    /**
     * Babble, as in a café: {@code talkers} voices at once, each looping through {@code voices} (recordings, in a
     * shuffled order with pauses between them) from its own starting point.
     */
    static PcmAudio babble(List<PcmAudio> voices, int talkers, int millis, double dbfs, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[samples(millis)];
        for (int t = 0; t < talkers; t++) {
            int at = -r.nextInt(samples(3000));
            while (at < x.length) {
                PcmAudio v = voices.get(r.nextInt(voices.size()));
                double gain = Math.pow(10, r.nextDouble(-4, 4) / 20) / rms(v);
                for (int k = 0; k < v.length(); k++) {
                    int i = at + k;
                    if (i >= 0 && i < x.length) {
                        x[i] += gain * v.samples()[k];
                    }
                }
                at += v.length() + samples(r.nextInt(50, 400));
            }
        }
        return scaled(x, dbfs);
    }

    /**
     * {@code talkers} distant voices: babble as above, then a room's reverberation (a Schroeder reverberator: four
     * feedback combs in parallel, two all-passes in series, about 0.8 s to fall 60 dB), with the dry voices 12 dB
     * under the reverberant sound, as for talkers across a café.
     */
    static PcmAudio cafe(List<PcmAudio> voices, int talkers, int millis, double dbfs, long seed) {
        short[] dry = babble(voices, talkers, millis, -30, seed).samples();
        double[] x = new double[dry.length];
        int[] combs = {1557, 1617, 1491, 1422};
        double[] wet = new double[x.length];
        for (int d : combs) {
            double g = Math.pow(10, -3.0 * d / (0.8 * RATE));
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = dry[i] + (i >= d ? g * y[i - d] : 0);
                wet[i] += y[i];
            }
        }
        for (int d : new int[] {225, 556}) {
            double g = 0.7;
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                double in = wet[i];
                double delayedIn = i >= d ? wet[i - d] : 0;
                double delayedOut = i >= d ? y[i - d] : 0;
                y[i] = -g * in + delayedIn + g * delayedOut;
            }
            wet = y;
        }
        double wetRms = 0;
        double dryRms = 0;
        for (int i = 0; i < x.length; i++) {
            wetRms += wet[i] * wet[i];
            dryRms += (double) dry[i] * dry[i];
        }
        double k = Math.sqrt(dryRms / wetRms);
        for (int i = 0; i < x.length; i++) {
            x[i] = k * wet[i] + Math.pow(10, -12 / 20.0) * dry[i];
        }
        return scaled(x, dbfs);
    }

    static int samples(int millis) {
        return (int) ((long) millis * RATE / 1000);
    }

    static double rms(PcmAudio a) {
        double s = 0;
        for (short v : a.samples()) {
            s += (double) v * v;
        }
        return Math.sqrt(s / Math.max(1, a.length()));
    }

    private static PcmAudio scaled(double[] x, double dbfs) {
        double s = 0;
        for (double v : x) {
            s += v * v;
        }
        double rms = Math.sqrt(s / x.length);
        double g = Math.pow(10, dbfs / 20) * 32768 / rms;
        short[] out = new short[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = clip(x[i] * g);
        }
        return new PcmAudio(out, RATE);
    }

    static short clip(double v) {
        return (short) Math.max(-32768, Math.min(32767, Math.round(v)));
    }
}
