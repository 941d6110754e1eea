package dev.parley.engine.generate;

import java.util.Locale;
import java.util.Objects;

/**
 * What a {@link Conversation} does when its next prompt, plus room for the reply, no longer fits the
 * context window.
 *
 * <ul>
 *   <li>{@link Kind#KEEP_SYSTEM_AND_RECENT} (the default, keeping {@value #DEFAULT_KEEP_FRACTION} of the
 *       window): the oldest turns are dropped, whole and in user/assistant pairs, until the prompt
 *       (the system message, the most recent turns and the new message) takes at most
 *       {@code keepFraction} of the window; the rest is room for the reply and the next turns, so
 *       trimming happens once every few turns, not on every turn. The KV cache is rebuilt from the
 *       kept prompt (the system message's tokens are reused from the cache). The dropped messages
 *       stay in the app's history; only the model forgets them.</li>
 *   <li>{@link Kind#STOP}: nothing is dropped; the reply ends with {@link StopReason#CONTEXT_FULL}
 *       when the window is full (a prompt that does not fit gets an empty reply).</li>
 * </ul>
 *
 * @param kind         the policy
 * @param keepFraction for {@link Kind#KEEP_SYSTEM_AND_RECENT}: the share of the window that the kept prompt
 *                     may fill after trimming, in [0.1, 0.9]
 */
public record ContextPolicy(Kind kind, double keepFraction) {

    /** The share of the window kept by {@link #DEFAULT}. */
    public static final double DEFAULT_KEEP_FRACTION = 0.5;

    /** Keep the system message and the most recent turns, up to half of the window. */
    public static final ContextPolicy DEFAULT = new ContextPolicy(Kind.KEEP_SYSTEM_AND_RECENT, DEFAULT_KEEP_FRACTION);

    /** Drop nothing: replies stop when the window is full. */
    public static final ContextPolicy STOP_WHEN_FULL = new ContextPolicy(Kind.STOP, DEFAULT_KEEP_FRACTION);

    /** The policies. */
    public enum Kind { KEEP_SYSTEM_AND_RECENT, STOP }

    public ContextPolicy {
        Objects.requireNonNull(kind, "kind");
        if (!(keepFraction >= 0.1 && keepFraction <= 0.9)) {
            throw new IllegalArgumentException("expected a kept fraction of the context in [0.1, 0.9] but found "
                    + keepFraction);
        }
    }

    /** Keep the system message and the most recent turns, up to {@code keepFraction} of the window. */
    public static ContextPolicy keepSystemAndRecent(double keepFraction) {
        return new ContextPolicy(Kind.KEEP_SYSTEM_AND_RECENT, keepFraction);
    }

    /**
     * Parses {@code keep-recent}, {@code keep-recent:0.6} or {@code stop} (the forms of the command
     * line and the settings file).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static ContextPolicy parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("stop")) {
            return STOP_WHEN_FULL;
        }
        if (t.equals("keep-recent")) {
            return DEFAULT;
        }
        if (t.startsWith("keep-recent:")) {
            try {
                return keepSystemAndRecent(Double.parseDouble(t.substring("keep-recent:".length())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected keep-recent:FRACTION with a number such as 0.5 but found '"
                        + text + "'", e);
            }
        }
        throw new IllegalArgumentException("expected a context policy 'keep-recent', 'keep-recent:FRACTION' or 'stop' "
                + "but found '" + text + "'");
    }

    /** The form {@link #parse} reads. */
    @Override
    public String toString() {
        return kind == Kind.STOP ? "stop" : keepFraction == DEFAULT_KEEP_FRACTION ? "keep-recent"
                : "keep-recent:" + keepFraction;
    }

    /**
     * True when a prompt of {@code promptTokens} must be trimmed before a reply of up to
     * {@code maxTokens} in a window of {@code contextLength}: the reply is guaranteed the smaller of
     * {@code maxTokens} and the part of the window trimming frees.
     */
    public boolean mustTrim(int promptTokens, int maxTokens, int contextLength) {
        if (kind == Kind.STOP) {
            return false;
        }
        int room = Math.max(1, Math.min(maxTokens, contextLength - keptTokens(contextLength)));
        return (long) promptTokens + room > contextLength;
    }

    /** The most tokens a trimmed prompt may take in a window of {@code contextLength}. */
    int keptTokens(int contextLength) {
        return (int) Math.floor(contextLength * keepFraction);
    }
}
