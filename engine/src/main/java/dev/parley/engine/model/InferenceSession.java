package dev.parley.engine.model;

/**
 * One sequence being evaluated: its position, buffers and KV cache. Not thread-safe; use one
 * session per thread.
 */
public final class InferenceSession implements AutoCloseable {

    private final Transformer transformer;
    private final SessionState state;
    private final KvCache cache;
    private final int contextLength;
    private int position;
    private float[] allLogits; // (chunk, vocab), for ingestAll

    InferenceSession(Transformer transformer, SessionState state, KvCache cache, int contextLength) {
        this.transformer = transformer;
        this.state = state;
        this.cache = cache;
        this.contextLength = contextLength;
    }

    /** Number of positions already in the cache (where the next token goes). */
    public int position() { return position; }

    public int contextLength() { return contextLength; }

    /** Tokens per prefill chunk. */
    public int chunkSize() { return state.chunk; }

    /**
     * Feeds {@code tokens} at {@link #position()} in chunks, advances past them and returns the
     * logits (one per vocabulary entry) of the last one, in a new array.
     *
     * @throws IllegalArgumentException when there are no tokens or they do not fit in the context
     * @throws IndexOutOfBoundsException when a token id is outside the vocabulary
     */
    public float[] ingest(int[] tokens) {
        check(tokens);
        for (int from = 0; from < tokens.length; from += state.chunk) {
            int n = Math.min(state.chunk, tokens.length - from);
            boolean last = from + n == tokens.length;
            transformer.forward(tokens, from, n, position, state, cache, last);
            position += n;
        }
        return state.logits.clone();
    }

    private void check(int[] tokens) {
        if (tokens.length == 0) {
            throw new IllegalArgumentException("expected at least one token but found none");
        }
        if (tokens.length > contextLength - position) {
            throw new IllegalArgumentException("context exceeded: expected at most " + (contextLength - position)
                    + " more tokens (position " + position + " of " + contextLength + ") but found " + tokens.length);
        }
        int vocab = state.logits.length;
        for (int token : tokens) {
            if (token < 0 || token >= vocab) {
                throw new IndexOutOfBoundsException("expected token ids from 0 to " + (vocab - 1) + " but found " + token);
            }
        }
    }

    /** Receives the logits of one token. */
    @FunctionalInterface
    public interface LogitsConsumer {
        /**
         * The logits after {@code tokens[index]}: {@code logits[offset .. offset + vocab)}; the array is reused
         * after the call returns.
         */
        void accept(int index, float[] logits, int offset);
    }

    /**
     * Feeds {@code tokens} like {@link #ingest(int[])} but hands the logits of every token to {@code consumer}, in
     * order (for scoring a text, e.g. perplexity). Needs a buffer of {@code chunkSize * vocab} floats, allocated on
     * first use.
     */
    public void ingestAll(int[] tokens, LogitsConsumer consumer) {
        check(tokens);
        int vocab = state.logits.length;
        if (allLogits == null) {
            allLogits = new float[state.chunk * vocab];
        }
        for (int from = 0; from < tokens.length; from += state.chunk) {
            int n = Math.min(state.chunk, tokens.length - from);
            transformer.forward(tokens, from, n, position, state, cache, false, allLogits);
            position += n;
            for (int t = 0; t < n; t++) {
                consumer.accept(from + t, allLogits, t * vocab);
            }
        }
    }

    /** The KV cache of this session. */
    public KvCache cache() { return cache; }

    /**
     * Forgets the cached positions at and after {@code newPosition}, so that the next token goes
     * there (to reuse a shared prefix).
     *
     * @throws IllegalArgumentException when {@code newPosition} is negative or beyond {@link #position()}
     */
    public void rewind(int newPosition) {
        if (newPosition < 0 || newPosition > position) {
            throw new IllegalArgumentException("expected a position from 0 to " + position + " but found " + newPosition);
        }
        position = newPosition;
    }

    @Override
    public void close() {
        // The buffers are garbage collected; nothing native is held.
    }
}
