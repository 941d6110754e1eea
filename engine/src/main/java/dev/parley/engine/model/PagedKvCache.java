package dev.parley.engine.model;

/**
 * One sequence's view of a shared pool of KV positions cut into fixed-size blocks (PagedAttention):
 * logical position p lives in physical slot {@code table[p / blockSize] * blockSize + p % blockSize}
 * of the pool. The pool is an ordinary {@link KvCache} (F32, F16 or int8) sized for every block, so
 * all storage formats and their kernels serve paged sequences unchanged.
 *
 * <p>The table is the caller's array and is read on every access, so the caller may append blocks to
 * it between steps; {@link #reset} points the view at another table.
 */
public final class PagedKvCache implements KvCache {

    private final KvCache pool;
    private final int blockSize;
    private int[] table;
    private int blocks;

    /**
     * @throws IllegalArgumentException when the pool's capacity is not a whole number of blocks
     */
    public PagedKvCache(KvCache pool, int blockSize) {
        if (blockSize < 1 || pool.capacity() % blockSize != 0) {
            throw new IllegalArgumentException("expected a pool of whole blocks of " + blockSize
                    + " positions but found a capacity of " + pool.capacity());
        }
        this.pool = pool;
        this.blockSize = blockSize;
        this.table = new int[0];
    }

    /** Uses blocks {@code table[0 .. blocks)} from now on. */
    public PagedKvCache reset(int[] table, int blocks) {
        this.table = table;
        this.blocks = blocks;
        return this;
    }

    private int slot(int position) {
        int b = position / blockSize;
        if (position < 0 || b >= blocks) {
            throw new IndexOutOfBoundsException("position " + position + " is outside the sequence's "
                    + blocks + " blocks of " + blockSize);
        }
        return table[b] * blockSize + position % blockSize;
    }

    /** The pool's bytes: a view owns none. */
    @Override
    public long bytes() { return 0; }

    @Override
    public int layers() { return pool.layers(); }

    /** Positions the current table covers. */
    @Override
    public int capacity() { return blocks * blockSize; }

    @Override
    public int kvDim() { return pool.kvDim(); }

    @Override
    public void store(int layer, int position, float[] k, int kOffset, float[] v, int vOffset) {
        pool.store(layer, slot(position), k, kOffset, v, vOffset);
    }

    @Override
    public float keyDot(int layer, int position, int offset, float[] q, int qOffset, int length) {
        return pool.keyDot(layer, slot(position), offset, q, qOffset, length);
    }

    @Override
    public void read(int layer, int position, int n, int offset, int length, float[] keysT, int stride,
                     float[] values, int at) {
        int done = 0;
        while (done < n) {
            int p = position + done;
            int run = Math.min(n - done, blockSize - p % blockSize); // slots are contiguous within a block
            pool.read(layer, slot(p), run, offset, length, keysT, stride, values, at + done);
            done += run;
        }
    }

    @Override
    public void addValue(int layer, int position, int offset, float weight, float[] out, int outOffset, int length) {
        pool.addValue(layer, slot(position), offset, weight, out, outOffset, length);
    }
}
