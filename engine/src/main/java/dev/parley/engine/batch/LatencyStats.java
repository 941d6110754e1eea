package dev.parley.engine.batch;

/**
 * Percentiles of one latency over a window of recent samples.
 *
 * @param count      samples in the window
 * @param p50Millis  median in milliseconds (0 with no samples)
 * @param p99Millis  99th percentile in milliseconds (0 with no samples)
 * @param meanMillis mean in milliseconds (0 with no samples)
 */
public record LatencyStats(int count, double p50Millis, double p99Millis, double meanMillis) {

    public static final LatencyStats EMPTY = new LatencyStats(0, 0, 0, 0);
}
