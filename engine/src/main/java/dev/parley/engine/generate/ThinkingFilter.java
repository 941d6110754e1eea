package dev.parley.engine.generate;

/**
 * Removes a reasoning model's {@code <think>...</think>} blocks from streamed text, so that what is spoken (or
 * shown as the answer) is only the answer. Pieces may split a tag anywhere: text that could be the start of a tag
 * is held back until the next piece decides. An unterminated block (a reply cancelled while thinking) yields
 * nothing; blank lines right after a block are dropped. One instance per reply; not thread-safe.
 */
public final class ThinkingFilter {

    private static final String OPEN = "<think>";
    private static final String CLOSE = "</think>";

    private final StringBuilder pending = new StringBuilder();
    private boolean inside;
    private boolean afterBlock;

    /** The part of everything fed so far that can be released now, given the next {@code piece}. */
    public String accept(String piece) {
        pending.append(piece);
        StringBuilder out = new StringBuilder();
        while (true) {
            String tag = inside ? CLOSE : OPEN;
            int at = pending.indexOf(tag);
            if (at >= 0) {
                if (!inside) {
                    emit(out, pending.substring(0, at));
                }
                pending.delete(0, at + tag.length());
                inside = !inside;
                afterBlock = !inside;
                continue;
            }
            // Keep the longest tail that is a prefix of the tag; the rest is decided.
            int keep = partialTagLength(pending, tag);
            String decided = pending.substring(0, pending.length() - keep);
            pending.delete(0, pending.length() - keep);
            if (!inside) {
                emit(out, decided);
            }
            return out.toString();
        }
    }

    /** What is left once the reply ended: held text that turned out not to be a tag (nothing inside a block). */
    public String finish() {
        String rest = inside ? "" : pending.toString();
        pending.setLength(0);
        StringBuilder out = new StringBuilder();
        emit(out, rest);
        return out.toString();
    }

    private void emit(StringBuilder out, String text) {
        if (afterBlock) {
            int i = 0;
            while (i < text.length() && (text.charAt(i) == '\n' || text.charAt(i) == '\r')) {
                i++;
            }
            text = text.substring(i);
            if (!text.isEmpty()) {
                afterBlock = false;
            }
        }
        out.append(text);
    }

    private static int partialTagLength(CharSequence s, String tag) {
        for (int n = Math.min(tag.length() - 1, s.length()); n > 0; n--) {
            boolean match = true;
            for (int i = 0; i < n && match; i++) {
                match = s.charAt(s.length() - n + i) == tag.charAt(i);
            }
            if (match) {
                return n;
            }
        }
        return 0;
    }

    /**
     * The reasoning inside {@code text}'s thinking blocks, blocks separated by a blank line and stripped of the
     * newlines around them; an unterminated block counts up to the end; empty when there is none.
     */
    public static String thoughts(String text) {
        StringBuilder out = new StringBuilder();
        int from = 0;
        while (true) {
            int open = text.indexOf(OPEN, from);
            if (open < 0) {
                return out.toString();
            }
            int close = text.indexOf(CLOSE, open + OPEN.length());
            String inside = text.substring(open + OPEN.length(), close < 0 ? text.length() : close).strip();
            if (!inside.isEmpty()) {
                out.append(out.isEmpty() ? "" : "\n\n").append(inside);
            }
            if (close < 0) {
                return out.toString();
            }
            from = close + CLOSE.length();
        }
    }

    /** {@code text} without its thinking blocks (what a whole reply says out loud). */
    public static String strip(String text) {
        ThinkingFilter f = new ThinkingFilter();
        return f.accept(text) + f.finish();
    }
}
