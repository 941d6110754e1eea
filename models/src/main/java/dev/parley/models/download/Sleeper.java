package dev.parley.models.download;

import java.time.Duration;

/** Waits between retries; tests pass one that records the delays instead of sleeping. */
@FunctionalInterface
public interface Sleeper {
    /** Really sleeps. */
    Sleeper SYSTEM = d -> Thread.sleep(d);

    void sleep(Duration delay) throws InterruptedException;
}
