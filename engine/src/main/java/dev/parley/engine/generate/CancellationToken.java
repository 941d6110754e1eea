package dev.parley.engine.generate;

/**
 * A flag one thread raises to stop work running on another (for example a barge-in stopping a
 * generation). The generator checks it before every step. Once cancelled it stays cancelled.
 */
public final class CancellationToken {
    private volatile boolean cancelled;

    /** Asks the work to stop at its next check. */
    public void cancel() {
        cancelled = true;
    }

    /** True once {@link #cancel()} has been called. */
    public boolean isCancelled() {
        return cancelled;
    }
}
