package dev.parley.engine.generate;

import dev.parley.engine.model.InferenceSession;

/**
 * An inference session that remembers which tokens its KV cache holds, so that a new prompt sharing
 * a prefix with them (the next turn of a conversation) only feeds what is new.
 */
public final class CachedSession implements AutoCloseable {
    private final InferenceSession session;
    private final TokenHistory history = new TokenHistory();

    public CachedSession(InferenceSession session) {
        if (session.position() != 0) {
            throw new IllegalArgumentException("expected a fresh session at position 0 but found position "
                    + session.position());
        }
        this.session = session;
    }

    /** Tokens in the cache. */
    public int position() {
        return session.position();
    }

    /** The most tokens the cache can hold. */
    public int contextLength() {
        return session.contextLength();
    }

    /** A copy of the tokens the cache holds, in order. */
    public int[] tokens() {
        return history.toArray();
    }

    /**
     * Rewinds to the longest prefix of {@code prompt} already held (leaving at least its last token
     * to feed) and returns that prefix's length.
     */
    public int reusePrefixOf(int[] prompt) {
        int keep = history.reusablePrefix(prompt);
        session.rewind(keep);
        history.truncate(keep);
        return keep;
    }

    /** Feeds {@code tokens} and returns the logits after the last one. */
    public float[] ingest(int[] tokens) {
        float[] logits = session.ingest(tokens);
        history.append(tokens);
        return logits;
    }

    /** Empties the cache. */
    public void clear() {
        session.rewind(0);
        history.clear();
    }

    @Override
    public void close() {
        session.close();
    }
}
