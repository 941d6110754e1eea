package dev.parley.app.cli.models;

import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.MemoryReport;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.Weights;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engine's memory figures for {@code parley models info}: weights by type (mapped or quantized on load), KV
 * cache, scratch and total for a context and KV format, and the longest context that fits a budget. Built from
 * the file's configuration and tensor table, without loading or quantizing anything.
 */
final class MemoryRows {

    private static final Pattern SIZE = Pattern.compile("(?i)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)?\\s*");

    private MemoryRows() {
    }

    /** Key/value rows for {@code file} run with {@code options} at {@code context} positions. */
    static List<String[]> rows(Path file, ModelOptions options, int context, Long budget) throws IOException {
        List<String[]> out = new ArrayList<>();
        int threads = options.threads();
        try (GgufFile gguf = GgufFile.open(file)) {
            Configuration config = Configuration.fromGguf(gguf);
            Weights stored = Weights.load(gguf, config);
            int ctx = Math.min(context, config.contextLength());
            MemoryReport r = MemoryReport.estimate(config, stored, options, ctx,
                    Math.min(LlamaModel.DEFAULT_CHUNK, ctx), threads);
            String weights = options.weights().name().toLowerCase(Locale.ROOT);
            String kv = options.kv().name().toLowerCase(Locale.ROOT);
            out.add(new String[] {"run memory", MemoryReport.human(r.totalBytes()) + " at context " + ctx
                    + " with weights " + weights + ", KV " + kv});
            for (String line : r.lines()) {
                out.add(new String[] {"", line});
            }
            out.add(new String[] {"KV per token", "f32 " + MemoryReport.human(kvPerToken(config, KvFormat.F32))
                    + ", f16 " + MemoryReport.human(kvPerToken(config, KvFormat.F16))
                    + ", int8 " + MemoryReport.human(kvPerToken(config, KvFormat.INT8))});
            if (budget != null) {
                int longest = MemoryReport.longestContext(config, stored, options, budget, threads);
                out.add(new String[] {"budget", MemoryReport.human(budget) + ": "
                        + (longest == 0 ? "the weights alone do not fit"
                        : "longest context " + longest + (longest == config.contextLength() ? " (the model's own)" : ""))
                        + " with weights " + weights + ", KV " + kv});
            }
        }
        return out;
    }

    private static long kvPerToken(Configuration c, KvFormat f) {
        return dev.parley.engine.model.KvCache.bytesPerToken(c, f);
    }

    /**
     * Parses a size such as {@code 2GiB}, {@code 512MiB}, {@code 1.5GB} or {@code 1000000} (bytes); K/M/G/T and
     * KiB/MiB/GiB/TiB are powers of 1024, KB/MB/GB/TB powers of 1000.
     *
     * @throws IllegalArgumentException saying what was expected
     */
    static long parseSize(String s) {
        Matcher m = SIZE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a size such as 2GiB, 512MiB or 1500000000 but found '" + s + "'");
        }
        double v = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
        double mult = switch (unit) {
            case "b" -> 1;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            case "t", "tib" -> 1L << 40;
            case "kb" -> 1e3;
            case "mb" -> 1e6;
            case "gb" -> 1e9;
            default -> 1e12;
        };
        return (long) (v * mult);
    }
}
