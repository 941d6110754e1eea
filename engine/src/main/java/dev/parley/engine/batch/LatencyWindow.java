package dev.parley.engine.batch;

import java.util.Arrays;

/** The last {@code capacity} samples of a latency, in nanoseconds, for percentiles. Not thread-safe. */
final class LatencyWindow {
    private final long[] samples;
    private int next;
    private int count;

    LatencyWindow(int capacity) {
        samples = new long[capacity];
    }

    void add(long nanos) {
        samples[next] = nanos;
        next = (next + 1) % samples.length;
        count = Math.min(count + 1, samples.length);
    }

    LatencyStats stats() {
        if (count == 0) {
            return LatencyStats.EMPTY;
        }
        long[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        double sum = 0;
        for (long s : sorted) {
            sum += s;
        }
        return new LatencyStats(count, percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6,
                sum / count / 1e6);
    }

    /** Nearest-rank percentile. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
