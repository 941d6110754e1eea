package dev.parley.engine.backend.cuda;

import java.util.Arrays;

/**
 * One sequence's block table: the ids of the pool blocks holding its positions {@code 0, blockSize, 2 blockSize ...}.
 * Grows on demand from a {@link KvBlockPool}; {@link #release} gives every block back. Not thread-safe.
 */
public final class BlockTable {

    private final KvBlockPool pool;
    private final int blockSize;
    private int[] ids = new int[4];
    private int size;

    public BlockTable(KvBlockPool pool, int blockSize) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("expected a block size of at least 1 but found " + blockSize);
        }
        this.pool = pool;
        this.blockSize = blockSize;
    }

    /**
     * Makes room for positions {@code 0 .. positions - 1}, taking blocks from the pool as needed.
     *
     * @throws IllegalStateException when the pool runs out (the blocks taken so far stay in the table)
     */
    public void reserve(int positions) {
        int need = (positions + blockSize - 1) / blockSize;
        while (size < need) {
            if (size == ids.length) {
                ids = Arrays.copyOf(ids, ids.length * 2);
            }
            ids[size] = pool.allocate();
            size++;
        }
    }

    /** Positions the table has room for. */
    public int capacity() { return size * blockSize; }

    /** Number of blocks. */
    public int blocks() { return size; }

    /** The block ids, in position order (a copy). */
    public int[] ids() { return Arrays.copyOf(ids, size); }

    /** Gives every block back to the pool; the table is empty afterwards. */
    public void release() {
        for (int i = 0; i < size; i++) {
            pool.free(ids[i]);
        }
        size = 0;
    }
}
