package dev.parley.engine.generate;

/**
 * The outcome of one generation.
 *
 * @param tokens       the new tokens, end-of-generation token excluded
 * @param text         the text shown (stop string and what follows it excluded)
 * @param reason       why it ended
 * @param reusedTokens prompt tokens that were already in the session's KV cache and not fed again
 * @param stats        counts and timings
 */
public record GenerationResult(int[] tokens, String text, StopReason reason, int reusedTokens,
                               GenerationStats stats) {

    public GenerationResult {
        tokens = tokens.clone();
    }

    @Override
    public int[] tokens() {
        return tokens.clone();
    }
}
