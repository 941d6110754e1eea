package dev.parley.audio.frontend;

import java.util.Arrays;

/**
 * What the audio front end cost per 10 ms frame: a histogram of the thread time each {@link AudioFrontEnd#process}
 * call took, shared out over the frames it put out, in {@value #BUCKET_MICROS} us buckets up to {@value #TOP_MICROS}
 * us (longer ones in the last bucket). Mutable only through {@link #add}, on the one thread that processes; read it
 * through a {@link #copy()}.
 */
public final class FrameCost {
    /** Bucket width, microseconds. */
    public static final int BUCKET_MICROS = 10;
    /** The top of the histogram, microseconds: two frames' worth of real time. */
    public static final int TOP_MICROS = 20_000;

    private final long[] counts;

    /** An empty histogram. */
    public FrameCost() {
        this(new long[TOP_MICROS / BUCKET_MICROS + 1]);
    }

    private FrameCost(long[] counts) {
        this.counts = counts;
    }

    /** {@code frames} frames that took {@code nanos} together. */
    public synchronized void add(long nanos, int frames) {
        if (frames <= 0) {
            return;
        }
        long each = Math.max(0, nanos) / frames / 1000 / BUCKET_MICROS;
        counts[(int) Math.min(counts.length - 1, each)] += frames;
    }

    /** A snapshot. */
    public synchronized FrameCost copy() {
        return new FrameCost(counts.clone());
    }

    /** The two histograms together, as a new one. */
    public FrameCost plus(FrameCost other) {
        long[] a = copy().counts;
        long[] b = other.copy().counts;
        for (int i = 0; i < a.length; i++) {
            a[i] += b[i];
        }
        return new FrameCost(a);
    }

    /** Frames counted. */
    public synchronized long frames() {
        return Arrays.stream(counts).sum();
    }

    /**
     * The nearest-rank percentile {@code q} (0-1] of the cost per frame, microseconds (the middle of its bucket; the
     * top bucket reads as {@value #TOP_MICROS}); 0 when nothing was counted.
     */
    public synchronized double percentileMicros(double q) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("expected a percentile in (0, 1], found " + q);
        }
        long total = frames();
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return i == counts.length - 1 ? TOP_MICROS : (i + 0.5) * BUCKET_MICROS;
            }
        }
        return TOP_MICROS;
    }
}
