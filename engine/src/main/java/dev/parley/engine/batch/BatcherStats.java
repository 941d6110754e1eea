package dev.parley.engine.batch;

import java.util.ArrayDeque;

/** Counters and latency windows of a batcher, written by its thread and read through {@link #snapshot}. */
final class BatcherStats {

    private static final long RATE_WINDOW_NANOS = 10_000_000_000L;

    private final long startNanos = System.nanoTime();
    private final LatencyWindow ttft = new LatencyWindow(1024);
    private final LatencyWindow interToken = new LatencyWindow(8192);
    private final LatencyWindow total = new LatencyWindow(1024);
    private final ArrayDeque<long[]> recent = new ArrayDeque<>(); // {end nanos, tokens} per step
    private long recentTokens;
    long steps;
    long multiSequenceSteps;
    int maxSequencesInStep;
    long promptTokens;
    long generatedTokens;
    long completed;
    long cancelled;
    long failed;
    long preempted;
    long busyNanos;
    int maxQueued;
    int peakBlocksUsed;
    long positionsHeld;
    long positionsUsed;

    synchronized void step(int sequences, int promptRows, int newTokens, long startNanos, long endNanos) {
        steps++;
        if (sequences > 1) {
            multiSequenceSteps++;
        }
        maxSequencesInStep = Math.max(maxSequencesInStep, sequences);
        promptTokens += promptRows;
        generatedTokens += newTokens;
        busyNanos += endNanos - startNanos;
        recent.addLast(new long[] {endNanos, newTokens});
        recentTokens += newTokens;
        trim(endNanos);
    }

    private void trim(long now) {
        while (!recent.isEmpty() && now - recent.peekFirst()[0] > RATE_WINDOW_NANOS) {
            recentTokens -= recent.pollFirst()[1];
        }
    }

    synchronized void blocksInUse(int n) {
        peakBlocksUsed = Math.max(peakBlocksUsed, n);
    }

    synchronized void queued(int n) {
        maxQueued = Math.max(maxQueued, n);
    }

    synchronized void firstToken(long nanos) { ttft.add(nanos); }

    synchronized void interToken(long nanos) { interToken.add(nanos); }

    synchronized void ended(long totalNanos, boolean wasCancelled) {
        total.add(totalNanos);
        if (wasCancelled) {
            cancelled++;
        } else {
            completed++;
        }
    }

    synchronized void failed() { failed++; }

    /** At a sequence's end: KV positions its blocks held and positions it really used. */
    synchronized void footprint(long held, long used) {
        positionsHeld += held;
        positionsUsed += used;
    }

    synchronized void preempted() { preempted++; }

    synchronized BatcherMetrics snapshot(int queued, int running, int used, int cachedBlocks, int free, int blocks,
                                         long bytesPerBlock) {
        long now = System.nanoTime();
        trim(now);
        double rate = 0;
        if (!recent.isEmpty()) {
            long span = Math.max(now - recent.peekFirst()[0], 1_000_000_000L);
            rate = recentTokens * 1e9 / span;
        }
        double busy = busyNanos / (double) Math.max(1, now - startNanos);
        return new BatcherMetrics(queued, maxQueued, running, used, cachedBlocks, free, blocks,
                bytesPerBlock, steps, multiSequenceSteps, maxSequencesInStep,
                promptTokens, generatedTokens, completed, cancelled, failed, preempted, rate, busy, ttft.stats(),
                interToken.stats(), total.stats(),
                positionsUsed == 0 ? 1.0 : positionsHeld / (double) positionsUsed, peakBlocksUsed);
    }
}
