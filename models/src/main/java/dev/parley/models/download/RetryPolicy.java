package dev.parley.models.download;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Bounded retries with exponential back-off and jitter: attempt {@code n} (1-based) failing waits
 * {@code min(maxDelay, baseDelay * 2^(n-1))}, reduced by a random fraction up to {@code jitter}, before attempt
 * {@code n+1}. A server's {@code Retry-After} raises the wait (capped at {@code maxDelay}).
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay, double jitter) {

    /** 5 attempts, 1 s doubling up to 30 s, up to 50% jitter. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofSeconds(30), 0.5);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("expected maxAttempts >= 1 but found " + maxAttempts);
        }
        if (baseDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("expected non-negative delays but found " + baseDelay + ", " + maxDelay);
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("expected jitter in [0, 1] but found " + jitter);
        }
    }

    /** No waiting between attempts (tests). */
    public static RetryPolicy immediate(int maxAttempts) {
        return new RetryPolicy(maxAttempts, Duration.ZERO, Duration.ZERO, 0);
    }

    /** The wait after failed attempt {@code attempt} (1-based); {@code random} yields values in [0, 1). */
    public Duration delayAfter(int attempt, Duration retryAfter, DoubleSupplier random) {
        long base = baseDelay.toMillis();
        long max = maxDelay.toMillis();
        int shift = Math.min(Math.max(attempt - 1, 0), 30);
        long exp = base > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : base << shift;
        long capped = Math.min(max, exp);
        long jittered = Math.round(capped * (1 - jitter * random.getAsDouble()));
        if (retryAfter != null && !retryAfter.isNegative()) {
            jittered = Math.max(jittered, Math.min(max, retryAfter.toMillis()));
        }
        return Duration.ofMillis(jittered);
    }
}
