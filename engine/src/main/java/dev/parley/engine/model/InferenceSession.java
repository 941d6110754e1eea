package dev.parley.engine.model;

/**
 * One sequence being evaluated: its position and the {@link SequenceRunner} holding its buffers and KV cache (on the
 * CPU or a GPU). Not thread-safe; use one session per thread.
 */
public final class InferenceSession implements AutoCloseable {

    private final SequenceRunner runner;
    private final KvCache cache; // null on a GPU
    private final int contextLength;
    private final float[] logits; // (vocab)
    private int position;
    private float[] allLogits; // (chunk, vocab), for ingestAll

    InferenceSession(Transformer transformer, SessionState state, KvCache cache, int contextLength) {
        this(new CpuSequence(transformer, state, cache), cache, state.logits, contextLength);
    }

    /**
     * A session driving {@code runner}, which writes the last logits to {@code logits} (one per vocabulary entry);
     * {@code cache} is its CPU cache, or null when it keeps its own (GPU).
     */
    InferenceSession(SequenceRunner runner, KvCache cache, float[] logits, int contextLength) {
        this.runner = runner;
        this.cache = cache;
        this.logits = logits;
        this.contextLength = contextLength;
    }

    /** Number of positions already in the cache (where the next token goes). */
    public int position() { return position; }

    public int contextLength() { return contextLength; }

    /** Tokens per prefill chunk. */
    public int chunkSize() { return runner.chunk(); }

    /**
     * Feeds {@code tokens} at {@link #position()} in chunks, advances past them and returns the
     * logits (one per vocabulary entry) of the last one, in a new array.
     *
     * @throws IllegalArgumentException when there are no tokens or they do not fit in the context
     * @throws IndexOutOfBoundsException when a token id is outside the vocabulary
     */
    public float[] ingest(int[] tokens) {
        check(tokens);
        int chunk = runner.chunk();
        for (int from = 0; from < tokens.length; from += chunk) {
            int n = Math.min(chunk, tokens.length - from);
            boolean last = from + n == tokens.length;
            runner.run(tokens, from, n, position, last ? logits : null, null);
            position += n;
        }
        return logits.clone();
    }

    private void check(int[] tokens) {
        if (tokens.length == 0) {
            throw new IllegalArgumentException("expected at least one token but found none");
        }
        if (tokens.length > contextLength - position) {
            throw new IllegalArgumentException("context exceeded: expected at most " + (contextLength - position)
                    + " more tokens (position " + position + " of " + contextLength + ") but found " + tokens.length);
        }
        int vocab = logits.length;
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
        int vocab = logits.length;
        int chunk = runner.chunk();
        if (allLogits == null) {
            allLogits = new float[chunk * vocab];
        }
        for (int from = 0; from < tokens.length; from += chunk) {
            int n = Math.min(chunk, tokens.length - from);
            runner.run(tokens, from, n, position, null, allLogits);
            position += n;
            for (int t = 0; t < n; t++) {
                consumer.accept(from + t, allLogits, t * vocab);
            }
        }
    }

    /**
     * The CPU KV cache of this session.
     *
     * @throws IllegalStateException on a GPU, whose cache lives on the device
     */
    public KvCache cache() {
        if (cache == null) {
            throw new IllegalStateException("expected a session on the CPU but this one keeps its cache on the GPU");
        }
        return cache;
    }

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
        runner.close(); // gives a GPU sequence's KV blocks back; CPU buffers are garbage collected
    }
}
