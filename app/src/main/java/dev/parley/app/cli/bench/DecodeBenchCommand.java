package dev.parley.app.cli.bench;

import dev.parley.app.cli.LoadedModel;
import dev.parley.app.cli.ModelArgs;
import dev.parley.app.cli.Terminal;
import dev.parley.app.cli.UsageException;
import dev.parley.engine.model.InferenceSession;
import dev.parley.engine.sampling.Sampler;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parley bench decode}: prompt-processing and decode speed, like llama-bench's pp/tg tests.
 * Each run feeds P random tokens as one prompt, then G tokens one at a time (greedy); after one
 * warm-up run, the medians go to stdout as two lines, the details to stderr.
 */
@Command(name = "decode", mixinStandardHelpOptions = true,
        description = {"Measures prompt and decode speed on random tokens.",
                "Prints exactly two lines to stdout: 'prompt: X tok/s' and 'decode: Y tok/s' (medians)."})
final class DecodeBenchCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Option(names = "--prompt-tokens", paramLabel = "P", defaultValue = "64",
            description = "Prompt tokens per run (default: ${DEFAULT-VALUE}).")
    int promptTokens;

    @Option(names = "--new-tokens", paramLabel = "G", defaultValue = "32",
            description = "Tokens generated one at a time per run (default: ${DEFAULT-VALUE}).")
    int newTokens;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3",
            description = "Measured runs after one warm-up (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1234",
            description = "Seed of the random prompt (default: ${DEFAULT-VALUE}).")
    long seed;

    DecodeBenchCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (promptTokens < 1 || newTokens < 1 || runs < 1) {
            throw new UsageException("--prompt-tokens, --new-tokens and --runs must be at least 1, found "
                    + promptTokens + ", " + newTokens + " and " + runs);
        }
        PrintStream err = terminal.err();
        try (LoadedModel loaded = LoadedModel.open(modelArgs)) {
            int context = promptTokens + newTokens;
            int modelContext = loaded.model().config().contextLength();
            if (context > modelContext) {
                throw new UsageException("--prompt-tokens + --new-tokens (" + context
                        + ") exceed the model's context of " + modelContext);
            }
            int vocab = loaded.model().config().vocabSize();
            SplittableRandom random = new SplittableRandom(seed);
            int[] prompt = random.ints(promptTokens, 0, vocab).toArray();
            err.printf(Locale.ROOT, "parley: bench decode: %s, %s backend, %d threads, %.1f MB of weights per token%n",
                    modelArgs.model().getFileName(), loaded.model().backendChoice().kind().label(),
                    modelArgs.threads(), loaded.model().weightBytes() / 1e6);
            double[] promptRates = new double[runs];
            double[] decodeRates = new double[runs];
            try (InferenceSession session = loaded.model().newSession(context)) {
                for (int run = -1; run < runs; run++) {
                    double[] rates = measure(session, prompt);
                    String label = run < 0 ? "warm-up" : "run " + (run + 1);
                    err.printf(Locale.ROOT, "parley: %s: prompt %.1f tok/s, decode %.1f tok/s (%.2f GB/s of weights)%n",
                            label, rates[0], rates[1], rates[1] * loaded.model().weightBytes() / 1e9);
                    if (run >= 0) {
                        promptRates[run] = rates[0];
                        decodeRates[run] = rates[1];
                    }
                }
            }
            terminal.out().printf(Locale.ROOT, "prompt: %.1f tok/s%n", median(promptRates));
            terminal.out().printf(Locale.ROOT, "decode: %.1f tok/s%n", median(decodeRates));
        }
        return 0;
    }

    /** One run from an empty cache: {prompt tok/s, decode tok/s}. */
    private double[] measure(InferenceSession session, int[] prompt) {
        session.rewind(0);
        Sampler greedy = Sampler.greedy();
        long start = System.nanoTime();
        float[] logits = session.ingest(prompt);
        long promptDone = System.nanoTime();
        for (int i = 0; i < newTokens; i++) {
            logits = session.ingest(new int[] {greedy.sample(logits)});
        }
        long end = System.nanoTime();
        return new double[] {prompt.length * 1e9 / (promptDone - start), newTokens * 1e9 / (end - promptDone)};
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
