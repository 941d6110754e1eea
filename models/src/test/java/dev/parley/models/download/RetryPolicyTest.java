package dev.parley.models.download;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private final RetryPolicy policy = new RetryPolicy(6, Duration.ofSeconds(1), Duration.ofSeconds(30), 0.5);

    @Test
    void delaysDoubleUpToTheCap() {
        assertEquals(Duration.ofSeconds(1), policy.delayAfter(1, null, () -> 0));
        assertEquals(Duration.ofSeconds(2), policy.delayAfter(2, null, () -> 0));
        assertEquals(Duration.ofSeconds(16), policy.delayAfter(5, null, () -> 0));
        assertEquals(Duration.ofSeconds(30), policy.delayAfter(6, null, () -> 0));
        assertEquals(Duration.ofSeconds(30), policy.delayAfter(60, null, () -> 0), "no overflow");
    }

    @Test
    void jitterShortensByAtMostItsFraction() {
        assertEquals(Duration.ofMillis(2000), policy.delayAfter(2, null, () -> 0.0));
        assertEquals(Duration.ofMillis(1500), policy.delayAfter(2, null, () -> 0.5));
        assertEquals(Duration.ofMillis(1001), policy.delayAfter(2, null, () -> 0.999));
    }

    @Test
    void retryAfterRaisesTheDelayButNotPastTheCap() {
        assertEquals(Duration.ofSeconds(10), policy.delayAfter(1, Duration.ofSeconds(10), () -> 0));
        assertEquals(Duration.ofSeconds(30), policy.delayAfter(1, Duration.ofHours(1), () -> 0));
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO, 0));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 1.5));
    }
}
