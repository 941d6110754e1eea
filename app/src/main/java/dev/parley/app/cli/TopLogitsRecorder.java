package dev.parley.app.cli;

import dev.parley.engine.sampling.Sampler;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Sampler} that passes every call to the one it wraps and keeps, for each step it sampled, the
 * {@code k} highest raw logits as {@code [id, logit]} pairs, highest first (lower id first on ties): what
 * {@code generate --top-logits K} prints, so that tests can compare logits with llama.cpp's, not only ids.
 */
final class TopLogitsRecorder implements Sampler {
    private final Sampler inner;
    private final int k;
    private final List<List<Object[]>> steps = new ArrayList<>();

    TopLogitsRecorder(Sampler inner, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("expected at least 1 logit per step but found " + k);
        }
        this.inner = inner;
        this.k = k;
    }

    @Override
    public int sample(float[] logits) {
        steps.add(top(logits, k));
        return inner.sample(logits);
    }

    @Override
    public void accept(int token) {
        inner.accept(token);
    }

    @Override
    public void reset() {
        inner.reset();
        steps.clear();
    }

    /** The pairs of the first {@code count} sampled steps. */
    List<List<Object[]>> steps(int count) {
        return steps.subList(0, Math.min(count, steps.size()));
    }

    static List<Object[]> top(float[] logits, int k) {
        int n = Math.min(k, logits.length);
        int[] ids = new int[n];
        int size = 0;
        for (int i = 0; i < logits.length; i++) {
            if (size == n && !(logits[i] > logits[ids[n - 1]])) {
                continue;
            }
            int j = size < n ? size++ : n - 1;
            while (j > 0 && logits[i] > logits[ids[j - 1]]) {
                ids[j] = ids[j - 1];
                j--;
            }
            ids[j] = i;
        }
        List<Object[]> out = new ArrayList<>(n);
        for (int j = 0; j < size; j++) {
            out.add(new Object[] {ids[j], logits[ids[j]]});
        }
        return out;
    }
}
