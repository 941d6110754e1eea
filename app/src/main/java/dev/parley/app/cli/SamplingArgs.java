package dev.parley.app.cli;

import dev.parley.engine.sampling.SamplingSettings;
import picocli.CommandLine.Option;

/**
 * Sampling options shared by {@code generate} and {@code chat}; each command supplies its own
 * defaults through a default-value provider, so that {@code --help} shows the right ones.
 */
public final class SamplingArgs {
    @Option(names = "--temperature", paramLabel = "T",
            description = "Temperature; 0 or less means greedy (default: ${DEFAULT-VALUE}).")
    float temperature;

    @Option(names = "--top-k", paramLabel = "K", description = "Keep the K most likely tokens; 0 = off (default: ${DEFAULT-VALUE}).")
    int topK;

    @Option(names = "--top-p", paramLabel = "P", description = "Nucleus sampling, in (0, 1]; 1 = off (default: ${DEFAULT-VALUE}).")
    float topP;

    @Option(names = "--min-p", paramLabel = "P",
            description = "Drop tokens below P times the top probability, in [0, 1); 0 = off (default: ${DEFAULT-VALUE}).")
    float minP;

    @Option(names = "--repeat-penalty", paramLabel = "R", description = "Repetition penalty; 1 = off (default: ${DEFAULT-VALUE}).")
    float repeatPenalty;

    @Option(names = "--repeat-last-n", paramLabel = "N",
            description = "Tokens the repetition penalty looks back over (default: ${DEFAULT-VALUE}).")
    int repeatLastN;

    @Option(names = "--seed", paramLabel = "S", description = "Random seed; -1 = a new one each run (default: ${DEFAULT-VALUE}).")
    long seed;

    /** The settings, with a random seed when {@code --seed} is -1. */
    public SamplingSettings settings() {
        long s = seed == -1 ? System.nanoTime() ^ 0x9E3779B97F4A7C15L : seed;
        try {
            return new SamplingSettings(temperature, topK, topP, minP, repeatPenalty, repeatLastN, s);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }
}
