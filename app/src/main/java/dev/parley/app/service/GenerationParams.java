package dev.parley.app.service;

import dev.parley.engine.generate.ContextPolicy;
import dev.parley.engine.sampling.SamplingSettings;

/**
 * How one reply is generated.
 *
 * @param temperature  0 for greedy decoding
 * @param systemPrompt  the system message of new conversations ("" for none)
 * @param contextPolicy what happens when a conversation outgrows the context window (null: the default,
 *                      keep the system message and the most recent turns)
 */
public record GenerationParams(double temperature, double topP, int maxTokens, String systemPrompt, long seed,
                               ContextPolicy contextPolicy) {

    /** Parameters with the default context policy ({@link ContextPolicy#DEFAULT}). */
    public GenerationParams(double temperature, double topP, int maxTokens, String systemPrompt, long seed) {
        this(temperature, topP, maxTokens, systemPrompt, seed, ContextPolicy.DEFAULT);
    }

    public GenerationParams {
        contextPolicy = contextPolicy == null ? ContextPolicy.DEFAULT : contextPolicy;
        if (!(temperature >= 0) || !Double.isFinite(temperature)) {
            throw new IllegalArgumentException("expected a temperature >= 0 but found " + temperature);
        }
        if (!(topP > 0 && topP <= 1)) {
            throw new IllegalArgumentException("expected a top-p in (0, 1] but found " + topP);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("expected at least 1 max token but found " + maxTokens);
        }
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
    }

    /** The engine's sampling settings: top-k 40 and min-p 0.05 as llama.cpp's chat defaults. */
    public SamplingSettings sampling() {
        if (temperature == 0) {
            return SamplingSettings.greedy();
        }
        return new SamplingSettings((float) temperature, 40, (float) topP, 0.05f, 1f, 64, seed);
    }
}
