package dev.parley.engine.api;

import dev.parley.engine.generate.StopReason;
import java.util.Objects;

/**
 * The outcome of one request, with the timings the dashboards show for local and remote engines alike.
 *
 * @param text                  the reply as shown (stop strings excluded)
 * @param reason                why it ended
 * @param promptTokens          tokens of the prompt (0 when a remote server did not say)
 * @param completionTokens      new tokens (for a remote server: its usage count, else the number of text pieces)
 * @param timeToFirstTokenNanos from the request being handed to the engine to its first text (the whole time
 *                              when nothing was generated); includes queueing and the network
 * @param totalNanos            from hand-over to the end
 */
public record EngineResult(String text, StopReason reason, int promptTokens, int completionTokens,
                           long timeToFirstTokenNanos, long totalNanos) {

    public EngineResult {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(reason, "reason");
        if (promptTokens < 0 || completionTokens < 0 || timeToFirstTokenNanos < 0 || totalNanos < timeToFirstTokenNanos) {
            throw new IllegalArgumentException("expected non-negative counts and first token <= total time but found "
                    + promptTokens + " prompt / " + completionTokens + " completion tokens, first token after "
                    + timeToFirstTokenNanos + " ns of " + totalNanos + " ns");
        }
    }

    /** Time to first token in milliseconds. */
    public double timeToFirstTokenMillis() {
        return timeToFirstTokenNanos / 1e6;
    }

    /** Generation speed after the first token (0 when fewer than two tokens were generated). */
    public double tokensPerSecond() {
        long decode = totalNanos - timeToFirstTokenNanos;
        return completionTokens < 2 || decode <= 0 ? 0 : (completionTokens - 1) * 1e9 / decode;
    }
}
