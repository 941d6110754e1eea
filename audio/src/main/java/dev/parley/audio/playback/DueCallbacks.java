package dev.parley.audio.playback;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A sink's markers whose audio is still sounding: each callback runs, in order, once the clock ({@link
 * System#nanoTime()}) has reached the moment what was written before it ends, on the thread that calls {@link
 * #runDue} (the sink's writer, which goes on writing meanwhile); a stop takes the rest ({@link #drain}) and runs them at
 * once. Thread-safe; callbacks never run under its lock.
 */
public final class DueCallbacks {
    private record Due(Runnable callback, long atNanos) {
    }

    private final ArrayDeque<Due> due = new ArrayDeque<>();

    /** {@code callback} runs once the clock reaches {@code atNanos} (no earlier than those added before it). */
    public synchronized void add(Runnable callback, long atNanos) {
        due.addLast(new Due(callback, atNanos));
    }

    /** Runs the callbacks whose moment has come, oldest first. */
    public void runDue() {
        while (true) {
            Due d;
            synchronized (this) {
                d = due.peekFirst();
                if (d == null || d.atNanos() > System.nanoTime()) {
                    return;
                }
                due.removeFirst();
            }
            d.callback().run();
        }
    }

    /** How long to wait at most: {@code maxNanos}, or less, until the next callback is due. */
    public synchronized long untilDue(long maxNanos) {
        Due d = due.peekFirst();
        return d == null ? maxNanos : Math.max(0, Math.min(maxNanos, d.atNanos() - System.nanoTime()));
    }

    /** Takes every callback still waiting (a stop: they are to run at once), oldest first. */
    public synchronized List<Runnable> drain() {
        List<Runnable> all = new ArrayList<>(due.size());
        for (Due d : due) {
            all.add(d.callback());
        }
        due.clear();
        return all;
    }
}
