package dev.parley.engine.generate;

import java.util.List;

/**
 * Finds stop strings in streamed text. Text that could be the beginning of a stop string is held
 * back until the following text proves it is not; the stop string itself and anything after it are
 * never released. Works on the decoded text, so a stop string may span any number of tokens.
 */
public final class StopStringMatcher {
    private final List<String> stopStrings;
    private final StringBuilder pending = new StringBuilder();
    private String matched;

    /** @param stopStrings strings that end the generation; none may be empty */
    public StopStringMatcher(List<String> stopStrings) {
        for (String s : stopStrings) {
            if (s == null || s.isEmpty()) {
                throw new IllegalArgumentException("stop strings must be non-empty, found " + stopStrings);
            }
        }
        this.stopStrings = List.copyOf(stopStrings);
    }

    /**
     * Adds the next piece of text and returns what is now safe to show. When a stop string
     * completes, returns the text before it and {@link #stopped()} becomes true.
     */
    public String push(String text) {
        if (matched != null) {
            throw new IllegalStateException("a stop string was already found: " + matched);
        }
        pending.append(text);
        int stopAt = -1;
        for (String stop : stopStrings) {
            int at = pending.indexOf(stop);
            if (at >= 0 && (stopAt < 0 || at < stopAt)) {
                stopAt = at;
                matched = stop;
            }
        }
        if (stopAt >= 0) {
            String before = pending.substring(0, stopAt);
            pending.setLength(0);
            return before;
        }
        int release = pending.length() - heldSuffixLength();
        String out = pending.substring(0, release);
        pending.delete(0, release);
        return out;
    }

    /** True once a stop string has been found. */
    public boolean stopped() {
        return matched != null;
    }

    /** The stop string that was found, or null. */
    public String matchedStopString() {
        return matched;
    }

    /** Releases the text held back (the generation ended for another reason). */
    public String flush() {
        String out = pending.toString();
        pending.setLength(0);
        return out;
    }

    /** The longest suffix of the pending text that is a proper prefix of some stop string. */
    private int heldSuffixLength() {
        int best = 0;
        for (String stop : stopStrings) {
            int max = Math.min(stop.length() - 1, pending.length());
            for (int len = max; len > best; len--) {
                if (endsWithPrefix(stop, len)) {
                    best = len;
                    break;
                }
            }
        }
        return best;
    }

    private boolean endsWithPrefix(String stop, int len) {
        int start = pending.length() - len;
        for (int i = 0; i < len; i++) {
            if (pending.charAt(start + i) != stop.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
