package dev.parley.app.cli;

import dev.parley.engine.eval.Perplexity;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parley perplexity}: a model's perplexity on a text file by llama.cpp's method (windows of --ctx tokens,
 * the second half of each scored). The running value after each window goes to stderr; the final estimate with
 * its uncertainty to stdout.
 */
@Command(name = "perplexity", mixinStandardHelpOptions = true,
        description = {"Measures a model's perplexity on a text, like llama.cpp's perplexity tool: the text is cut "
                + "into windows of --ctx tokens, each evaluated from an empty cache, and the second half of each "
                + "window is scored.",
                "Prints 'Final estimate: PPL = X +/- Y' to stdout.",
                "Example: parley perplexity -m model.gguf --file text.txt --ctx 256 --weights int8 --kv int8"})
final class PerplexityCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Option(names = {"-f", "--file"}, paramLabel = "TEXT", required = true, description = "A UTF-8 text file.")
    Path file;

    PerplexityCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new UsageException("text file not found: " + file);
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        PrintStream err = terminal.err();
        try (LoadedModel loaded = LoadedModel.open(modelArgs)) {
            LlamaModel model = loaded.model();
            Tokenizer tokenizer = loaded.tokenizer();
            int ctx = modelArgs.context();
            if (ctx > model.config().contextLength()) {
                throw new UsageException("--ctx " + ctx + " exceeds the model's context of "
                        + model.config().contextLength());
            }
            int[] tokens = tokenizer.encode(text, true, false);
            boolean bos = tokenizer.vocabulary().addBos();
            if (tokens.length < ctx) {
                throw new UsageException("the text has " + tokens.length + " tokens, fewer than one window of --ctx "
                        + ctx + "; use a longer text or a smaller --ctx");
            }
            err.printf(Locale.ROOT, "parley: perplexity: %s, %d tokens, %d windows of %d, weights %s, KV %s, %d threads%n",
                    modelArgs.model().getFileName(), tokens.length, tokens.length / ctx, ctx,
                    label(model.options().weights()), label(model.options().kv()), modelArgs.threads());
            err.print("parley: running PPL:");
            Perplexity.Result r = Perplexity.compute(model, tokens, ctx, bos ? tokenizer.vocabulary().bos() : -1,
                    p -> {
                        err.printf(Locale.ROOT, " [%d]%.4f", p.window(), p.runningPerplexity());
                        err.flush();
                    });
            err.println();
            terminal.out().printf(Locale.ROOT, "Final estimate: PPL = %.4f +/- %.5f%n", r.perplexity(), r.uncertainty());
        }
        return 0;
    }

    private static String label(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
