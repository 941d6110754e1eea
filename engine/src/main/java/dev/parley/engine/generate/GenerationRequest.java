package dev.parley.engine.generate;

import java.util.List;

/**
 * What to generate.
 *
 * @param prompt      the whole token sequence the session should hold before the first new token;
 *                    a prefix the session already holds is reused, not fed again
 * @param maxTokens   at most this many new tokens (0 returns at once)
 * @param stopStrings text that ends the generation; never emitted itself
 */
public record GenerationRequest(int[] prompt, int maxTokens, List<String> stopStrings) {

    public GenerationRequest {
        if (prompt == null || prompt.length == 0) {
            throw new IllegalArgumentException("expected a prompt of at least one token but found none");
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("max tokens must be >= 0, found " + maxTokens);
        }
        prompt = prompt.clone();
        stopStrings = List.copyOf(stopStrings);
    }

    @Override
    public int[] prompt() {
        return prompt.clone();
    }
}
