package dev.parley.audio.frontend;

import dev.parley.audio.room.Fft;
import java.util.Arrays;

/**
 * A linear acoustic echo canceller: the echo path from the played reference to the microphone is learnt as an FIR
 * filter and its output subtracted, which leaves the user's voice whole however loud the echo is (AEC3's suppressor,
 * by contrast, ducks the user with the echo while the echo is as loud as the user or louder: docs/audio.md). What the
 * filter leaves of the echo goes through a {@link ResidualEchoSuppressor} where asked.
 *
 * <p>The filter is a multidelay block frequency-domain adaptive filter (overlap-save, blocks of {@value #BLOCK}
 * samples, FFT of {@value #N}), {@link #partitions} blocks long. Its step is set per block and per frequency bin
 * from how much of the error is still echo, after J.-M. Valin, "On adjusting the learning rate in frequency domain
 * echo cancellation with double-talk" (IEEE TASLP 2007): the share of the echo estimate that leaks into the error is
 * found by regressing the error's power fluctuations on the echo estimate's, and a bin whose error is mostly the
 * user's voice (double talk) or noise takes a small step, a bin whose error is mostly echo a large one. Until the
 * filter has adapted a little, a cruder rate from the reference-to-error ratio starts it. Two filters guard against
 * divergence: the background filter adapts, the foreground filter (whose error is the output) takes the background's
 * taps when the background removes significantly more, and a background that went astray is reset to the
 * foreground. Partitions adapt in proportion to their size (a room's response is strongest early), both signals are
 * pre-emphasised (speech's tilt would starve the high bins) and the output de-emphasised. The microphone is held
 * {@value #MARGIN} samples against the reference, so that a reference laid a little late on the capture's timeline
 * still precedes its echo. Cost: about 0.04-0.1 ms of one core per 10 ms frame with a 320 ms filter (measured in
 * {@code LinearEchoCancellerTest}'s scenes).
 *
 * <p>Not thread-safe: one capture thread calls {@link #process}.
 */
final class LinearEchoCanceller {
    static final int BLOCK = 128;
    static final int N = 2 * BLOCK;
    private static final int BINS = BLOCK + 1;
    private static final double SCALE = 1.0 / 32768;
    private static final double PREEMPHASIS = 0.9;
    /** The leak estimate never goes below this: more than about 23 dB past the filter is not hoped for. */
    private static final double MIN_LEAK = 0.005;
    /** A -90 dBFS floor on powers (per sample), so that silence divides by nothing. */
    private static final double FLOOR = 1e-9;

    private final int partitions;
    /** A bin's step is at most this share of its error (with the rest of the rule, at most 0.85). */
    private static final double MAX_STEP = 0.5;
    /** Before the filter has adapted: the step, at most, while the reference is far louder than the error. */
    private static final double START_STEP = 0.25;
    /**
     * The reference's power per bin is smoothed over about half the filter's length: measured on the benchmark's
     * rooms, twice as fast as over three filter lengths (Valin's choice) to the same depth (15 against 11 dB after
     * 3-5 s, 20 against 17 after 7-10 s); four times faster diverged.
     */
    private static final double FAR_SMOOTHING = 2;
    private final Fft fft = new Fft(N);
    private final double farSmoothing;
    private final double specAverage;
    private final double beta0;
    private final double betaMax;

    private final double[] farWindow = new double[N];
    private final double[][] xRe;
    private final double[][] xIm;
    private int newest;
    private final double[][] fgRe;
    private final double[][] fgIm;
    private final double[][] bgRe;
    private final double[][] bgIm;
    private final double[] prop;
    private final double[] farPower = new double[BINS];
    private final double[] farSum = new double[BINS];
    private double farWeight;
    private final double[] errorMean = new double[BINS];
    private final double[] echoMean = new double[BINS];
    private final double[] step = new double[BINS];
    private final double[] re = new double[N];
    private final double[] im = new double[N];
    private final double[] eRe = new double[BINS];
    private final double[] eIm = new double[BINS];
    private final double[] yPow = new double[BINS];
    private final double[] ePow = new double[BINS];

