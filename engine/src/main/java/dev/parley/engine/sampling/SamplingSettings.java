package dev.parley.engine.sampling;

/**
 * How to choose tokens, with llama.cpp's meanings.
 *
 * @param temperature   divides the logits before the draw; {@code <= 0} means greedy (argmax)
 * @param topK          keep only the {@code topK} highest logits; 0 disables
 * @param topP          keep the smallest set of most likely tokens whose probability sums to at least
 *                      {@code topP}; in (0, 1], 1 disables
 * @param minP          drop tokens less likely than {@code minP} times the most likely one; in [0, 1),
 *                      0 disables
 * @param repeatPenalty divides positive (and multiplies negative) logits of tokens seen in the last
 *                      {@code repeatLastN} tokens; 1 disables, must be {@code > 0}
 * @param repeatLastN   size of the repetition window in tokens; 0 disables
 * @param seed          seed of the random generator used for the draw
 */
public record SamplingSettings(float temperature, int topK, float topP, float minP, float repeatPenalty,
                               int repeatLastN, long seed) {

    public SamplingSettings {
        if (!Float.isFinite(temperature)) {
            throw new IllegalArgumentException("temperature must be a finite number, found " + temperature);
        }
        if (topK < 0) {
            throw new IllegalArgumentException("top-k must be >= 0 (0 disables it), found " + topK);
        }
        if (!(topP > 0f && topP <= 1f)) {
            throw new IllegalArgumentException("top-p must be in (0, 1] (1 disables it), found " + topP);
        }
        if (!(minP >= 0f && minP < 1f)) {
            throw new IllegalArgumentException("min-p must be in [0, 1) (0 disables it), found " + minP);
        }
        if (!(repeatPenalty > 0f) || !Float.isFinite(repeatPenalty)) {
            throw new IllegalArgumentException("repeat penalty must be a finite number > 0 (1 disables it), found "
                    + repeatPenalty);
        }
        if (repeatLastN < 0) {
            throw new IllegalArgumentException("repeat-last-n must be >= 0 (0 disables it), found " + repeatLastN);
        }
    }

    /** Greedy decoding: argmax of the raw logits, no penalty. */
    public static SamplingSettings greedy() {
        return new SamplingSettings(0f, 0, 1f, 0f, 1f, 0, 0L);
    }

    /** llama.cpp's defaults for chat: temperature 0.8, top-k 40, top-p 0.95, min-p 0.05, no penalty. */
    public static SamplingSettings chatDefaults(long seed) {
        return new SamplingSettings(0.8f, 40, 0.95f, 0.05f, 1f, 64, seed);
    }

    /** True when tokens are chosen by argmax. */
    public boolean isGreedy() {
        return temperature <= 0f;
    }

    /** True when the repetition penalty changes anything. */
    public boolean penalizesRepeats() {
        return repeatPenalty != 1f && repeatLastN > 0;
    }

    /** A copy with another seed. */
    public SamplingSettings withSeed(long newSeed) {
        return new SamplingSettings(temperature, topK, topP, minP, repeatPenalty, repeatLastN, newSeed);
    }
}
