package dev.parley.engine.model;

/** A {@link SequenceRunner} on the CPU: the {@link Transformer} with one session's buffers and KV cache. */
final class CpuSequence implements SequenceRunner {

    private final Transformer transformer;
    private final SessionState state;
    private final KvCache cache;

    CpuSequence(Transformer transformer, SessionState state, KvCache cache) {
        this.transformer = transformer;
        this.state = state;
        this.cache = cache;
    }

    @Override
    public int chunk() {
        return state.chunk;
    }

    KvCache cache() {
        return cache;
    }

    @Override
    public void run(int[] tokens, int from, int count, int position, float[] lastLogits, float[] allLogits) {
        transformer.forward(tokens, from, count, position, state, cache, lastLogits != null, allLogits);
        if (lastLogits != null && lastLogits != state.logits) {
            System.arraycopy(state.logits, 0, lastLogits, 0, lastLogits.length);
        }
    }

    @Override
    public void close() {
        // Heap buffers only.
    }
}
