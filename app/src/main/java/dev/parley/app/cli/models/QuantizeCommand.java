package dev.parley.app.cli.models;

import dev.parley.app.cli.Terminal;
import dev.parley.app.cli.UsageException;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.models.gguf.GgufQuantizer;
import dev.parley.models.gguf.QuantMix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code parley models quantize IN OUT --type q4_k_m}: an F32/F16/BF16 GGUF to a llama.cpp quantization mix. */
@Command(name = "quantize", mixinStandardHelpOptions = true,
        description = {"Converts the F32, F16 or BF16 weight matrices of a GGUF model with ggml's reference "
                + "quantization and llama.cpp's per-tensor choices for the type (as llama-quantize without an "
                + "importance matrix); everything else is copied.",
                "Example: parley models quantize model-f16.gguf model-q4_k_m.gguf --type q4_k_m"})
public final class QuantizeCommand implements Callable<Integer> {
    private static final int BAR = 30;
    private final Terminal terminal;

    @Parameters(index = "0", paramLabel = "IN", description = "The F32, F16 or BF16 GGUF file.")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT", description = "Where to write the quantized file.")
    Path out;

    @Option(names = "--type", required = true, paramLabel = "TYPE",
            description = "q4_k_m, q5_k_m, q6_k or q8_0.")
    String type;

    @Option(names = "--threads", paramLabel = "N", description = "Threads (default: every processor).")
    Integer threads;

    public QuantizeCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        QuantMix mix = switch (type.strip().toLowerCase(Locale.ROOT)) {
            case "q4_k_m" -> QuantMix.Q4_K_M;
            case "q5_k_m" -> QuantMix.Q5_K_M;
            case "q6_k" -> QuantMix.Q6_K;
            case "q8_0" -> QuantMix.Q8_0;
            default -> throw new UsageException("expected --type q4_k_m, q5_k_m, q6_k or q8_0 but found '" + type + "'");
        };
        if (!Files.isRegularFile(in)) {
            throw new UsageException("input file not found: " + in);
        }
        if (Files.exists(out) && Files.isSameFile(in, out)) {
            throw new UsageException("expected an output file other than the input but both are " + in);
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UsageException("the output folder does not exist: " + parent);
        }
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (n < 1) {
            throw new UsageException("--threads must be >= 1, found " + n);
        }
        GgufQuantizer.Result result;
        try {
            result = new GgufQuantizer(n).quantize(in, out, mix, progress());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (terminal.interactive()) {
            terminal.err().println();
        }
        StringBuilder types = new StringBuilder();
        for (Map.Entry<GgmlType, Integer> e : result.typeCounts().entrySet()) {
            types.append(types.isEmpty() ? "" : ", ").append(e.getKey()).append(" x").append(e.getValue());
        }
        terminal.out().printf(Locale.ROOT, "wrote %s: %s (%s), %.1f MB%n", result.path(),
                mix.name(), types, result.bytes() / 1e6);
        return 0;
    }

    /** A bar redrawn in place on a terminal, a line per tenth otherwise (logs, tests). */
    private Consumer<Double> progress() {
        int[] lastTenth = {-1};
        return fraction -> {
            int tenth = (int) Math.floor(fraction * 10);
            if (terminal.interactive()) {
                int filled = (int) Math.floor(fraction * BAR);
                terminal.err().printf(Locale.ROOT, "\rparley: quantizing %s [%s%s] %3.0f%%", out.getFileName(),
                        "#".repeat(filled), ".".repeat(BAR - filled), fraction * 100);
            } else if (tenth > lastTenth[0]) {
                lastTenth[0] = tenth;
                terminal.err().printf(Locale.ROOT, "parley: quantizing %s: %d%%%n", out.getFileName(), tenth * 10);
            }
            terminal.err().flush();
        };
    }
}
