package dev.parley.audio.frontend;

import dev.parley.audio.room.Fft;

/**
 * Keeps each run of playback at the lag the echo canceller has learnt. The sink's stream starts anew after a stop or
 * an idle spell, and where it really starts is known only to within a scheduling delay or a device's start-up: a reply
 * after a barge-in landed 22 samples (1.4 ms) off the one before it in {@code FullDuplexPipelineTest}, and the listening
 * cue 75 samples off the reply after it. The linear canceller's filter is the echo path at one lag, so after such a
 * start it let the echo through for seconds while it learnt the path again, and the loop held the reply on it and once
 * took it for the user ("who are you").
 *
 * <p>So the lag of each run is measured on its first {@value #WINDOW} samples of reference (the peak of the
 * phase-transform cross-correlation of reference and capture, which speech or the cue's noise makes sharp), the first
 * run's becomes the learnt one, and a later run that lands off it by {@value #MIN_MOVE} samples or more is moved back
 * onto it ({@link RenderTimeline#offsetRun}). Until its lag is known the filter adapts to the run on trial ({@link
 * LinearEchoCanceller#beginTrial}): its taps are put back once the lag is known, so that the start of a run that
 * landed off does not undo what the filter knows. A run whose correlation
 * has no clear peak (silence, a reference the room does not play back) is left as placed.
 *
 * <p>Not thread-safe: the capture thread calls {@link #frame}.
 */
final class RunAligner {
    /** Reference samples of a run that its lag is measured on (400 ms). */
    static final int WINDOW = 6400;
    /** The longest lag looked for in the first run: the canceller's filter (320 ms). */
    static final int FIRST_SEARCH = 5120;
    /** Later runs are looked for within this of the learnt lag (25 ms). */
    static final int SEARCH = 400;
    /** A correlation peak counts from this height (1 for a pure delay; 0.2-0.7 on the echo of speech in a room). */
    static final double MIN_PEAK = 0.2;
    /** And only where it stands this many times over the highest value away from it. */
    static final double MIN_PEAK_RATIO = 2;
    /** A run that lands within this of the learnt lag is left where it is. */
    static final int MIN_MOVE = 2;

    private long run = -1;
    private long start;
    private int learnt = -1;
    private boolean measured = true;
    private final short[] render = new short[WINDOW];
    private final short[] capture = new short[WINDOW + FIRST_SEARCH];
    private double renderEnergy;

    /** The lag the first run was measured at (samples; -1 before). */
    int learntLag() {
        return learnt;
    }

    /**
     * Whether the current run's lag is still being measured while a learnt lag exists: the filter adapts to it on trial,
     * and the echo may pass until the run is moved back.
     */
    boolean holding() {
        return !measured && learnt >= 0;
    }

    /**
     * One captured frame at {@code position} with the reference taken for it, in run {@code runId} which started at
     * {@code runStart}; returns how many samples later than placed the run sounds, once measured and off the learnt
     * lag (for {@link RenderTimeline#offsetRun}), else 0.
     */
    long frame(long runId, long runStart, long position, short[] renderFrame, short[] captureFrame) {
        if (runId != run) {
            run = runId;
            start = runStart;
            measured = runId < 0;
            renderEnergy = 0;
        }
        if (measured) {
            return 0;
        }
        int maxLag = learnt < 0 ? FIRST_SEARCH : Math.min(FIRST_SEARCH, learnt + SEARCH);
        for (int i = 0; i < renderFrame.length; i++) {
            long p = position + i - start;
            if (p >= 0 && p < WINDOW) {
                render[(int) p] = renderFrame[i];
                renderEnergy += (double) renderFrame[i] * renderFrame[i];
            }
            if (p >= 0 && p < WINDOW + maxLag) {
                capture[(int) p] = captureFrame[i];
            }
        }
        if (position + renderFrame.length - start < WINDOW + maxLag) {
            return 0;
        }
        measured = true;
        if (renderEnergy < WINDOW * 100.0 * 100.0) {
            return 0;           // under about -50 dBFS: nothing to measure on
        }
        int from = learnt < 0 ? 0 : Math.max(0, learnt - SEARCH);
        int lag = lag(render, capture, from, maxLag);
        if (lag < 0) {
            return 0;
        }
        if (learnt < 0) {
            learnt = lag;
            return 0;
        }
        return Math.abs(lag - learnt) >= MIN_MOVE ? lag - learnt : 0;
    }

    /**
     * The lag in {@code [from, to]} at which {@code capture} best matches {@code reference} (capture[n] ~
     * reference[n - lag]) by the phase transform, or -1 where no peak is clear.
     */
    static int lag(short[] reference, short[] capture, int from, int to) {
        int n = Integer.highestOneBit(Math.max(2, reference.length + to + reference.length) - 1) << 1;
        double[] xr = new double[n];
        double[] xi = new double[n];
        double[] yr = new double[n];
        double[] yi = new double[n];
        for (int i = 0; i < reference.length; i++) {
            xr[i] = reference[i];
        }
        for (int i = 0; i < Math.min(capture.length, reference.length + to); i++) {
            yr[i] = capture[i];
        }
        Fft fft = new Fft(n);
        fft.forward(xr, xi);
        fft.forward(yr, yi);
        for (int k = 0; k < n; k++) {
            // Y * conj(X), whitened: only the phase, so that the lag stands out as one sharp peak
            double re = yr[k] * xr[k] + yi[k] * xi[k];
            double im = yi[k] * xr[k] - yr[k] * xi[k];
            double mag = Math.hypot(re, im);
            xr[k] = mag > 1e-9 ? re / mag : 0;
            xi[k] = mag > 1e-9 ? im / mag : 0;
        }
        fft.inverse(xr, xi);            // scaled by 1/n: a pure delay peaks at 1
        int best = -1;
        double peak = 0;
        for (int k = from; k <= to && k < n; k++) {
            if (xr[k] > peak) {
                peak = xr[k];
                best = k;
            }
        }
        if (best < 0) {
            return -1;
        }
        double away = 0;
        for (int k = from; k <= to && k < n; k++) {
            if (Math.abs(k - best) > 16) {
                away = Math.max(away, xr[k]);
            }
        }
        boolean clear = peak >= MIN_PEAK && peak >= MIN_PEAK_RATIO * away;
        return clear ? best : -1;
    }
}
