package dev.parley.engine.sampling;

import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * The reference sampler chain, in llama.cpp's order: repetition penalty, top-k, top-p, min-p,
 * temperature, then a seeded draw; argmax after the penalty when the temperature is {@code <= 0}.
 * {@link #reset()} also re-seeds the generator, so a sequence replays identically.
 */
final class ChainSampler implements Sampler {
    private static final String ALGORITHM = "L64X128MixRandom";

    private final SamplingSettings settings;
    private final RepetitionPenalty penalty;
    private final Candidates candidates = new Candidates();
    private RandomGenerator rng;

    ChainSampler(SamplingSettings settings) {
        this.settings = settings;
        this.penalty = settings.penalizesRepeats()
                ? new RepetitionPenalty(settings.repeatPenalty(), settings.repeatLastN()) : null;
        this.rng = newRng();
    }

    @Override
    public int sample(float[] logits) {
        if (penalty == null && settings.isGreedy()) {
            return Candidates.argmax(logits);
        }
        candidates.fill(logits);
        if (penalty != null) {
            penalty.apply(candidates);
        }
        if (settings.isGreedy()) {
            return candidates.argmax();
        }
        candidates.keepTopK(settings.topK());
        candidates.keepTopP(settings.topP());
        candidates.keepMinP(settings.minP());
        candidates.scale(settings.temperature());
        return candidates.draw(rng);
    }

    @Override
    public void accept(int token) {
        if (penalty != null) {
            penalty.accept(token);
        }
    }

    @Override
    public void reset() {
        if (penalty != null) {
            penalty.reset();
        }
        rng = newRng();
    }

    private RandomGenerator newRng() {
        return RandomGeneratorFactory.of(ALGORITHM).create(settings.seed());
    }

    @Override
    public String toString() {
        return "ChainSampler" + settings;
    }
}
