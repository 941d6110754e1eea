package dev.parley.app.cli.models;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Bytes;
import dev.parley.models.store.ModelInfo;
import dev.parley.models.store.ModelStore;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.WeightFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code parley models info FILE|NAME}: the figures of a GGUF file (or of an installed catalog model) read from the
 * file itself; for a catalog model that is not installed, the catalog's figures.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Show a model's architecture, parameters, tensor types, sizes, context and chat template.")
final class ModelsInfoCommand implements Callable<Integer> {
    /** Context used for the memory figure when a file does not state its own. */
    static final int FALLBACK_CONTEXT = 4096;

    @CommandLine.ParentCommand
    ModelsCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE|NAME", description = "A GGUF file, or a catalog id.")
    String target;

    @Option(names = "--ctx", paramLabel = "N", description = "Context length for the memory figure "
            + "(default: the model's).")
    Integer ctx;

    @Option(names = "--kv", paramLabel = "FORMAT", defaultValue = "f32",
            description = "KV cache format for the run-memory figure: f32, f16 or int8 (default: ${DEFAULT-VALUE}).")
    KvFormat kv;

    @Option(names = "--weights", paramLabel = "FORMAT", defaultValue = "stored",
            description = "Weights as stored or int8 (quantized on load) for the run-memory figure "
                    + "(default: ${DEFAULT-VALUE}).")
    WeightFormat weights;

    @Option(names = "--budget", paramLabel = "SIZE",
            description = "A memory budget such as 2GiB or 512MB: print the longest context that fits.")
    String budget;

    @Override
    public Integer call() throws Exception {
        if (ctx != null && ctx <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--ctx must be > 0 but was " + ctx);
        }
        PrintWriter out = spec.commandLine().getOut();
        Path file = Path.of(target);
        if (Files.isRegularFile(file)) {
            print(out, file, ModelInfo.read(file), Optional.empty());
            return 0;
        }
        budgetBytes(); // reject a bad budget before looking in the catalog
        ModelCatalog catalog = parent.catalog();
        Optional<CatalogEntry> entry = catalog.find(target);
        if (entry.isEmpty()) {
            throw new IllegalArgumentException("'" + target + "' is neither a file nor a catalog id; the catalog has: "
                    + String.join(", ", catalog.ids()));
        }
        ModelStore store = parent.store();
        Path installed = store.pathFor(entry.get());
        if (Files.isRegularFile(installed) && installed.getFileName().toString().endsWith(".gguf")) {
            print(out, installed, ModelInfo.read(installed), entry);
        } else {
            printCatalog(out, entry.get(), store);
        }
        return 0;
    }

    private void print(PrintWriter out, Path file, ModelInfo info, Optional<CatalogEntry> entry) {
        int context = ctx != null ? ctx : info.contextLength() > 0 ? info.contextLength() : FALLBACK_CONTEXT;
        row(out, "file", file.toAbsolutePath().toString());
        row(out, "name", info.name());
        entry.ifPresent(e -> row(out, "catalog id", e.id() + " (" + e.license() + ")"));
        row(out, "architecture", info.architecture());
        row(out, "parameters", count(info.parameterCount()) + " (" + String.format(Locale.ROOT, "%,d",
                info.parameterCount()) + ")");
        row(out, "shape", "dim " + info.embeddingLength() + ", layers " + info.blockCount() + ", heads "
                + info.headCount() + ", kv heads " + info.headCountKv() + ", head dim " + info.headDim() + ", ffn "
                + info.feedForwardLength() + " (" + info.shapeSummary() + ")");
        row(out, "vocabulary", info.vocabSize() + " tokens");
        row(out, "tensor types", info.tensorTypesSummary()
                + (info.allTypesSupported() ? "" : "  (some types are not supported by Parley's engine)"));
        row(out, "file size", Bytes.mib(info.fileSize()) + " MiB (" + info.fileSize() + " bytes)");
        row(out, "context length", info.contextLength() > 0 ? String.valueOf(info.contextLength()) : "not stated");
        row(out, "KV cache", Bytes.human(info.kvBytesPerToken()) + " per token (F32), "
                + Bytes.human(info.kvBytesPerToken() * 1024) + " per 1k tokens");
        row(out, "memory", Bytes.human(info.memoryBytes(context)) + " at context " + context
                + " (weights " + Bytes.human(info.fileSize()) + " + KV cache "
                + Bytes.human(info.kvBytesPerToken() * context) + ")");
        if (info.engineSupport() == null) {
            try {
                ModelOptions options = ModelOptions.defaults().withWeights(weights).withKv(kv);
                for (String[] r : MemoryRows.rows(file, options, context, budgetBytes())) {
                    row(out, r[0], r[1]);
                }
            } catch (IOException e) {
                row(out, "run memory", "unknown: " + e.getMessage());
            }
        }
        row(out, "chat template", info.chatTemplate() == null ? "none"
                : "present (" + info.chatTemplateFamily().jsonName() + ")");
        row(out, "engine", info.engineSupport() == null ? "runs in Parley"
                : "not runnable by Parley: " + info.engineSupport());
    }

    private Long budgetBytes() {
        if (budget == null) {
            return null;
        }
        try {
            return MemoryRows.parseSize(budget);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--budget: " + e.getMessage());
        }
    }

    private void printCatalog(PrintWriter out, CatalogEntry e, ModelStore store) {
        row(out, "catalog id", e.id() + (store.isInstalled(e) ? " (installed)" : " (not installed: parley models pull "
                + e.id() + ")"));
        row(out, "name", e.name());
        row(out, "kind", e.kind().jsonName());
        row(out, "license", e.license());
        if (e.isBundled()) {
            row(out, "bundled", e.bundledArtifact());
        } else {
            row(out, "download", e.url().toString());
            row(out, "file size", e.sizeBytes() == null ? "unknown"
                    : Bytes.mib(e.sizeBytes()) + " MiB (" + e.sizeBytes() + " bytes)");
            row(out, "sha256", e.sha256() != null ? e.sha256() : "none published: " + e.checksumNote());
        }
        if (e.shape() != null) {
            int context = ctx != null ? ctx : e.contextLength();
            var s = e.shape();
            row(out, "architecture", e.architecture());
            row(out, "parameters", count(e.parameters()) + " (" + String.format(Locale.ROOT, "%,d", e.parameters())
                    + ")");
            row(out, "shape", s.embeddingLength() + "/" + s.blockCount() + "/" + s.headCount() + "/"
                    + s.headCountKv() + "/" + s.headDim() + "/" + s.feedForwardLength());
            row(out, "context length", String.valueOf(e.contextLength()));
            row(out, "KV cache", Bytes.human(s.kvBytesPerToken()) + " per token (F32), "
                    + Bytes.human(s.kvBytesPerToken() * 1024) + " per 1k tokens");
            e.memoryBytes(context).ifPresent(m -> row(out, "memory", Bytes.human(m) + " at context " + context));
            row(out, "chat template", e.chatTemplate());
        }
        if (e.archive() != null) {
            row(out, "archive", e.archive().format() + ", top folder " + e.archive().topFolder() + "/");
        }
    }

    static String count(long n) {
        if (n >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f B", n / 1e9);
        }
        if (n >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.1f M", n / 1e6);
        }
        return String.valueOf(n);
    }

    private static void row(PrintWriter out, String key, String value) {
        out.printf(Locale.ROOT, "%-15s %s%n", key.isEmpty() ? "" : key + ":", value);
    }
}
