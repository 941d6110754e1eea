package dev.parley.audio.frontend;

import java.util.Arrays;

/**
 * Whether the room's noise is steady (a fan, air conditioning, a hum) or not (a bed of voices, a café), for {@link
 * NoiseSuppression#AUTO}: WebRTC's suppressor takes a steady noise out and gives the recognizer and the VAD back the
 * voice, but it smears a bed of voices into the user's words.
 *
 * <p>The measure is the spread of the levels of the last {@value #WINDOW_FRAMES} 10 ms frames that nothing played
 * into: the {@value #HIGH_PERCENT}th percentile's level less the {@value #LOW_PERCENT}th's. Steady noise varies little
 * from frame to frame; a bed of voices rises and falls with its syllables. The low percentiles are the room's own
 * whatever the user says: speech fills less than 70% of any 5 s. Measured on `bench duplex`'s beds (30 s each, 5 s
 * windows every 250 ms): fan 1.4-1.8 dB, babble 3.0-7.0, café 3.8-7.5. Noise judged steady must also stand above
 * {@value #AUDIBLE_DBFS} dBFS (its {@value #LOW_PERCENT}th percentile): a quiet room's hiss is no reason to process
 * the voice. (It was -60 dBFS: the offline sweep's fan at SNR 20 sits at -58 to -64 dBFS, 20 dB under a user at -38,
 * was left alone, and the fixture recognizer still heard "five" for "goodbye" in it.)
 *
 * <p>The first judgement comes after {@value #MIN_FRAMES} frames (1 s: before the listening cue, so before the user's
 * first words), with a stricter threshold ({@value #EARLY_STEADY_DB} dB) until {@value #FULL_FRAMES} frames are known.
 * Measured on the same beds, 1 s windows: fan at or under 2.0 dB in 99.3% of them, babble in 2.1%, café in 3.4%; from
 * 3 s none of the beds of voices. Judged first after 3 s, the suppressor came on in the middle of the first question
 * in `bench duplex` (the user speaks soon after the cue), and that question was misheard in every fan condition.
 *
 * <p>What the front end puts out ({@link #steady()}) follows the judgement only at a quiet moment: after {@value
 * #QUIET_RUN_FRAMES} frames in a row no louder than the window's median plus {@value #QUIET_MARGIN_DB} dB, or once
 * the change has waited {@value #MAX_PENDING_FRAMES} frames. On the beds above that quiet moment came 0.4 s after
 * the judgement in a fan, at most 1.4 s in babble and 2.2 s in the café. Switched in the middle of a word, the
 * suppressor cut it: the offline sweep's fan, "goodbye" asked 3 s in, was heard right in 4 of 10 rooms with the
 * switch during it and in 9 of 10 with the suppressor on from the start.
 *
 * <p>Not thread-safe: the front end's capture thread feeds it.
 */
final class SteadyNoise {
    /** Frames (10 ms) the judgement looks back over: 5 s. */
    static final int WINDOW_FRAMES = 500;
    /** Frames needed before anything is judged steady: 1 s. */
    static final int MIN_FRAMES = 100;
    /** Frames from which the full threshold applies: 3 s. */
    static final int FULL_FRAMES = 300;
    /** The judgement is made again every this many frames (250 ms). */
    static final int EVERY_FRAMES = 25;
    static final int LOW_PERCENT = 5;
    static final int HIGH_PERCENT = 30;
    /** At or below this spread the noise becomes steady... */
    static final double STEADY_DB = 2.4;
    /** ...or at or below this one while fewer than {@value #FULL_FRAMES} frames are known. */
    static final double EARLY_STEADY_DB = 2.0;
    /** ...and above this it is no longer (between the two it stays as it was, so that it does not flap). */
    static final double UNSTEADY_DB = 2.8;
    /** Steady noise below this level (dBFS) is left alone. */
    static final double AUDIBLE_DBFS = -70;
    /** A changed judgement is put out after this many quiet frames in a row (400 ms: longer than the pauses inside the
     * fixture's sentences, 280 ms at most)... */
    static final int QUIET_RUN_FRAMES = 40;
    /** ...quiet meaning no louder than the window's median by more than this... */
    static final double QUIET_MARGIN_DB = 6;
    /** ...or once it has waited this many frames (3 s). */
    static final int MAX_PENDING_FRAMES = 300;

    private final double[] levels = new double[WINDOW_FRAMES];
    private final double[] sorted = new double[WINDOW_FRAMES];
    private int count;
    private int next;
    private int sinceJudged;
    private boolean judged;
    private boolean steady;
    private double spreadDb = Double.NaN;
    private double floorDbfs = Double.NaN;
    private double quietCeilingDbfs = Double.NaN;
    private int quietRun;
    private int pending;

    /**
     * Adds the level of a frame that nothing played into (playback's echo and what the canceller leaves of it vary as
     * speech does); returns whether {@link #steady()} changed with it.
     */
    boolean add(double levelDbfs) {
        levels[next] = levelDbfs;
        next = (next + 1) % WINDOW_FRAMES;
        count = Math.min(count + 1, WINDOW_FRAMES);
        quietRun = levelDbfs <= quietCeilingDbfs ? quietRun + 1 : 0;
        if (++sinceJudged >= EVERY_FRAMES && count >= MIN_FRAMES) {
            judge();
        }
        if (judged == steady) {
            pending = 0;
            return false;
        }
        if (++pending < MAX_PENDING_FRAMES && quietRun < QUIET_RUN_FRAMES) {
            return false;
        }
        steady = judged;
        pending = 0;
        return true;
    }

    private void judge() {
        sinceJudged = 0;
        System.arraycopy(levels, 0, sorted, 0, count);
        Arrays.sort(sorted, 0, count);
        floorDbfs = sorted[count * LOW_PERCENT / 100];
        spreadDb = sorted[count * HIGH_PERCENT / 100] - floorDbfs;
        quietCeilingDbfs = sorted[count / 2] + QUIET_MARGIN_DB;
        // the frames just before, against the new ceiling (the first judgement may be put out at once)
        quietRun = 0;
        for (int k = 1; k <= Math.min(count, QUIET_RUN_FRAMES) && levels[Math.floorMod(next - k, WINDOW_FRAMES)]
                <= quietCeilingDbfs; k++) {
            quietRun++;
        }
        if (floorDbfs < AUDIBLE_DBFS || spreadDb > UNSTEADY_DB) {
            judged = false;
        } else if (spreadDb <= (count < FULL_FRAMES ? EARLY_STEADY_DB : STEADY_DB)) {
            judged = true;
        }
    }

    /**
     * Whether the front end should treat the noise as steady and audible: the judgement, once a quiet moment came
     * after it changed (false until {@value #MIN_FRAMES} frames are known).
     */
    boolean steady() {
        return steady;
    }

    /** The judgement itself, which {@link #steady()} follows at the next quiet moment. */
    boolean judgedSteady() {
        return judged;
    }

    /** The spread last measured, dB (NaN before the first judgement). */
    double spreadDb() {
        return spreadDb;
    }

    /** The noise's level last measured (its {@value #LOW_PERCENT}th percentile), dBFS (NaN before). */
    double floorDbfs() {
        return floorDbfs;
    }
}
