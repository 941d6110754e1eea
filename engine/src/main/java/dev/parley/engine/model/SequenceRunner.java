package dev.parley.engine.model;

/**
 * Runs the tokens of one sequence through a model, keeping the sequence's keys and values: the CPU's
 * {@code Transformer} with a {@link KvCache}, or a GPU model with its device cache. What an {@link InferenceSession}
 * drives.
 */
public interface SequenceRunner extends AutoCloseable {

    /** The most tokens one {@link #run} takes. */
    int chunk();

    /**
     * Runs {@code tokens[from .. from + count)} at positions {@code position ..}, storing their keys and values;
     * writes the logits of the last one to {@code lastLogits} when it is not null and those of every one to
     * {@code allLogits} (row t at {@code t * vocab}) when it is not null.
     */
    void run(int[] tokens, int from, int count, int position, float[] lastLogits, float[] allLogits);

    /** Releases what the sequence holds (device KV blocks); the runner is not used afterwards. */
    @Override
    void close();
}
