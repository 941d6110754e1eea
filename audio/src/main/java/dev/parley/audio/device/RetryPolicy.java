package dev.parley.audio.device;

/**
 * How often a device that failed is tried again: first after {@code firstMillis}, then twice as long each time, never
 * longer than {@code maxMillis}.
 */
public record RetryPolicy(long firstMillis, long maxMillis) {
    public RetryPolicy {
        if (firstMillis <= 0 || maxMillis < firstMillis) {
            throw new IllegalArgumentException("expected 0 < first <= max retry delay but found first " + firstMillis
                    + " ms, max " + maxMillis + " ms");
        }
    }

    /** 250 ms, doubling up to 2 s: a plugged-in device is back within about two seconds. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(250, 2000);
    }

    /** The wait after one of {@code previous} ms (0 for the first). */
    public long next(long previous) {
        return previous <= 0 ? firstMillis : Math.min(maxMillis, previous * 2);
    }
}
