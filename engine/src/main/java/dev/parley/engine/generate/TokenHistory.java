package dev.parley.engine.generate;

import java.util.Arrays;

/**
 * The tokens an inference session holds, in position order. A new prompt that starts with the same
 * tokens can keep that part of the KV cache: {@link #reusablePrefix} says how much.
 */
public final class TokenHistory {
    private int[] tokens = new int[256];
    private int size;

    /** Number of tokens held (= the session's position when kept in step with it). */
    public int size() {
        return size;
    }

    /** A copy of the held tokens. */
    public int[] toArray() {
        return Arrays.copyOf(tokens, size);
    }

    /** Appends tokens that were fed to the session. */
    public void append(int[] ids, int from, int to) {
        if (from < 0 || to > ids.length || from > to) {
            throw new IndexOutOfBoundsException("range [" + from + ", " + to + ") of " + ids.length + " tokens");
        }
        int n = to - from;
        if (size + n > tokens.length) {
            tokens = Arrays.copyOf(tokens, Math.max(tokens.length * 2, size + n));
        }
        System.arraycopy(ids, from, tokens, size, n);
        size += n;
    }

    /** Appends all of {@code ids}. */
    public void append(int[] ids) {
        append(ids, 0, ids.length);
    }

    /** Forgets everything after the first {@code newSize} tokens (as a session rewind does). */
    public void truncate(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " tokens to " + newSize);
        }
        size = newSize;
    }

    /** Forgets everything. */
    public void clear() {
        size = 0;
    }

    /**
     * How many leading tokens of {@code prompt} are already held: the common prefix, but at most
     * {@code prompt.length - 1}, since at least one token must be fed to get the next logits.
     */
    public int reusablePrefix(int[] prompt) {
        int limit = Math.min(size, prompt.length - 1);
        int n = 0;
        while (n < limit && tokens[n] == prompt[n]) {
            n++;
        }
        return Math.max(n, 0);
    }
}
