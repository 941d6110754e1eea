package dev.parley.audio;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A one-way flag that a stage polls, or subscribes to, to stop work early: the voice pipeline
 * cancels the current reply's signal on barge-in. Thread-safe; cancelling twice is harmless.
 */
public final class CancellationSignal {
    private volatile boolean cancelled;
    private final List<Runnable> callbacks = new CopyOnWriteArrayList<>();

    /** Whether {@link #cancel()} was called. */
    public boolean isCancelled() {
        return cancelled;
    }

    /** Cancels and runs the registered callbacks once (on the calling thread). */
    public void cancel() {
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
        }
        for (Runnable r : callbacks) {
            r.run();
        }
    }

    /** Runs {@code callback} when cancelled, or at once if already cancelled. */
    public void onCancel(Runnable callback) {
        boolean runNow;
        synchronized (this) {
            runNow = cancelled;
            if (!runNow) {
                callbacks.add(callback);
            }
        }
        if (runNow) {
            callback.run();
        }
    }
}
