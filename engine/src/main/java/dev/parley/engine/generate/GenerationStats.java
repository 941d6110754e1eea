package dev.parley.engine.generate;

/**
 * Counts and timings of one generation.
 *
 * @param promptTokens    tokens ingested before the first new token (the prompt or its new part)
 * @param generatedTokens new tokens produced (end-of-generation tokens excluded)
 * @param promptNanos     time to ingest the prompt and produce its logits
 * @param decodeNanos     time spent sampling and ingesting after the prompt
 */
public record GenerationStats(int promptTokens, int generatedTokens, long promptNanos, long decodeNanos) {

    public GenerationStats {
        if (promptTokens < 0 || generatedTokens < 0 || promptNanos < 0 || decodeNanos < 0) {
            throw new IllegalArgumentException("generation stats must not be negative, found prompt " + promptTokens
                    + " tokens / " + promptNanos + " ns, generated " + generatedTokens + " tokens / " + decodeNanos
                    + " ns");
        }
    }

    /** Prompt ingestion speed in tokens per second (0 when nothing was timed). */
    public double promptTokensPerSecond() {
        return rate(promptTokens, promptNanos);
    }

    /** Generation speed in tokens per second (0 when nothing was timed). */
    public double decodeTokensPerSecond() {
        return rate(generatedTokens, decodeNanos);
    }

    /** One human-readable line, e.g. {@code prompt: 12 tokens, 310.2 tok/s | generated: 40 tokens, 55.1 tok/s}. */
    public String summary() {
        return String.format(java.util.Locale.ROOT, "prompt: %d tokens, %.1f tok/s | generated: %d tokens, %.1f tok/s",
                promptTokens, promptTokensPerSecond(), generatedTokens, decodeTokensPerSecond());
    }

    private static double rate(int tokens, long nanos) {
        return nanos <= 0 ? 0.0 : tokens * 1e9 / nanos;
    }
}
