package dev.parley.audio.frontend;

import dev.parley.audio.room.Fft;
import java.util.Arrays;

/**
 * Takes down what the linear echo canceller leaves of the echo, bin by bin, without touching bins where the user's
 * voice stands above it. The residual is estimated as the canceller's leak (the share of its echo estimate still in
 * its error) times the power of its echo estimate, overestimated by {@link #OVERESTIMATE} and held with a decay for
 * the room's tail past the filter; a bin's gain is the share of its power that is not residual, never below
 * {@link #MIN_GAIN}. Short-time spectra: sqrt-Hann windows of {@value #N} samples every {@value #HOP} (weighted
 * overlap-add, which gives the input back exactly where nothing is suppressed), so the output is {@value #HOP} samples
 * later than the input.
 *
 * <p>Not thread-safe: the capture thread calls {@link #process}.
 */
final class ResidualEchoSuppressor {
    static final int HOP = LinearEchoCanceller.BLOCK;
    static final int N = 2 * HOP;
    private static final int BINS = HOP + 1;
    /** The leak estimate is a mean over bins and blocks; a bin's residual may be several times it. */
    private static final double OVERESTIMATE = 3;
    /**
     * -14 dB: the most a bin is taken down. At -25 dB (until session 33) the bins where the echo stood above the user
     * took the user's voice down with it: on the offline sweep's 100 barge-ins said over a reply whose echo is 6 dB
     * louder (five rooms, babble at SNR 20 and 10), the loop's barge-in turns were exact in 63 against 70 at -14 dB,
     * and 82 replies stopped against 86 (the recognizer gets 83 of them exact from the room with no echo at all).
     * -10.5 dB let the echo's rest stop two replies after a barge-in; -16.5 dB gained less (67 exact).
     * docs/benchmarks.md, session 33.
     */
    private static final double MIN_GAIN = 0.2;
    /** Per block (8 ms), about 90 dB a second: the room's tail past the filter, and the leak's lag behind the echo. */
    private static final double TAIL_DECAY = 0.85;

    private final Fft fft = new Fft(N);
    private final double[] window = new double[N];
    private final double[] errorHistory = new double[N];
    private final double[] echoHistory = new double[N];
    private final double[] residual = new double[BINS];
    private final double[] overlap = new double[HOP];
    private final double[] re = new double[N];
    private final double[] im = new double[N];
    private final double[] echoRe = new double[N];
    private final double[] echoIm = new double[N];

    ResidualEchoSuppressor() {
        for (int i = 0; i < N; i++) {
            window[i] = Math.sqrt(0.5 - 0.5 * Math.cos(2 * Math.PI * i / N));     // periodic: sums to 1 at 50%
        }
    }

    /**
     * One block of {@value #HOP}: the canceller's output {@code error} and its echo estimate {@code echo} (what it
     * subtracted), with its current leak estimate; writes the suppressed block, {@value #HOP} samples late, to
     * {@code out}.
     */
    void process(double[] error, double[] echo, double leak, double[] out) {
        System.arraycopy(errorHistory, HOP, errorHistory, 0, HOP);
        System.arraycopy(error, 0, errorHistory, HOP, HOP);
        System.arraycopy(echoHistory, HOP, echoHistory, 0, HOP);
        System.arraycopy(echo, 0, echoHistory, HOP, HOP);
        for (int i = 0; i < N; i++) {
            re[i] = errorHistory[i] * window[i];
            echoRe[i] = echoHistory[i] * window[i];
        }
        Arrays.fill(im, 0);
        Arrays.fill(echoIm, 0);
        fft.forward(re, im);
        fft.forward(echoRe, echoIm);
        for (int k = 0; k < BINS; k++) {
            double y = echoRe[k] * echoRe[k] + echoIm[k] * echoIm[k];
            residual[k] = Math.max(OVERESTIMATE * leak * y, TAIL_DECAY * residual[k]);
            double e = re[k] * re[k] + im[k] * im[k];
            double g = e > 0 ? Math.max(MIN_GAIN, 1 - residual[k] / e) : 1;
            re[k] *= g;
            im[k] *= g;
            if (k > 0 && k < HOP) {
                re[N - k] = re[k];
                im[N - k] = -im[k];
            }
        }
        im[0] = 0;
        im[HOP] = 0;
        fft.inverse(re, im);
        for (int i = 0; i < HOP; i++) {
            out[i] = overlap[i] + re[i] * window[i];
            overlap[i] = re[HOP + i] * window[HOP + i];
        }
    }
}
