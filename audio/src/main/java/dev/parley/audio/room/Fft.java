package dev.parley.audio.room;

/**
 * In-place iterative radix-2 complex FFT of one power-of-two size, with its twiddle factors and
 * bit-reversal table computed once (the virtual room's convolver and the linear echo canceller use it). Not
 * thread-safe only in that the arrays passed in are changed.
 */
public final class Fft {
    private final int n;
    private final double[] cos;
    private final double[] sin;
    private final int[] reversed;

    public Fft(int n) {
        if (n < 2 || Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("expected a power-of-two FFT size of at least 2 but found " + n);
        }
        this.n = n;
        cos = new double[n / 2];
        sin = new double[n / 2];
        for (int i = 0; i < n / 2; i++) {
            cos[i] = Math.cos(2 * Math.PI * i / n);
            sin[i] = Math.sin(2 * Math.PI * i / n);
        }
        reversed = new int[n];
        int bits = Integer.numberOfTrailingZeros(n);
        for (int i = 0; i < n; i++) {
            reversed[i] = Integer.reverse(i) >>> (32 - bits);
        }
    }

    public int size() {
        return n;
    }

    /** Forward transform (e^{-i...}) of {@code (re, im)} in place. */
    public void forward(double[] re, double[] im) {
        transform(re, im, -1);
    }

    /** Inverse transform in place, scaled by 1/n so that inverse(forward(x)) == x. */
    public void inverse(double[] re, double[] im) {
        transform(re, im, 1);
        double s = 1.0 / n;
        for (int i = 0; i < n; i++) {
            re[i] *= s;
            im[i] *= s;
        }
    }

    private void transform(double[] re, double[] im, int sign) {
        for (int i = 0; i < n; i++) {
            int j = reversed[i];
            if (j > i) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        for (int len = 2; len <= n; len <<= 1) {
            int half = len >> 1;
            int step = n / len;
            for (int start = 0; start < n; start += len) {
                for (int k = 0; k < half; k++) {
                    double wr = cos[k * step];
                    double wi = sign * sin[k * step];
                    int a = start + k;
                    int b = a + half;
                    double xr = re[b] * wr - im[b] * wi;
                    double xi = re[b] * wi + im[b] * wr;
                    re[b] = re[a] - xr;
                    im[b] = im[a] - xi;
                    re[a] += xr;
                    im[a] += xi;
                }
            }
        }
    }
}
