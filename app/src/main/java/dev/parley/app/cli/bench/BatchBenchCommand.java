package dev.parley.app.cli.bench;

import dev.parley.app.cli.Terminal;
import dev.parley.app.cli.UsageException;
import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendChoice;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.backend.cuda.CudaProbe;
import dev.parley.engine.backend.cuda.CudaStatus;
import dev.parley.engine.backend.ComputeLimit;
import dev.parley.engine.batch.BatchBenchmark;
import dev.parley.engine.batch.BatcherOptions;
import dev.parley.engine.batch.SchedulingPolicy;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.WeightFormat;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code parley bench batch}: the table behind Parley's idea, on this machine. For each batch size, a baseline
 * (no KV cache: the whole history recomputed for every token; static batches; the baseline model's weights as
 * stored, F32 for an F32 file) against Parley (KV cache, int8 weights and KV, continuous batching); then a stream of
 * requests arriving at Poisson times with random lengths, run with static and with continuous batching. Writes a
 * Markdown report and a PNG chart.
 */
@Command(name = "batch", mixinStandardHelpOptions = true,
        description = {"Measures batched generation: baseline vs Parley per batch size, then static vs continuous "
                + "batching under Poisson arrivals.", "Writes REPORT/batch.md and REPORT/batch.png."})
