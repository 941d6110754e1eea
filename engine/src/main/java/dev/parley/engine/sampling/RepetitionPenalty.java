package dev.parley.engine.sampling;

import java.util.Arrays;

/**
 * llama.cpp's repetition penalty: every distinct token among the last {@code window} accepted
 * tokens gets its logit divided by {@code penalty} when positive and multiplied by it otherwise.
 */
final class RepetitionPenalty {
    private final float penalty;
    private final int[] ring;
    private int count;
    private int next;

    RepetitionPenalty(float penalty, int window) {
        if (window <= 0) {
            throw new IllegalArgumentException("repetition window must be > 0, found " + window);
        }
        this.penalty = penalty;
        this.ring = new int[window];
    }

    void accept(int token) {
        ring[next] = token;
        next = (next + 1) % ring.length;
        count = Math.min(count + 1, ring.length);
    }

    void reset() {
        count = 0;
        next = 0;
    }

    /** Penalizes the logits of the remembered tokens; must run before any narrowing stage. */
    void apply(Candidates candidates) {
        int[] tokens = Arrays.copyOf(ring, count);
        Arrays.sort(tokens);
        for (int i = 0; i < tokens.length; i++) {
            int token = tokens[i];
            if ((i > 0 && token == tokens[i - 1]) || token < 0 || token >= candidates.size()) {
                continue;
            }
            float logit = candidates.logit(token);
            candidates.setLogitOfToken(token, logit <= 0f ? logit * penalty : logit / penalty);
        }
    }
}
