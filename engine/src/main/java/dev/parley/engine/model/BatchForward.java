package dev.parley.engine.model;

/**
 * Runs batched steps over a pool of paged KV blocks that it owns: every weight is read once per step
 * for all the rows of all the sequences in it, and each row attends to its own sequence's blocks.
 * {@link CpuBatchForward} is the CPU implementation; a GPU backend keeps the pool in device memory.
 */
public interface BatchForward extends AutoCloseable {

    /** Positions per block. */
    int blockSize();

    /** Blocks in the pool. */
    int blocks();

    /** Bytes of keys and values one block holds. */
    long bytesPerBlock();

    /** Most rows one step may hold. */
    int maxRows();

    /** Vocabulary size: floats per row of logits. */
    int vocabSize();

    /**
     * Runs {@code batch}, storing the keys and values of every row in its sequence's blocks, and writes
     * the logits of the wanted rows to {@code logits}, row i at {@code i * vocabSize()}.
     *
     * @throws IllegalArgumentException when the batch is larger than {@link #maxRows()} or the logits array too
     *                                  small
     */
    void forward(StepBatch batch, float[] logits);

    @Override
    void close();
}
