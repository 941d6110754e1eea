package dev.parley.engine.backend;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed set of daemon threads that share a range of work with the calling thread. The range is
 * cut into a few chunks per thread, claimed one at a time, so that when a worker is not scheduled
 * (a busy machine) the others, caller included, take over its share instead of waiting for it.
 * Nothing is allocated per call. One call at a time.
 */
final class WorkerPool implements AutoCloseable {


    private static final int CHUNKS_PER_THREAD = 4;
    private static final int SPINS = 4_000;

    private final int threads;
    private final Thread[] workers;
    /** High 32 bits: the call's generation; low 32 bits: chunks not yet claimed. */
    private final AtomicLong cursor = new AtomicLong();
    private final AtomicInteger done = new AtomicInteger();
    private volatile boolean closed;
    private volatile ParallelTask task;
    private volatile int size;
    private volatile int chunks;
    private volatile Thread caller;
    private volatile Throwable failure;
    private int generation;

    WorkerPool(int threads, String name) {
        this.threads = threads;
        this.workers = new Thread[threads - 1];
        for (int w = 0; w < workers.length; w++) {
            int i = w;
            workers[i] = Thread.ofPlatform().daemon().name(name + "-" + (i + 1)).unstarted(() -> work(i + 1));
            workers[i].start();
        }
    }

    int threads() {
        return threads;
    }

    /** Runs {@code task} over {@code [0, n)} cut into chunks; returns when every chunk is done. */
    synchronized void parallelFor(int n, ParallelTask task) {
        if (closed) {
            throw new IllegalStateException("expected an open backend but found it closed");
        }
        if (workers.length == 0 || n < 2) {
            task.run(0, n, 0);
            return;
        }
        int count = Math.min(n, threads * CHUNKS_PER_THREAD);
        this.task = task;
        this.size = n;
        this.chunks = count;
        this.caller = Thread.currentThread();
        this.failure = null;
        done.set(0);
        generation++;
        long g = (long) generation << 32;
        cursor.set(g | count);
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
        runChunks(g, 0);
        int spins = 0;
        while (done.get() != count) {
            if (++spins < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
            }
        }
        this.task = null;
        Throwable t = failure;
        if (t instanceof RuntimeException e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        } else if (t != null) {
            throw new IllegalStateException(t);
        }
    }

    /** Claims and runs chunks of the call of generation {@code g} until none is left. */
    private void runChunks(long g, int thread) {
        while (true) {
            long c = cursor.get();
            int left = (int) c;
            if ((c & 0xffffffff00000000L) != g || left == 0) {
                return;
            }
            if (!cursor.compareAndSet(c, c - 1)) {
                continue;
            }
            // The call cannot finish before this chunk is done, so its fields are still current.
            int count = chunks;
            int n = size;
            int chunk = count - left;
            try {
                task.run((int) ((long) n * chunk / count), (int) ((long) n * (chunk + 1) / count), thread);
            } catch (Throwable t) {
                failure = t;
            }
            if (done.incrementAndGet() == count) {
                LockSupport.unpark(caller);
            }
        }
    }

    private void work(int thread) {
        long seen = 0;
        while (!closed) {
            long c = cursor.get();
            long g = c & 0xffffffff00000000L;
            if (g != seen && (int) c > 0) {
                seen = g;
                runChunks(g, thread);
                continue;
            }
            int spins = 0;
            while (cursor.get() == c && !closed) {
                if (++spins < SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(this);
                }
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
