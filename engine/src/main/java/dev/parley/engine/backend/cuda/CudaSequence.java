package dev.parley.engine.backend.cuda;

import dev.parley.engine.model.SequenceRunner;

/**
 * One sequence on a {@link CudaModel}: its block table in the model's KV pool, growing as positions are added, and
 * steps of its tokens alone. Closing gives its blocks back. Not thread-safe.
 */
public final class CudaSequence implements SequenceRunner {

    private final CudaModel model;
    private final BlockTable table;
    private final int chunk;

    /** A sequence of {@code model} running at most {@code chunk} tokens per step (capped at the model's rows). */
    public CudaSequence(CudaModel model, int chunk) {
        if (chunk < 1) {
            throw new IllegalArgumentException("expected a chunk of at least 1 token but found " + chunk);
        }
        this.model = model;
        this.table = model.newBlockTable();
        this.chunk = Math.min(chunk, model.plan().maxRows());
    }

    @Override
    public int chunk() {
        return chunk;
    }

    /** Positions this sequence has blocks for. */
    public int capacity() {
        return table.capacity();
    }

    /**
     * Makes room for positions {@code 0 .. positions - 1} (for steps that batch this sequence with others).
     *
     * @throws IllegalStateException when the model's KV pool runs out
     */
    public void reserve(int positions) {
        table.reserve(positions);
    }

    /** The ids of this sequence's KV blocks, in position order (a copy), for steps that batch it with others. */
    public int[] blockIds() {
        return table.ids();
    }

    @Override
    public void run(int[] tokens, int from, int count, int position, float[] lastLogits, float[] allLogits) {
        if (count < 1 || count > chunk) {
            throw new IllegalArgumentException("expected 1 to " + chunk + " tokens per step but found " + count);
        }
        table.reserve(position + count);
        int[] toks = new int[count];
        int[] positions = new int[count];
        int[] sequences = new int[count];
        boolean[] want = new boolean[count];
        System.arraycopy(tokens, from, toks, 0, count);
        for (int t = 0; t < count; t++) {
            positions[t] = position + t;
            want[t] = allLogits != null;
        }
        want[count - 1] |= lastLogits != null;
        int vocab = model.config().vocabSize();
        StepPlan plan = StepPlan.build(toks, positions, sequences, new int[][] {table.ids()}, want,
                model.plan().blockSize(), vocab);
        if (allLogits != null) {
            model.step(plan, allLogits, null);
            if (lastLogits != null) {
                System.arraycopy(allLogits, (count - 1) * vocab, lastLogits, 0, vocab);
            }
        } else if (lastLogits != null) {
            model.step(plan, lastLogits, null);
        } else {
            model.step(plan, null, null);
        }
    }

    @Override
    public void close() {
        table.release();
    }
}