final class BatchBenchCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Option(names = {"-m", "--model"}, paramLabel = "FILE", required = true,
            description = "GGUF model run by Parley (quantized to int8 on load when it is F32/F16).")
    Path model;

    @Option(names = "--baseline-model", paramLabel = "FILE",
            description = "GGUF model run by the baseline with its weights as stored (an F32 file makes an F32 "
                    + "baseline; default: the same file as --model).")
    Path baselineModel;

    @Option(names = "--backend", paramLabel = "KIND", defaultValue = "vector",
            description = "Matrix backend (default: ${DEFAULT-VALUE}).")
    BackendKind backend;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", description = "Threads (default: every processor).")
    Integer threads;

    @Option(names = "--batches", split = ",", paramLabel = "N", defaultValue = "1,8,16,32",
            description = "Batch sizes of the fixed table (default: ${DEFAULT-VALUE}).")
    List<Integer> batches;

    @Option(names = "--prompt-tokens", paramLabel = "P", defaultValue = "16",
            description = "Prompt length of the fixed table (default: ${DEFAULT-VALUE}).")
    int promptTokens;

    @Option(names = "--output-tokens", paramLabel = "G", defaultValue = "32",
            description = "New tokens per request in the fixed table (default: ${DEFAULT-VALUE}).")
    int outputTokens;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3",
            description = "Timed runs of Parley per batch size; the median by throughput is reported "
                    + "(default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--no-baseline", description = "Skip the baseline column (it is slow: O(length^2)).")
    boolean noBaseline;

    @Option(names = "--poisson-requests", paramLabel = "N", defaultValue = "32",
            description = "Requests of the Poisson run; 0 skips it (default: ${DEFAULT-VALUE}).")
    int poissonRequests;

    @Option(names = "--length-scale", paramLabel = "S", defaultValue = "0.0625",
            description = "Scale of the Poisson run's lengths (mean 512, deviation 300 tokens, each scaled) "
                    + "(default: ${DEFAULT-VALUE}).")
    double lengthScale;

    @Option(names = "--rate", paramLabel = "R",
            description = "Poisson arrivals per second (default: 90%% of what continuous batching sustained at "
                    + "--poisson-batch in the fixed table, or a measured estimate).")
    Double rate;

    @Option(names = "--poisson-batch", paramLabel = "N", defaultValue = "8",
            description = "Most sequences at once in the Poisson run, for both policies (default: ${DEFAULT-VALUE}).")
    int poissonBatch;

    @Option(names = "--step-tokens", paramLabel = "N", defaultValue = "256",
            description = "Most rows per step (default: ${DEFAULT-VALUE}).")
    int stepTokens;

    @Option(names = "--kv-memory", paramLabel = "MIB", defaultValue = "512",
            description = "KV pool budget in MiB (default: ${DEFAULT-VALUE}).")
    long kvMemoryMib;

    @Option(names = "--report", paramLabel = "DIR", defaultValue = "bench-batch",
            description = "Folder for batch.md and batch.png (default: ${DEFAULT-VALUE}).")
    Path report;

    @Option(names = "--seed", defaultValue = "1234", description = "Seed of prompts and arrivals.")
    long seed;

    BatchBenchCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (promptTokens < 1 || outputTokens < 1 || batches.isEmpty() || batches.stream().anyMatch(b -> b < 1)
                || poissonBatch < 1 || runs < 1 || poissonRequests < 0 || !(lengthScale > 0) || kvMemoryMib < 1) {
            throw new UsageException("--prompt-tokens, --output-tokens, --batches, --poisson-batch, --runs, "
                    + "--length-scale and --kv-memory must be positive (and --poisson-requests >= 0)");
        }
        int threadCount = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        PrintStream err = terminal.err();
        int maxBatch = batches.stream().mapToInt(Integer::intValue).max().orElse(1);
        int context = promptTokens + outputTokens;
        List<BatchReport.Row> rows = new ArrayList<>();
        BackendChoice choice = BackendChoice.resolve(backend,
                backend.cpu() ? CudaStatus.unavailable("not probed") : CudaProbe.status());
        if (!choice.message().isEmpty()) {
            err.println("parley: " + choice.message());
        }
        double limit = Double.NaN; // the cache-resident product measures the CPU backends only
        if (choice.kind().cpu()) {
            try (Backend math = Backend.create(choice.kind(), threadCount)) {
                err.println("parley: measuring the int8 compute limit (a cache-resident Q8_0 product)...");
                limit = ComputeLimit.int8OpsPerSecond(math, 4.0);
            }
        }
        ModelOptions parleyOptions = new ModelOptions(backend, threadCount, WeightFormat.INT8, true, KvFormat.INT8);
        BatchReport.Poisson poisson = null;
        try (LlamaModel parley = LlamaModel.load(checked(model), parleyOptions)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(parley.gguf());
            long kvBudget = kvMemoryMib << 20;
            int parleyContext = Math.min(parley.config().contextLength(),
                    Math.max(context, (int) Math.min(4096, 512 * 2 * lengthScale * 4 + 64)));
            long[] opsPerRow = BatchBenchmark.opsPerRow(parley.config());
            // Warm-up: every batch size once, so the JIT has compiled the step before anything is timed.
            err.println("parley: warming up...");
            for (int b : batches) {
                BatchBenchmark.fixed(parley, tokenizer, BatcherOptions.of(b, Math.max(stepTokens, b), kvBudget,
                        parleyContext), b, promptTokens, outputTokens, seed);
            }
            LlamaModel base = noBaseline ? null : LlamaModel.load(checked(baselineModel != null ? baselineModel : model),
                    new ModelOptions(backend, threadCount, WeightFormat.STORED, true, KvFormat.F32));
            try {
                Tokenizer baseTokenizer = base == null ? null : Tokenizer.fromGguf(base.gguf());
                for (int b : batches) {
                    var options = BatcherOptions.of(b, Math.max(stepTokens, b), kvBudget, parleyContext);
                    List<BatchBenchmark.Run> timed = new ArrayList<>();
                    for (int i = 0; i < runs; i++) {
                        timed.add(BatchBenchmark.fixed(parley, tokenizer, options, b, promptTokens, outputTokens, seed));
                    }
                    timed.sort(java.util.Comparator.comparingDouble(BatchBenchmark.Run::tokensPerSecond));
                    var p = timed.get(timed.size() / 2);
                    BatchBenchmark.Run baseRun = null;
                    if (base != null) {
                        var baseOptions = BatcherOptions.of(b, Math.max(b * context, b), kvBudget, context)
                                .withPolicy(SchedulingPolicy.STATIC).withRecomputeHistory(true);
                        baseRun = BatchBenchmark.fixed(base, baseTokenizer, baseOptions, b, promptTokens, outputTokens,
                                seed);
                    }
                    double stepOps = (opsPerRow[0] * (double) (p.generatedTokens() + p.promptTokens())
                            + opsPerRow[1] * (double) p.generatedTokens()) / p.seconds();
                    var row = new BatchReport.Row(b, baseRun, p, parley.weightBytes(),
                            base == null ? 0 : base.weightBytes(), stepOps / limit);
                    rows.add(row);
                    err.println("parley: " + BatchReport.describe(row));
                }
            } finally {
                if (base != null) {
                    base.close();
                }
            }
            if (poissonRequests > 0) {
                double r = rate != null ? rate : defaultRate(rows);
                if (!(r > 0)) {
                    throw new UsageException("--rate must be positive, found " + r);
                }
                var arrivals = BatchBenchmark.poisson(poissonRequests, r, 512, 300, lengthScale,
                        parleyContext / 2, seed);
                var continuous = BatcherOptions.of(poissonBatch, Math.max(stepTokens, poissonBatch), kvBudget,
                        parleyContext);
                err.printf(Locale.ROOT, "parley: Poisson run: %d requests at %.2f/s, static then continuous...%n",
                        poissonRequests, r);
                var staticRun = BatchBenchmark.run(parley, tokenizer,
                        continuous.withPolicy(SchedulingPolicy.STATIC), arrivals, seed);
                var continuousRun = BatchBenchmark.run(parley, tokenizer, continuous, arrivals, seed);
                poisson = new BatchReport.Poisson(poissonRequests, r, lengthScale, poissonBatch, staticRun,
                        continuousRun);
            }
        }
        var header = new BatchReport.Header(model.getFileName().toString(),
                (baselineModel != null ? baselineModel : model).getFileName().toString(), choice.kind(), threadCount,
                promptTokens, outputTokens, limit, !noBaseline);
        Files.createDirectories(report);
        String markdown = BatchReport.markdown(header, rows, poisson);
        Files.writeString(report.resolve("batch.md"), markdown);
        BatchChart.write(rows, poisson, report.resolve("batch.png"));
        terminal.out().print(markdown);
        err.println("parley: wrote " + report.resolve("batch.md") + " and " + report.resolve("batch.png"));
        return 0;
    }

    private double defaultRate(List<BatchReport.Row> rows) {
        double meanOutput = Math.max(1, 512 * lengthScale);
        BatchReport.Row best = null;
        for (BatchReport.Row r : rows) {
            if (best == null || Math.abs(r.batch() - poissonBatch) < Math.abs(best.batch() - poissonBatch)) {
                best = r;
            }
        }
        double tokensPerSecond = best == null ? 50 : best.parley().tokensPerSecond();
        return 0.9 * tokensPerSecond / meanOutput;
    }

    private static Path checked(Path p) {
        if (!Files.isRegularFile(p)) {
            throw new UsageException("model file not found: " + p);
        }
        return p;
    }
}
