package dev.parley.engine.batch;

import dev.parley.engine.sampling.SamplingSettings;
import java.util.List;
import java.util.Objects;

/**
 * One generation to schedule.
 *
 * @param conversationId the conversation this turn belongs to: its KV cache is kept after the turn so that the
 *                       next turn of the same conversation prefills only its new tokens; null keeps nothing
 *                       beyond the shared prefix cache
 * @param prompt         the whole token sequence before the first new token (history included)
 * @param sampling       how to choose tokens
 * @param maxTokens      at most this many new tokens (0 ends at once)
 * @param stopStrings    text that ends the generation; never emitted itself
 * @param ignoreEos      keep generating past end-of-generation tokens (benchmarks of fixed output length)
 */
public record BatchRequest(String conversationId, int[] prompt, SamplingSettings sampling, int maxTokens,
                           List<String> stopStrings, boolean ignoreEos) {

    /** A request that ends at the model's end-of-generation tokens. */
    public BatchRequest(String conversationId, int[] prompt, SamplingSettings sampling, int maxTokens,
                        List<String> stopStrings) {
        this(conversationId, prompt, sampling, maxTokens, stopStrings, false);
    }

    public BatchRequest {
        Objects.requireNonNull(sampling, "sampling");
        if (prompt == null || prompt.length == 0) {
            throw new IllegalArgumentException("expected a prompt of at least one token but found none");
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("expected max tokens >= 0 but found " + maxTokens);
        }
        prompt = prompt.clone();
        stopStrings = List.copyOf(stopStrings);
    }

    /** A greedy request with no conversation and no stop strings. */
    public static BatchRequest greedy(int[] prompt, int maxTokens) {
        return new BatchRequest(null, prompt, SamplingSettings.greedy(), maxTokens, List.of());
    }

    @Override
    public int[] prompt() {
        return prompt.clone();
    }

    /** Prompt length without copying. */
    public int promptLength() {
        return prompt.length;
    }

    int promptToken(int i) {
        return prompt[i];
    }
}
