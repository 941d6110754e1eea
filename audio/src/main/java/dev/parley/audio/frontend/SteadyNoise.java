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
 * {@value #AUDIBLE_DBFS} dBFS (its {@value #LOW_PERCENT}th percentile): below that it costs the recognizer nothing, and
 * a quiet room's steady hiss is no reason to process the voice.
 *
 * <p>Not thread-safe: the front end's capture thread feeds it.
 */
final class SteadyNoise {
    /** Frames (10 ms) the judgement looks back over: 5 s. */
    static final int WINDOW_FRAMES = 500;
    /** Frames needed before anything is judged steady: 3 s. */
    static final int MIN_FRAMES = 300;
    /** The judgement is made again every this many frames (250 ms). */
    static final int EVERY_FRAMES = 25;
    static final int LOW_PERCENT = 5;
    static final int HIGH_PERCENT = 30;
    /** At or below this spread the noise becomes steady... */
    static final double STEADY_DB = 2.4;
    /** ...and above this it is no longer (between the two it stays as it was, so that it does not flap). */
    static final double UNSTEADY_DB = 2.8;
    /** Steady noise below this level (dBFS) is left alone. */
    static final double AUDIBLE_DBFS = -60;

    private final double[] levels = new double[WINDOW_FRAMES];
    private final double[] sorted = new double[WINDOW_FRAMES];
    private int count;
    private int next;
    private int sinceJudged;
    private boolean steady;
    private double spreadDb = Double.NaN;
    private double floorDbfs = Double.NaN;

    /**
     * Adds the level of a frame that nothing played into (playback's echo and what the canceller leaves of it vary as
     * speech does); returns whether the judgement changed with it.
     */
    boolean add(double levelDbfs) {
        levels[next] = levelDbfs;
        next = (next + 1) % WINDOW_FRAMES;
        count = Math.min(count + 1, WINDOW_FRAMES);
        if (++sinceJudged < EVERY_FRAMES || count < MIN_FRAMES) {
            return false;
        }
        sinceJudged = 0;
        System.arraycopy(levels, 0, sorted, 0, count);
        Arrays.sort(sorted, 0, count);
        floorDbfs = sorted[count * LOW_PERCENT / 100];
        spreadDb = sorted[count * HIGH_PERCENT / 100] - floorDbfs;
        boolean was = steady;
        if (floorDbfs < AUDIBLE_DBFS || spreadDb > UNSTEADY_DB) {
            steady = false;
        } else if (spreadDb <= STEADY_DB) {
            steady = true;
        }
        return steady != was;
    }

    /** Whether the noise is steady and audible, as last judged (false until {@value #MIN_FRAMES} frames are known). */
    boolean steady() {
        return steady;
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
