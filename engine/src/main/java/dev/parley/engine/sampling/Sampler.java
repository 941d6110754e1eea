package dev.parley.engine.sampling;

/**
 * Picks the next token from a vector of raw logits (index = token id). Stateful samplers (for
 * example one with a repetition penalty) learn the tokens of the sequence through {@link #accept}
 * and forget them on {@link #reset}. A sampler never modifies the array it is given.
 */
public interface Sampler {

    /** The id of the chosen token; {@code logits} is left untouched. */
    int sample(float[] logits);

    /** Tells the sampler that {@code token} is now part of the sequence (prompt or generated). */
    default void accept(int token) {
    }

    /** Forgets every accepted token, as for a new sequence. */
    default void reset() {
    }

    /** The reference chain for these settings: penalties, top-k, top-p, min-p, temperature, draw. */
    static Sampler create(SamplingSettings settings) {
        return new ChainSampler(settings);
    }

    /** A stateless sampler that always picks the highest logit (the lowest id on ties). */
    static Sampler greedy() {
        return Candidates::argmax;
    }
}