    private final double[] far = new double[BLOCK];
    private final double[] mic = new double[BLOCK];
    private final double[] micNatural = new double[BLOCK];
    private final double[] echo = new double[BLOCK];
    private final double[] suppressed = new double[BLOCK];
    private final ResidualEchoSuppressor suppressor;
    private final double[] yFg = new double[BLOCK];
    private final double[] yBg = new double[BLOCK];
    private final double[] eFg = new double[BLOCK];
    private final double[] eBg = new double[BLOCK];
    private double farMemory;
    private double micMemory;
    private double outMemory;

    private double pey;
    private double pyy;
    private double leak = MIN_LEAK;
    private boolean adapted;
    private double sumAdapt;
    private double davg1;
    private double davg2;
    private double dvar1;
    private double dvar2;
    private int constrainNext = 1;
    private double micEnergy;
    private double outEnergy;
    /** The taps as they were when a run's trial began ({@link #beginTrial}), allocated at the first. */
    private double[][] trialFgRe;
    private double[][] trialFgIm;
    private double[][] trialBgRe;
    private double[][] trialBgIm;
    private boolean inTrial;

    /**
     * The microphone is delayed this much against the reference, so that a reference laid on the capture's timeline
     * up to 10 ms late (the sink's idea of when a piece sounds is an estimate) still comes before its echo. Measured:
     * in {@code WebRtcFrontEndTest}'s harness the reference lands 20 ms late, and in a room with 15 ms of latency the
     * canceller and its suppressor removed 8-16 dB of the echo without this margin, 38-49 dB with it.
     */
    static final int MARGIN = 160;
    private final short[] micDelay = new short[MARGIN];
    private int micDelayAt;
    private final short[] farIn = new short[2 * BLOCK + AudioFrontEnd.FRAME_SAMPLES];
    private final short[] micIn = new short[2 * BLOCK + AudioFrontEnd.FRAME_SAMPLES];
    private int inCount;
    private final short[] outQueue = new short[4 * BLOCK + AudioFrontEnd.FRAME_SAMPLES];
    /** Output waiting; starts with one block of silence, the delay that lets 10 ms frames come out of blocks. */
    private int outCount = BLOCK;

    /**
     * A filter {@code tailMillis} long (device latency plus the room's response that matters), its output through a
     * {@link ResidualEchoSuppressor} when {@code suppress}.
     */
    LinearEchoCanceller(int sampleRate, int tailMillis, boolean suppress) {
        this.suppressor = suppress ? new ResidualEchoSuppressor() : null;
        this.partitions = Math.max(1, (int) Math.ceil(tailMillis * sampleRate / 1000.0 / BLOCK));
        xRe = new double[partitions][BINS];
        xIm = new double[partitions][BINS];
        fgRe = new double[partitions][BINS];
        fgIm = new double[partitions][BINS];
        bgRe = new double[partitions][BINS];
        bgIm = new double[partitions][BINS];
        prop = new double[partitions];
        Arrays.fill(prop, 1.0 / partitions);
        double blockSeconds = (double) BLOCK / sampleRate;
        farSmoothing = Math.min(1, FAR_SMOOTHING / partitions);
        specAverage = blockSeconds;
        beta0 = 2 * blockSeconds;
        betaMax = 0.5 * blockSeconds;
    }

    /**
     * A run of playback starts that may sound at another lag than the one the filter knows ({@link RunAligner}): the
     * filter goes on adapting to it, so that the run's first 400 ms come out as clean as they can, but its taps as they
     * are now are kept, to be put back by {@link #endTrial} once the run's lag is known. What it learns meanwhile of the
     * signals (the residual echo's leak, the far end's power, how far it has adapted) stays.
     */
    void beginTrial() {
        if (trialFgRe == null) {
            trialFgRe = new double[partitions][BINS];
            trialFgIm = new double[partitions][BINS];
            trialBgRe = new double[partitions][BINS];
            trialBgIm = new double[partitions][BINS];
        }
        copy(fgRe, fgIm, trialFgRe, trialFgIm);
        copy(bgRe, bgIm, trialBgRe, trialBgIm);
        inTrial = true;
    }

