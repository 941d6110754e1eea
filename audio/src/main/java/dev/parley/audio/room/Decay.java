package dev.parley.audio.room;

/**
 * Reverberation time measured from an impulse response by Schroeder's backward integration: the
 * energy decay curve {@code EDC(t) = sum_{u >= t} h(u)^2}, in dB below its start, fitted by a
 * straight line (least squares) between -5 and -25 dB (T20) and extrapolated to -60 dB.
 */
public final class Decay {
    private Decay() {
    }

    /** The energy decay curve in dB (0 at the first sample, falling). */
    public static double[] schroederDb(ImpulseResponse ir) {
        float[] h = ir.taps();
        double[] edc = new double[h.length];
        double sum = 0;
        for (int i = h.length - 1; i >= 0; i--) {
            sum += (double) h[i] * h[i];
            edc[i] = sum;
        }
        double total = edc[0];
        for (int i = 0; i < edc.length; i++) {
            edc[i] = edc[i] > 0 ? 10 * Math.log10(edc[i] / total) : -300;
        }
        return edc;
    }

    /** RT60 in seconds from the T20 fit of the decay curve. */
    public static double rt60(ImpulseResponse ir) {
        return rt60(ir, -5, -25);
    }

    /** RT60 in seconds from a fit of the decay curve between {@code fromDb} and {@code toDb} (negative, from > to). */
    public static double rt60(ImpulseResponse ir, double fromDb, double toDb) {
        double[] edc = schroederDb(ir);
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        int n = 0;
        for (int i = 0; i < edc.length; i++) {
            if (edc[i] <= fromDb && edc[i] >= toDb) {
                double t = (double) i / ir.sampleRate();
                sx += t;
                sy += edc[i];
                sxx += t * t;
                sxy += t * edc[i];
                n++;
            }
        }
        if (n < 2) {
            throw new IllegalArgumentException("the decay of " + ir.name() + " never spans " + fromDb + " to " + toDb
                    + " dB: expected a reverberant impulse response");
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);   // dB per second
        if (!(slope < 0)) {
            throw new IllegalArgumentException("expected a decaying impulse response but " + ir.name() + " does not decay");
        }
        return -60 / slope;
    }
}
