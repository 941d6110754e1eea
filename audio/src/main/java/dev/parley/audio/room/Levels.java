package dev.parley.audio.room;

/**
 * Signal levels for mixing rooms: the active level of speech (RMS over its 20 ms frames that are
 * within {@value #ACTIVE_RANGE_DB} dB of its loudest frame, so pauses do not lower it) and the plain
 * RMS of stationary noise, both in dB relative to full scale (1.0).
 */
public final class Levels {
    static final double ACTIVE_RANGE_DB = 30.0;
    /** The floor reported for silence. */
    public static final double SILENCE_DB = -200.0;

    private Levels() {
    }

    /** RMS of all samples in dBFS. */
    public static double rmsDb(float[] x) {
        double sum = 0;
        for (float v : x) {
            sum += (double) v * v;
        }
        return toDb(x.length == 0 ? 0 : sum / x.length);
    }

    /** RMS over the active frames in dBFS (speech level); {@link #SILENCE_DB} for silence. */
    public static double activeDb(float[] x, int sampleRate) {
        int frame = Math.max(1, sampleRate / 50);
        int frames = (x.length + frame - 1) / frame;
        if (frames == 0) {
            return SILENCE_DB;
        }
        double[] energy = new double[frames];
        double loudest = 0;
        for (int f = 0; f < frames; f++) {
            int from = f * frame;
            int to = Math.min(x.length, from + frame);
            double e = 0;
            for (int i = from; i < to; i++) {
                e += (double) x[i] * x[i];
            }
            energy[f] = e / (to - from);
            loudest = Math.max(loudest, energy[f]);
        }
        if (loudest <= 0) {
            return SILENCE_DB;
        }
        double threshold = loudest * Math.pow(10, -ACTIVE_RANGE_DB / 10);
        double sum = 0;
        int n = 0;
        for (double e : energy) {
            if (e >= threshold) {
                sum += e;
                n++;
            }
        }
        return toDb(sum / n);
    }

    /** Index of the first active frame's first sample (where speech starts), or -1 for silence. */
    public static int onset(float[] x, int sampleRate) {
        int frame = Math.max(1, sampleRate / 100);
        double threshold = activeThreshold(x, frame);
        for (int from = 0; threshold > 0 && from < x.length; from += frame) {
            if (frameEnergy(x, from, Math.min(x.length, from + frame)) >= threshold) {
                return from;
            }
        }
        return -1;
    }

    /**
     * One past the last sample of the last active frame (where speech ends: the last 10 ms frame within {@value
     * #ACTIVE_RANGE_DB} dB of the loudest, as {@link #onset} finds the first), or -1 for silence.
     */
    public static int end(float[] x, int sampleRate) {
        int frame = Math.max(1, sampleRate / 100);
        double threshold = activeThreshold(x, frame);
        int last = -1;
        for (int from = 0; threshold > 0 && from < x.length; from += frame) {
            if (frameEnergy(x, from, Math.min(x.length, from + frame)) >= threshold) {
                last = Math.min(x.length, from + frame);
            }
        }
        return last;
    }

    /** The mean-square energy a frame of {@code frame} samples needs to be active, 0 for silence. */
    private static double activeThreshold(float[] x, int frame) {
        double loudest = 0;
        for (int from = 0; from < x.length; from += frame) {
            loudest = Math.max(loudest, frameEnergy(x, from, Math.min(x.length, from + frame)));
        }
        return loudest * Math.pow(10, -ACTIVE_RANGE_DB / 10);
    }

    /** The linear gain that brings a signal at {@code fromDb} to {@code toDb}. */
    public static double gain(double fromDb, double toDb) {
        if (fromDb <= SILENCE_DB) {
            throw new IllegalArgumentException("expected a signal to scale but found silence");
        }
        return Math.pow(10, (toDb - fromDb) / 20);
    }

    /** 16-bit samples as floats at full scale 1. */
    public static float[] toFloat(short[] s) {
        float[] f = new float[s.length];
        for (int i = 0; i < s.length; i++) {
            f[i] = s[i] / 32768f;
        }
        return f;
    }

    static short[] toShort(float[] f) {
        short[] s = new short[f.length];
        for (int i = 0; i < f.length; i++) {
            s[i] = toShort(f[i]);
        }
        return s;
    }

    static short toShort(float v) {
        long r = Math.round(v * 32768.0);
        return (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, r));
    }

    private static double frameEnergy(float[] x, int from, int to) {
        double e = 0;
        for (int i = from; i < to; i++) {
            e += (double) x[i] * x[i];
        }
        return e / Math.max(1, to - from);
    }

    private static double toDb(double meanSquare) {
        return meanSquare <= 1e-20 ? SILENCE_DB : 10 * Math.log10(meanSquare);
    }
}
