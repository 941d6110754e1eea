package dev.parley.audio;

import java.util.ArrayDeque;

/**
 * The level the room sits at: the median of the frame levels over the last seconds, and a short-term level to set
 * against it. A bed of other voices (a café) keeps the Silero VAD in "speech" and gives a grammar-limited recognizer
 * words ("one"), but it sits at its own median level, while a user speaking to the microphone stands well above it
 * for as long as a syllable. The median (not the minimum) follows a bed that fluctuates, and a user's question of a
 * second or two in a window of {@value #DEFAULT_WINDOW_MILLIS} ms does not move it much.
 *
 * <p>Levels are counted in 0.5 dB bins from {@link LevelMeter#SILENCE_DBFS} to 0 dBFS, weighted by duration, so frames
 * of any length count alike. Not thread-safe: the listen loop's thread uses it.
 */
public final class NoiseFloor {
    /** How much history the floor is the median of. */
    public static final int DEFAULT_WINDOW_MILLIS = 6000;
    /** The short-term level is a mean over about this long. */
    static final double SHORT_MILLIS = 150;
    /** The recent level is the mean energy of the frames of about the last this long (a box, not a decay). */
    static final double RECENT_MILLIS = 100;
    /** The floor gates nothing before it has this much history. */
    static final double MIN_HISTORY_MILLIS = 1000;
    private static final double BIN_DB = 0.5;
    private static final int BINS = (int) (-LevelMeter.SILENCE_DBFS / BIN_DB) + 1;

    private final double windowMillis;
    private final double lagMillis;
    /** Background frames not yet counted (level, ms), oldest first, and how long they last together. */
    private final ArrayDeque<double[]> lagging = new ArrayDeque<>();
    private double laggingMillis;
    private final double[] millisPerBin = new double[BINS];
    private final ArrayDeque<double[]> frames = new ArrayDeque<>();
    private double totalMillis;
    private double shortEnergy;
    private boolean started;
    /** The last frames' energy and length, newest last, spanning about {@link #RECENT_MILLIS}. */
    private final ArrayDeque<double[]> recent = new ArrayDeque<>();
    private double recentEnergyMillis;
    private double recentMillis;

    public NoiseFloor(int windowMillis) {
        this(windowMillis, 0);
    }

    /**
     * @param lagMillis background frames count towards the floor only this long after they were heard, unless {@link
     *                  #forgetLagging} drops them first: the listen loop knows a turn has started only once the VAD
     *                  has heard some of it, and the onset before that is the user's voice, not the room
     */
    public NoiseFloor(int windowMillis, int lagMillis) {
        if (windowMillis <= 0 || lagMillis < 0) {
            throw new IllegalArgumentException("expected a positive window and a lag of 0 or more in ms but found "
                    + windowMillis + " and " + lagMillis);
        }
        this.windowMillis = windowMillis;
        this.lagMillis = lagMillis;
    }

    /**
     * One frame: its level (dBFS) and how long it lasts; {@code background}: whether it counts towards the floor
     * (the loop leaves out the user's own turns, which would otherwise raise the floor to their voice).
     */
    public void add(double levelDbfs, double millis, boolean background) {
        double energy = Math.pow(10, levelDbfs / 10);
        double a = Math.min(1, millis / SHORT_MILLIS);
        shortEnergy = started ? shortEnergy + a * (energy - shortEnergy) : energy;
        started = true;
        recent.addLast(new double[] {energy, millis});
        recentEnergyMillis += energy * millis;
        recentMillis += millis;
        while (recentMillis - recent.peekFirst()[1] >= RECENT_MILLIS) {
            double[] old = recent.removeFirst();
            recentEnergyMillis -= old[0] * old[1];
            recentMillis -= old[1];
        }
        if (!background) {
            return;
        }
        lagging.addLast(new double[] {levelDbfs, millis});
        laggingMillis += millis;
        while (!lagging.isEmpty() && laggingMillis - lagging.peekFirst()[1] >= lagMillis) {
            double[] f = lagging.removeFirst();
            laggingMillis -= f[1];
            count(f[0], f[1]);
        }
    }

    /**
     * A frame heard earlier, found since to have been the room's (a turn of a bed of voices begun before the room was
     * known): it counts towards the floor now, and not towards the short-term or recent level.
     */
    public void addLater(double levelDbfs, double millis) {
        count(levelDbfs, millis);
    }

    /** Drops the background frames of the last lag, not yet counted: they were the onset of a turn. */
    public void forgetLagging() {
        lagging.clear();
        laggingMillis = 0;
    }

    private void count(double levelDbfs, double millis) {
        int bin = bin(levelDbfs);
        frames.addLast(new double[] {bin, millis});
        millisPerBin[bin] += millis;
        totalMillis += millis;
        while (totalMillis - frames.peekFirst()[1] >= windowMillis) {
            double[] old = frames.removeFirst();
            millisPerBin[(int) old[0]] -= old[1];
            totalMillis -= old[1];
        }
    }

    /** The median level of the window, dBFS ({@link LevelMeter#SILENCE_DBFS} before any frame). */
    public double floorDbfs() {
        return percentileDbfs(0.5);
    }

    /**
     * The level that {@code fraction} of the window's time lies below, dBFS ({@link LevelMeter#SILENCE_DBFS} before any
     * frame): 0.5 is the floor, 0.95 the room's loud moments (a bed of voices peaks well above its median).
     */
    public double percentileDbfs(double fraction) {
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("expected a fraction strictly between 0 and 1 but found " + fraction);
        }
        double part = totalMillis * fraction;
        double seen = 0;
        for (int b = 0; b < BINS; b++) {
            seen += millisPerBin[b];
            if (seen > part && seen > 0) {
                return LevelMeter.SILENCE_DBFS + b * BIN_DB;
            }
        }
        return LevelMeter.SILENCE_DBFS;
    }

    /** How much history the window holds, ms (at most about the window). */
    public double historyMillis() {
        return totalMillis;
    }

    /** The level over the last {@value #SHORT_MILLIS} ms or so, dBFS. */
    public double shortTermDbfs() {
        return shortEnergy > 0 ? Math.max(LevelMeter.SILENCE_DBFS, 10 * Math.log10(shortEnergy)) : LevelMeter.SILENCE_DBFS;
    }

    /**
     * The mean level of the last {@value #RECENT_MILLIS} ms or so, dBFS: unlike {@link #shortTermDbfs} it falls to the
     * room's within that time once a voice stops (the short-term decay takes about 400 ms to fall 18 dB).
     */
    public double recentDbfs() {
        return recentEnergyMillis > 0
                ? Math.max(LevelMeter.SILENCE_DBFS, 10 * Math.log10(recentEnergyMillis / recentMillis))
                : LevelMeter.SILENCE_DBFS;
    }

    /**
     * How far the short-term level stands above the floor, dB; infinite while the floor has less than
     * {@value #MIN_HISTORY_MILLIS} ms of history (speech at the very start stands out of nothing yet known).
     */
    public double aboveFloorDb() {
        return totalMillis < MIN_HISTORY_MILLIS ? Double.POSITIVE_INFINITY : shortTermDbfs() - floorDbfs();
    }

    private static int bin(double levelDbfs) {
        double clamped = Math.max(LevelMeter.SILENCE_DBFS, Math.min(0, levelDbfs));
        return (int) Math.round((clamped - LevelMeter.SILENCE_DBFS) / BIN_DB);
    }
}
