package dev.parley.engine.backend;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed set of daemon threads that split a range of work with the calling thread: slice 0 runs
 * on the caller, slice i on worker i. Nothing is allocated per call. One call at a time.
 */
final class WorkerPool implements AutoCloseable {

    /** Work on the half-open range {@code [from, to)}. */
    @FunctionalInterface
    interface RangeTask {
        void run(int from, int to);
    }

    private static final int SPINS = 20_000;

    private final int threads;
    private final Thread[] workers;
    private volatile long generation;
    private volatile boolean closed;
    private volatile RangeTask task;
    private volatile int size;
    private volatile Thread caller;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile Throwable failure;

    WorkerPool(int threads, String name) {
        this.threads = threads;
        this.workers = new Thread[threads - 1];
        for (int i = 0; i < workers.length; i++) {
            int slice = i + 1;
            workers[i] = Thread.ofPlatform().daemon().name(name + "-" + slice).unstarted(() -> work(slice));
            workers[i].start();
        }
    }

    int threads() {
        return threads;
    }

    /** Runs {@code task} over {@code [0, n)} split into contiguous slices, one per thread; returns when all are done. */
    synchronized void parallelFor(int n, RangeTask task) {
        if (closed) {
            throw new IllegalStateException("expected an open backend but found it closed");
        }
        if (workers.length == 0 || n < 2) {
            task.run(0, n);
            return;
        }
        this.task = task;
        this.size = n;
        this.caller = Thread.currentThread();
        this.failure = null;
        pending.set(workers.length);
        generation++;
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
        Throwable own = null;
        try {
            task.run(0, end(0, n));
        } catch (Throwable t) {
            own = t;
        }
        int spins = 0;
        while (pending.get() != 0) {
            if (++spins < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
            }
        }
        this.task = null;
        Throwable t = own != null ? own : failure;
        if (t instanceof RuntimeException e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        } else if (t != null) {
            throw new IllegalStateException(t);
        }
    }

    private int end(int slice, int n) {
        return (int) ((long) n * (slice + 1) / threads);
    }

    private void work(int slice) {
        long seen = 0;
        while (true) {
            int spins = 0;
            while (generation == seen) {
                if (closed) {
                    return;
                }
                if (++spins < SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(this);
                }
            }
            seen = generation;
            int n = size;
            try {
                int from = (int) ((long) n * slice / threads);
                task.run(from, end(slice, n));
            } catch (Throwable t) {
                failure = t;
            }
            if (pending.decrementAndGet() == 0) {
                LockSupport.unpark(caller);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
    }
}