    /**
     * The run begun at {@link #beginTrial} is measured (and moved back onto the learnt lag if it was off): the taps go
     * back to what they were before it. Kept where the run sounded at the learnt lag, the taps learnt from a reply's
     * first 400 ms made the filter step faster into a barge-in's double talk: `OfflineDuplexSweep -Druns=true` (fan,
     * 100 barge-ins) paused the reply on the echo's rest 79 times against 45 with the taps put back.
     */
    void endTrial() {
        if (inTrial) {
            copy(trialFgRe, trialFgIm, fgRe, fgIm);
            copy(trialBgRe, trialBgIm, bgRe, bgIm);
        }
        inTrial = false;
    }

    /** How many samples later than its input the output comes out. */
    int latencySamples() {
        return MARGIN + BLOCK + (suppressor == null ? 0 : ResidualEchoSuppressor.HOP);
    }

    /**
     * Removes the echo of {@code farFrame} (what played during these samples, on the capture's timeline) from
     * {@code micFrame}; writes the result, {@value #BLOCK} samples late, to {@code out} (may be {@code micFrame}).
     */
    void process(short[] farFrame, short[] micFrame, short[] out) {
        int n = farFrame.length;
        System.arraycopy(farFrame, 0, farIn, inCount, n);
        for (int i = 0; i < n; i++) {
            micIn[inCount + i] = micDelay[micDelayAt];
            micDelay[micDelayAt] = micFrame[i];
            micDelayAt = (micDelayAt + 1) % MARGIN;
        }
        inCount += n;
        int done = 0;
        while (inCount - done >= BLOCK) {
            for (int i = 0; i < BLOCK; i++) {
                far[i] = farIn[done + i] * SCALE;
                mic[i] = micIn[done + i] * SCALE;
                micNatural[i] = mic[i];
            }
            processBlock();
            double[] result = eFg;
            if (suppressor != null) {
                for (int i = 0; i < BLOCK; i++) {
                    echo[i] = micNatural[i] - eFg[i];
                }
                suppressor.process(eFg, echo, adapted ? leak : Math.max(leak, 0.5), suppressed);
                result = suppressed;
            }
            for (int i = 0; i < BLOCK; i++) {
                double v = Math.rint(result[i] * 32768);
                outQueue[outCount + i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, v));
            }
            outCount += BLOCK;
            done += BLOCK;
        }
        inCount -= done;
        System.arraycopy(farIn, done, farIn, 0, inCount);
        System.arraycopy(micIn, done, micIn, 0, inCount);
        System.arraycopy(outQueue, 0, out, 0, n);
        outCount -= n;
        System.arraycopy(outQueue, n, outQueue, 0, outCount);
    }

    /** One block: {@link #far} and {@link #mic} in, the cleaned block (de-emphasised) left in {@link #eFg}. */
    private void processBlock() {
        double sxx = 0;
        System.arraycopy(farWindow, BLOCK, farWindow, 0, N - BLOCK);
        for (int i = 0; i < BLOCK; i++) {
            double x = far[i] - PREEMPHASIS * farMemory;
            farMemory = far[i];
            farWindow[BLOCK + i] = x;
            sxx += x * x;
            double d = mic[i] - PREEMPHASIS * micMemory;
            micMemory = mic[i];
            mic[i] = d;
        }
        newest = (newest + partitions - 1) % partitions;
        spectrum(farWindow, xRe[newest], xIm[newest]);
        if (sxx > FLOOR * BLOCK) {
            // smoothed over the blocks that played something, the start's bias taken out: from zero, a plain average
            // would divide the first steps by next to nothing and throw the filter off
            farWeight = (1 - farSmoothing) * farWeight + farSmoothing;
            for (int k = 0; k < BINS; k++) {
                double p = xRe[newest][k] * xRe[newest][k] + xIm[newest][k] * xIm[newest][k];
                farSum[k] = (1 - farSmoothing) * farSum[k] + farSmoothing * p;
                farPower[k] = farSum[k] / farWeight;
            }
        }
        filter(fgRe, fgIm, yFg);
        filter(bgRe, bgIm, yBg);
        double sff = 0;
        double see = 0;
        double dbf = 0;
        for (int i = 0; i < BLOCK; i++) {
            eFg[i] = mic[i] - yFg[i];
            eBg[i] = mic[i] - yBg[i];
            sff += eFg[i] * eFg[i];
            see += eBg[i] * eBg[i];
            double diff = yBg[i] - yFg[i];
            dbf += diff * diff;
        }
        chooseFilter(sff, see, dbf);
        see = 0;
        double syy = 0;
        double sey = 0;
        for (int i = 0; i < BLOCK; i++) {
            see += eBg[i] * eBg[i];
            syy += yBg[i] * yBg[i];
            sey += eBg[i] * yBg[i];
        }
        adapt(sxx, see, syy, sey);
        double micBlock = 0;
        double outBlock = 0;
        for (int i = 0; i < BLOCK; i++) {
            micBlock += mic[i] * mic[i];
            outBlock += eFg[i] * eFg[i];
            outMemory = eFg[i] + PREEMPHASIS * outMemory;
            eFg[i] = outMemory;
        }
        if (sxx > FLOOR * BLOCK * 10) {
            micEnergy = 0.98 * micEnergy + micBlock;
            outEnergy = 0.98 * outEnergy + outBlock;
        }
    }

    /**
     * The two-path decision, by the variance test of Valin's canceller: the foreground takes the background when the
     * background's error is lower by more than the difference between the two filters' outputs explains (instantly,
     * or on average over a short and a longer window); the background is reset when it is clearly worse.
     */
    private void chooseFilter(double sff, double see, double dbf) {
        double gain = sff - see;
        davg1 = 0.6 * davg1 + 0.4 * gain;
        davg2 = 0.85 * davg2 + 0.15 * gain;
        dvar1 = 0.36 * dvar1 + 0.16 * sff * dbf;
        dvar2 = 0.7225 * dvar2 + 0.0225 * sff * dbf;
        boolean update = gain * Math.abs(gain) > sff * dbf
                || davg1 * Math.abs(davg1) > 0.5 * dvar1
                || davg2 * Math.abs(davg2) > 0.25 * dvar2;
        if (update) {
            copy(bgRe, bgIm, fgRe, fgIm);
            // cross-fade from the old foreground's error to the new one over the block
            for (int i = 0; i < BLOCK; i++) {
                double w = (i + 1.0) / BLOCK;
                eFg[i] = (1 - w) * eFg[i] + w * eBg[i];
            }
            davg1 = davg2 = dvar1 = dvar2 = 0;
            return;
        }
        boolean reset = -gain * Math.abs(gain) > 4 * sff * dbf
                || -davg1 * Math.abs(davg1) > 4 * dvar1
                || -davg2 * Math.abs(davg2) > 4 * dvar2;
        if (reset) {
            copy(fgRe, fgIm, bgRe, bgIm);
            System.arraycopy(eFg, 0, eBg, 0, BLOCK);
            System.arraycopy(yFg, 0, yBg, 0, BLOCK);
            davg1 = davg2 = dvar1 = dvar2 = 0;
        }
    }

    /** One step of the background filter on its error, with the learning rate estimated per bin. */
    private void adapt(double sxx, double see, double syy, double sey) {
        halfBlockSpectrum(eBg, eRe, eIm);
        for (int k = 0; k < BINS; k++) {
            ePow[k] = eRe[k] * eRe[k] + eIm[k] * eIm[k];
        }
        halfBlockSpectrum(yBg, re, im);
        for (int k = 0; k < BINS; k++) {
            yPow[k] = re[k] * re[k] + im[k] * im[k];
        }
        // leak: linear regression of the error's power fluctuations on the echo estimate's
        double pe = 0;
        double py = 0;
        for (int k = 0; k < BINS; k++) {
            double eh = ePow[k] - errorMean[k];
            double yh = yPow[k] - echoMean[k];
            pe += eh * yh;
            py += yh * yh;
            errorMean[k] = (1 - specAverage) * errorMean[k] + specAverage * ePow[k];
            echoMean[k] = (1 - specAverage) * echoMean[k] + specAverage * yPow[k];
        }
        py = Math.sqrt(py);
        pe = py > 0 ? pe / py : 0;
        double floorEnergy = FLOOR * BLOCK;
        see = Math.max(see, floorEnergy);
        double alpha = Math.min(beta0 * syy, betaMax * see) / see;
        pey = (1 - alpha) * pey + alpha * pe;
        pyy = (1 - alpha) * pyy + alpha * py;
        pyy = Math.max(pyy, floorEnergy * 1e-3);
        pey = Math.max(MIN_LEAK * pyy, Math.min(pyy, pey));
        leak = pey / pyy;
        // residual echo to error ratio, bounded below by the echo estimate's correlation with the error
        double rer = (1e-4 * sxx + 3 * leak * syy) / see;
        rer = Math.max(rer, sey * sey / (floorEnergy * floorEnergy + see * syy));
        rer = Math.min(rer, 0.5);
        if (!adapted && sumAdapt > partitions && leak > 0.03) {
            adapted = true;
        }
        double powerFloor = FLOOR * N;
        if (adapted) {
            for (int k = 0; k < BINS; k++) {
                double e = ePow[k] + powerFloor;
                double r = Math.min(leak * yPow[k], MAX_STEP * e);
                r = 0.7 * r + 0.3 * rer * e;
                step[k] = r / (e * (farPower[k] + powerFloor));
            }
        } else {
            double rate = 0;
            if (sxx > floorEnergy * 100) {
                rate = START_STEP * Math.min(sxx, see) / see;
            }
            for (int k = 0; k < BINS; k++) {
                step[k] = rate / (farPower[k] + powerFloor);
            }
            sumAdapt += rate;
        }
        if (sxx <= floorEnergy) {
            return;                             // nothing played: nothing to learn from
        }
        proportions();
        for (int p = 0; p < partitions; p++) {
            int x = (newest + p) % partitions;
            double[] br = xRe[x];
            double[] bi = xIm[x];
            double[] wr = bgRe[p];
            double[] wi = bgIm[p];
            double g = prop[p];
            for (int k = 0; k < BINS; k++) {
                double s = g * step[k];
                wr[k] += s * (br[k] * eRe[k] + bi[k] * eIm[k]);      // conj(X) * E
                wi[k] += s * (br[k] * eIm[k] - bi[k] * eRe[k]);
            }
        }
        // gradient constraint: the first partition every block, the others in turn
        constrain(bgRe[0], bgIm[0]);
        if (partitions > 1) {
            constrain(bgRe[constrainNext], bgIm[constrainNext]);
            constrainNext = constrainNext % (partitions - 1) + 1;
        }
    }

    /** Each partition's share of the step: its size, plus a tenth of the largest so none is starved. */
    private void proportions() {
        double max = 0;
        for (int p = 0; p < partitions; p++) {
            double s = 0;
            double[] wr = bgRe[p];
            double[] wi = bgIm[p];
            for (int k = 0; k < BINS; k++) {
                s += wr[k] * wr[k] + wi[k] * wi[k];
            }
            prop[p] = Math.sqrt(s);
            max = Math.max(max, prop[p]);
        }
        if (max == 0) {
            Arrays.fill(prop, 1.0 / partitions);
            return;
        }
        double sum = 0;
        for (int p = 0; p < partitions; p++) {
            prop[p] += 0.1 * max;
            sum += prop[p];
        }
        for (int p = 0; p < partitions; p++) {
            prop[p] = 0.99 * prop[p] / sum;
        }
    }

    /** Echo return loss enhancement over the last second or so of playback, dB. */
    double erleDb() {
        return 10 * Math.log10((micEnergy + 1e-12) / (outEnergy + 1e-12));
    }

    /** Where the foreground filter's strongest tap is, ms: the echo path's delay. */
    int delayMillis(int sampleRate) {
        double best = -1;
        int at = 0;
        for (int p = 0; p < partitions; p++) {
            System.arraycopy(fgRe[p], 0, re, 0, BINS);
            System.arraycopy(fgIm[p], 0, im, 0, BINS);
            inverse();
            for (int i = 0; i < BLOCK; i++) {
                if (Math.abs(re[i]) > best) {
                    best = Math.abs(re[i]);
                    at = p * BLOCK + i;
                }
            }
        }
        return (int) Math.round(1000.0 * at / sampleRate);
    }

    /** The echo estimate of the filter {@code (wr, wi)} for the current block, into {@code y}. */
    private void filter(double[][] wr, double[][] wi, double[] y) {
        Arrays.fill(re, 0);
        Arrays.fill(im, 0);
        for (int p = 0; p < partitions; p++) {
            int x = (newest + p) % partitions;
            double[] ar = wr[p];
            double[] ai = wi[p];
            double[] br = xRe[x];
            double[] bi = xIm[x];
            for (int k = 0; k < BINS; k++) {
                re[k] += ar[k] * br[k] - ai[k] * bi[k];
                im[k] += ar[k] * bi[k] + ai[k] * br[k];
            }
        }
        inverse();
        System.arraycopy(re, BLOCK, y, 0, BLOCK);
    }

    /** Keeps only the first {@link #BLOCK} taps of one partition (the filter stays a linear, causal FIR). */
    private void constrain(double[] wr, double[] wi) {
        System.arraycopy(wr, 0, re, 0, BINS);
        System.arraycopy(wi, 0, im, 0, BINS);
        inverse();
        Arrays.fill(re, BLOCK, N, 0);
        Arrays.fill(im, 0);
        fft.forward(re, im);
        System.arraycopy(re, 0, wr, 0, BINS);
        System.arraycopy(im, 0, wi, 0, BINS);
    }

    /** The half spectrum of a block preceded by a block of zeros (how overlap-save sees an error block). */
    private void halfBlockSpectrum(double[] block, double[] outRe, double[] outIm) {
        Arrays.fill(re, 0, BLOCK, 0);
        System.arraycopy(block, 0, re, BLOCK, BLOCK);
        Arrays.fill(im, 0);
        fft.forward(re, im);
        System.arraycopy(re, 0, outRe, 0, BINS);
        System.arraycopy(im, 0, outIm, 0, BINS);
    }

    /** Real signal {@code x} (length N) to its half spectrum. */
    private void spectrum(double[] x, double[] outRe, double[] outIm) {
        System.arraycopy(x, 0, re, 0, N);
        Arrays.fill(im, 0);
        fft.forward(re, im);
        System.arraycopy(re, 0, outRe, 0, BINS);
        System.arraycopy(im, 0, outIm, 0, BINS);
    }

    /** Half spectrum in {@code re/im[0..BINS)} to a real signal in {@code re} (conjugate symmetry filled in). */
    private void inverse() {
        for (int k = 1; k < BLOCK; k++) {
            re[N - k] = re[k];
            im[N - k] = -im[k];
        }
        im[0] = 0;
        im[BLOCK] = 0;
        fft.inverse(re, im);
    }

    private void copy(double[][] fr, double[][] fi, double[][] tr, double[][] ti) {
        for (int p = 0; p < partitions; p++) {
            System.arraycopy(fr[p], 0, tr[p], 0, BINS);
            System.arraycopy(fi[p], 0, ti[p], 0, BINS);
        }
    }
}
