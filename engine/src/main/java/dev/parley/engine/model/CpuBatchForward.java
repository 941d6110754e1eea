package dev.parley.engine.model;

/**
 * {@link BatchForward} on the CPU backends: the pool is one {@link KvCache} of the model's KV format
 * with {@code blocks * blockSize} positions, and each slot reads it through a {@link PagedKvCache}.
 */
final class CpuBatchForward implements BatchForward {

    private final Transformer transformer;
    private final SessionState state;
    private final KvCache pool;
    private final PagedKvCache[] views;
    private final int blockSize;
    private final int blocks;
    private final long bytesPerBlock;
    private final int vocab;

    CpuBatchForward(Transformer transformer, SessionState state, KvCache pool, int blockSize, int blocks,
                    int slots, long bytesPerBlock, int vocab) {
        this.transformer = transformer;
        this.state = state;
        this.pool = pool;
        this.blockSize = blockSize;
        this.blocks = blocks;
        this.bytesPerBlock = bytesPerBlock;
        this.vocab = vocab;
        this.views = new PagedKvCache[slots];
        for (int i = 0; i < slots; i++) {
            views[i] = new PagedKvCache(pool, blockSize);
        }
    }

    @Override
    public int blockSize() { return blockSize; }

    @Override
    public int blocks() { return blocks; }

    @Override
    public long bytesPerBlock() { return bytesPerBlock; }

    @Override
    public int maxRows() { return state.chunk; }

    @Override
    public int vocabSize() { return vocab; }

    /** Bytes the pool holds. */
    long poolBytes() { return pool.bytes(); }

    @Override
    public void forward(StepBatch batch, float[] logits) {
        int rows = batch.rows;
        if (rows > state.chunk) {
            throw new IllegalArgumentException("expected at most " + state.chunk + " rows per step but found " + rows);
        }
        if (batch.slotCount() > views.length) {
            throw new IllegalArgumentException("expected at most " + views.length + " sequence slots but found "
                    + batch.slotCount());
        }
        if (logits.length < (long) batch.logitCount * vocab) {
            throw new IllegalArgumentException("expected room for " + batch.logitCount + " rows of logits but found "
                    + logits.length + " floats");
        }
        if (rows == 0) {
            return;
        }
        for (int r = 0; r < rows; r++) {
            int slot = batch.slots[r];
            state.rowPositions[r] = batch.positions[r];
            state.rowCaches[r] = views[slot].reset(batch.tables[slot], batch.blockCounts[slot]);
        }
        transformer.forwardRows(batch.tokens, 0, rows, state, batch.logitRows, batch.logitCount, logits);
    }

    @Override
    public void close() {
        // Heap arrays only; the model owns the backend.
    }
}
