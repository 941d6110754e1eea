package dev.parley.engine.batch;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The KV caches of idle conversations: after a turn, the conversation keeps its tokens and blocks so that its
 * next turn prefills only what is new. Least recently used first out when the pool needs blocks. Not
 * thread-safe: the batcher's thread owns it.
 */
final class ConversationCaches {

    /** What a conversation keeps: its cached {@code tokens} live in the blocks of {@code table}. */
    record Kept(int[] tokens, int[] table) {
    }

    private final LinkedHashMap<String, Kept> kept = new LinkedHashMap<>(16, 0.75f, true);
    private final BlockPool pool;

    ConversationCaches(BlockPool pool) {
        this.pool = pool;
    }

    /** Takes the cache of {@code conversation} out (the caller now holds its blocks), or null. */
    Kept take(String conversation) {
        return kept.remove(conversation);
    }

    /** The cache of {@code conversation}, left in place, or null. */
    Kept peek(String conversation) {
        return kept.get(conversation);
    }

    /** Releases what {@code conversation} keeps, if anything. */
    void drop(String conversation) {
        Kept old = kept.remove(conversation);
        if (old != null) {
            release(old);
        }
    }

    /** Keeps a conversation's cache, replacing (and releasing) what it kept before. */
    void put(String conversation, Kept k) {
        Kept old = kept.put(conversation, k);
        if (old != null) {
            release(old);
        }
    }

    /** Releases the least recently used conversation's blocks; false when none is kept. */
    boolean evictOldest() {
        Iterator<Map.Entry<String, Kept>> it = kept.entrySet().iterator();
        if (!it.hasNext()) {
            return false;
        }
        Kept k = it.next().getValue();
        it.remove();
        release(k);
        return true;
    }

    /** Blocks that evicting every kept conversation would make available. */
    int reclaimable() {
        int n = 0;
        for (Kept k : kept.values()) {
            for (int i = 0; i < k.table().length; i++) {
                if (pool.refs(k.table()[i]) == 1) {
                    n++;
                }
            }
        }
        return n;
    }

    int size() {
        return kept.size();
    }

    void clear() {
        while (evictOldest()) {
            // release every kept cache
        }
    }

    private void release(Kept k) {
        for (int i = 0; i < k.table().length; i++) {
            pool.release(k.table()[i]);
        }
    }
}
