package dev.parley.engine.backend.cuda;

import java.util.BitSet;

/**
 * Hands out the fixed-size blocks of a paged KV cache (block ids {@code 0 .. blocks - 1}) to sequences and takes them
 * back. Plain bookkeeping on the host; the device holds the blocks' contents. Not thread-safe.
 */
public final class KvBlockPool {

    private final int blocks;
    private final BitSet used;
    private int inUse;

    public KvBlockPool(int blocks) {
        if (blocks < 1) {
            throw new IllegalArgumentException("expected at least 1 KV block but found " + blocks);
        }
        this.blocks = blocks;
        this.used = new BitSet(blocks);
    }

    /** All blocks. */
    public int capacity() { return blocks; }

    /** Blocks not handed out. */
    public int available() { return blocks - inUse; }

    /**
     * A free block, now in use (the lowest free id).
     *
     * @throws IllegalStateException when every block is in use
     */
    public int allocate() {
        int b = used.nextClearBit(0);
        if (b >= blocks) {
            throw new IllegalStateException("KV cache full: expected a free block of " + blocks + " but found none");
        }
        used.set(b);
        inUse++;
        return b;
    }

    /**
     * Returns {@code block} to the pool.
     *
     * @throws IllegalArgumentException when it is not a block of this pool in use
     */
    public void free(int block) {
        if (block < 0 || block >= blocks || !used.get(block)) {
            throw new IllegalArgumentException("expected a block in use from 0 to " + (blocks - 1) + " but found " + block);
        }
        used.clear(block);
        inUse--;
    }
}
