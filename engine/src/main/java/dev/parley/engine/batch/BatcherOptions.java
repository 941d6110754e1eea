package dev.parley.engine.batch;

import java.util.Objects;

/**
 * How a {@link Batcher} runs.
 *
 * @param maxRunning       most sequences in the running set (and decode rows per step)
 * @param stepTokens       most rows (decode tokens plus prompt tokens) in one step
 * @param kvMemoryBytes    budget of the KV block pool in bytes; the pool has {@code kvMemoryBytes / bytesPerBlock}
 *                         blocks
 * @param blockSize        positions per KV block
 * @param maxQueue         most requests waiting for admission; {@link Batcher#submit} refuses more
 * @param contextLength    most positions of one sequence (prompt and generated)
 * @param policy           continuous or static batching
 * @param reuseCache       keep conversations' caches between turns and share full prompt blocks between
 *                         sequences (off only for baselines)
 * @param recomputeHistory the no-KV-cache baseline: after every new token the whole history is recomputed
 */
public record BatcherOptions(int maxRunning, int stepTokens, long kvMemoryBytes, int blockSize, int maxQueue,
                             int contextLength, SchedulingPolicy policy, boolean reuseCache,
                             boolean recomputeHistory) {

    /** Default positions per block: small enough that a sequence wastes under 16 positions. */
    public static final int DEFAULT_BLOCK_SIZE = 16;

    public BatcherOptions {
        Objects.requireNonNull(policy, "policy");
        if (maxRunning < 1) {
            throw new IllegalArgumentException("expected at least 1 running sequence but found " + maxRunning);
        }
        if (stepTokens < maxRunning) {
            throw new IllegalArgumentException("expected step tokens >= max running sequences (" + maxRunning
                    + ") so every running sequence can decode in each step, but found " + stepTokens);
        }
        if (blockSize < 1 || blockSize > 4096) {
            throw new IllegalArgumentException("expected a block size from 1 to 4096 positions but found "
                    + blockSize);
        }
        if (kvMemoryBytes < 1) {
            throw new IllegalArgumentException("expected a positive KV memory budget but found " + kvMemoryBytes);
        }
        if (maxQueue < 0) {
            throw new IllegalArgumentException("expected a queue bound >= 0 but found " + maxQueue);
        }
        if (contextLength < 2) {
            throw new IllegalArgumentException("expected a context length of at least 2 but found " + contextLength);
        }
    }

    /**
     * Continuous batching with reuse: {@code maxRunning} sequences, steps of {@code stepTokens} rows, a pool of
     * {@code kvMemoryBytes}, blocks of {@link #DEFAULT_BLOCK_SIZE}, a queue of 256.
     */
    public static BatcherOptions of(int maxRunning, int stepTokens, long kvMemoryBytes, int contextLength) {
        return new BatcherOptions(maxRunning, stepTokens, kvMemoryBytes, DEFAULT_BLOCK_SIZE, 256, contextLength,
                SchedulingPolicy.CONTINUOUS, true, false);
    }

    public BatcherOptions withPolicy(SchedulingPolicy p) {
        return new BatcherOptions(maxRunning, stepTokens, kvMemoryBytes, blockSize, maxQueue, contextLength, p,
                reuseCache, recomputeHistory);
    }

    public BatcherOptions withQueue(int bound) {
        return new BatcherOptions(maxRunning, stepTokens, kvMemoryBytes, blockSize, bound, contextLength, policy,
                reuseCache, recomputeHistory);
    }

    public BatcherOptions withBlockSize(int size) {
        return new BatcherOptions(maxRunning, stepTokens, kvMemoryBytes, size, maxQueue, contextLength, policy,
                reuseCache, recomputeHistory);
    }

    /** The no-KV-cache baseline (implies no reuse). */
    public BatcherOptions withRecomputeHistory(boolean recompute) {
        return new BatcherOptions(maxRunning, stepTokens, kvMemoryBytes, blockSize, maxQueue, contextLength, policy,
                reuseCache && !recompute, recompute);
    }

    public BatcherOptions withReuseCache(boolean reuse) {
        return new BatcherOptions(maxRunning, stepTokens, kvMemoryBytes, blockSize, maxQueue, contextLength, policy,
                reuse, recomputeHistory);
    }
}
