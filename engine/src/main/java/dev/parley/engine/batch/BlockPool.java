package dev.parley.engine.batch;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * The bookkeeping of the KV block pool (the storage belongs to the {@code BatchForward}): a reference count
 * per block, a free list, and a registry of full blocks by the content of the prefix they end, so that a
 * sequence whose prompt starts with the same tokens (a shared system prompt, an earlier turn) reuses them.
 *
 * <p>A block is <em>used</em> while some sequence or conversation holds it, <em>cached</em> when nothing holds it
 * but it is registered (reusable until evicted, least recently released first), and <em>free</em> otherwise.
 * A registered block is never written: a sequence writes only into blocks it holds alone and has unregistered.
 * Not thread-safe: the batcher's thread owns it.
 */
final class BlockPool {

    private final int blocks;
    private final int blockSize;
    private final int[] refs;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private final LinkedHashSet<Integer> cached = new LinkedHashSet<>();
    private final Map<Long, Integer> byHash = new HashMap<>();
    private final boolean[] registered;
    private final long[] hashOf;
    private final int[] parentOf;
    private final int[][] tokensOf;

    BlockPool(int blocks, int blockSize) {
        this.blocks = blocks;
        this.blockSize = blockSize;
        refs = new int[blocks];
        registered = new boolean[blocks];
        hashOf = new long[blocks];
        parentOf = new int[blocks];
        tokensOf = new int[blocks][];
        for (int b = 0; b < blocks; b++) {
            free.add(b);
        }
    }

    int blocks() { return blocks; }

    int freeCount() { return free.size(); }

    int cachedCount() { return cached.size(); }

    /** Blocks that {@link #allocate} can still hand out (free or cached). */
    int available() { return free.size() + cached.size(); }

    int refs(int block) { return refs[block]; }

    /** A block held once by the caller, or -1 when none is free or cached. A cached block is evicted first. */
    int allocate() {
        Integer b = free.poll();
        if (b == null) {
            Iterator<Integer> oldest = cached.iterator();
            if (!oldest.hasNext()) {
                return -1;
            }
            b = oldest.next();
            oldest.remove();
            unregister(b);
        }
        refs[b] = 1;
        return b;
    }

    /** One more holder of {@code block}. */
    void retain(int block) {
        if (refs[block] == 0) {
            if (!cached.remove(block)) {
                throw new IllegalStateException("block " + block + " is free: it cannot be retained");
            }
        }
        refs[block]++;
    }

    /** One holder fewer; at zero the block becomes cached (when registered) or free. */
    void release(int block) {
        if (refs[block] <= 0) {
            throw new IllegalStateException("block " + block + " released more often than held");
        }
        if (--refs[block] == 0) {
            if (registered[block]) {
                cached.add(block);
            } else {
                free.add(block);
            }
        }
    }

    /** The hash of a full block of {@code tokens[from .. from + blockSize)} that follows a prefix hashed {@code parent}. */
    long chain(long parent, int[] tokens, int from) {
        long h = parent * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        for (int i = 0; i < blockSize; i++) {
            h ^= tokens[from + i] + 0x7F4A7C15L;
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return h;
    }

    /**
     * The registered block holding {@code tokens[from .. from + blockSize)} after the block {@code parent} (-1 for
     * the first block) with chained hash {@code hash}, or -1. Does not retain it.
     */
    int find(long hash, int parent, int[] tokens, int from) {
        Integer b = byHash.get(hash);
        if (b == null || parentOf[b] != parent
                || !Arrays.equals(tokensOf[b], 0, blockSize, tokens, from, from + blockSize)) {
            return -1;
        }
        return b;
    }

    /**
     * Registers the full block {@code block} (held by the caller) as holding {@code tokens[from .. +blockSize)} after
     * {@code parent}; does nothing when another block already holds that content.
     */
    void register(int block, long hash, int parent, int[] tokens, int from) {
        if (registered[block] || byHash.containsKey(hash)) {
            return;
        }
        byHash.put(hash, block);
        registered[block] = true;
        hashOf[block] = hash;
        parentOf[block] = parent;
        tokensOf[block] = Arrays.copyOfRange(tokens, from, from + blockSize);
    }

    /** Forgets the content of {@code block} (before its holder writes into it). */
    void unregister(int block) {
        if (registered[block]) {
            byHash.remove(hashOf[block]);
            registered[block] = false;
            tokensOf[block] = null;
        }
    }

    /** Evicts every cached block (for tests and memory pressure from outside). */
    void dropCached() {
        for (int b : cached) {
            unregister(b);
            free.add(b);
        }
        cached.clear();
    }
}
