package dev.parley.app.cli.models;

import dev.parley.app.cli.Terminal;
import dev.parley.app.cli.UsageException;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.gguf.QuantMix;
import dev.parley.models.synth.SynthSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code parley models synth}: writes a random-weight model of a real model's shape, for tests and benchmarks. */
@Command(name = "synth", mixinStandardHelpOptions = true,
        description = {"Writes a GGUF model with random weights and a real model's shape (for tests and benchmarks; "
                + "its text is gibberish).",
                "Example: parley models synth --shape smollm2-135m --type q8_0 --out smollm2-random.gguf"})
public final class SynthCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Option(names = "--shape", required = true, paramLabel = "NAME",
            description = "A built-in shape, optionally changed: smollm2-135m, smollm2-360m, qwen2.5-0.5b, "
                    + "qwen2.5-1.5b, llama-3.2-1b, llama-3.2-3b, tinyllama-1.1b, qwen3-0.6b, qwen3-1.7b, gemma3-1b, phi3.5-mini, "
                    + "tiny, tiny-qwen2, tiny-qwen3, tiny-gemma3, tiny-phi3; e.g. qwen2.5-0.5b:layers=2, "
                    + "tiny-gemma3:window=16.")
    String shape;

    @Option(names = "--arch", paramLabel = "ARCH", description = "llama, qwen2, qwen3, gemma3 or phi3 (default: the shape's own).")
    String arch;

    @Option(names = "--type", paramLabel = "TYPE", defaultValue = "q8_0",
            description = "Storage of the weight matrices: f32, f16, bf16, q8_0, q4_0, q4_k, q5_k, q6_k, or a llama.cpp mix "
                    + "q4_k_m / q5_k_m (Q6_K for the output and some attn_v / ffn_down) (default: ${DEFAULT-VALUE}).")
    String type;

    @Option(names = "--vocab", paramLabel = "FILE",
            description = "A GGUF file whose tokenizer to copy (default: a built-in byte-level BPE vocabulary).")
    Path vocab;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "0",
            description = "Seed of the random weights; the same options give the same file (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = {"-o", "--out"}, required = true, paramLabel = "FILE", description = "Where to write the model.")
    Path out;

    public SynthCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        ModelShape modelShape = ModelShape.parse(shape);
        QuantMix weightType = parseType(type);
        if (vocab != null && !Files.isRegularFile(vocab)) {
            throw new UsageException("vocabulary file not found: " + vocab);
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UsageException("the output folder does not exist: " + parent);
        }
        SynthSpec spec = new SynthSpec(arch != null ? arch : modelShape.arch(), modelShape, weightType, vocab, seed,
                progress());
        Synth.Result result = Synth.generate(spec, out);
        if (terminal.interactive()) {
            terminal.err().println();
        }
        terminal.out().printf(Locale.ROOT, "wrote %s: %s, %s, %,d parameters, %d tokens, %.1f MB%n", result.path(),
                modelShape.name(), weightType, result.parameterCount(), result.vocabSize(), result.bytes() / 1e6);
        return 0;
    }

    private Consumer<Double> progress() {
        int[] lastTenth = {-1};
        return fraction -> {
            int tenth = (int) Math.floor(fraction * 10);
            if (terminal.interactive()) {
                terminal.err().printf(Locale.ROOT, "\rparley: writing %s: %3.0f%%", out.getFileName(), fraction * 100);
            } else if (tenth > lastTenth[0]) {
                lastTenth[0] = tenth;
                terminal.err().printf(Locale.ROOT, "parley: writing %s: %d%%%n", out.getFileName(), tenth * 10);
            }
            terminal.err().flush();
        };
    }

    private static QuantMix parseType(String name) {
        try {
            return QuantMix.parse(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
