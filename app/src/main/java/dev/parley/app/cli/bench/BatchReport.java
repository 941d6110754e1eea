package dev.parley.app.cli.bench;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.batch.BatchBenchmark.Run;
import java.util.List;
import java.util.Locale;

/** The Markdown report of {@code parley bench batch}. */
final class BatchReport {

    /** What was run. */
    record Header(String model, String baselineModel, BackendKind backend, int threads, int promptTokens,
                  int outputTokens, double int8OpsLimit, boolean baseline) {
    }

    /**
     * One batch size: the baseline run (null when skipped) and Parley's, the weights in memory, and Parley's matrix
     * work per second as a fraction of the measured int8 limit.
     */
    record Row(int batch, Run baseline, Run parley, long parleyWeightBytes, long baselineWeightBytes,
               double fractionOfLimit) {
    }

    /** The Poisson-arrival comparison. */
    record Poisson(int requests, double rate, double scale, int maxRunning, Run staticRun, Run continuousRun) {
    }

    private BatchReport() {
    }

    /** {@code f} as a whole percentage, or "n/a" when there is no limit to compare with (NaN). */
    static String percent(double f) {
        return Double.isNaN(f) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * f);
    }

    static String describe(Row r) {
        String base = r.baseline() == null ? "" : String.format(Locale.ROOT, "baseline %.1f tok/s, ",
                r.baseline().tokensPerSecond());
        return String.format(Locale.ROOT, "batch %d: %sParley %.1f tok/s (%s of the int8 limit), mean latency "
                        + "%.0f ms, P99 %.0f ms", r.batch(), base, r.parley().tokensPerSecond(),
                percent(r.fractionOfLimit()), r.parley().meanLatencyMs(), r.parley().p99LatencyMs());
    }

    static String markdown(Header h, List<Row> rows, Poisson poisson) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "## Batched generation: %s, %s backend, %d threads%n%n", h.model(),
                h.backend().name().toLowerCase(Locale.ROOT), h.threads()));
        b.append(String.format(Locale.ROOT, "Each request: %d prompt tokens, %d new tokens (greedy, end-of-text "
                + "ignored), all submitted at once. ", h.promptTokens(), h.outputTokens()));
        if (h.baseline()) {
            b.append(String.format(Locale.ROOT, "Baseline: `%s` with weights as stored and an F32 cache used only "
                    + "as scratch (the whole history is recomputed for every new token), static batches. ",
                    h.baselineModel()));
        }
        b.append(String.format(Locale.ROOT, "Parley: `%s` with int8 weights, int8 KV cache, continuous batching. "
                + "Latency: submission to result (a static batch delivers its results when it ends). Memory: weights plus the KV blocks held at the peak. "
                + "Int8 limit: %s, measured on a cache-resident Q8_0 product.%n%n", h.model(),
                Double.isNaN(h.int8OpsLimit()) ? "not measured on this backend"
                        : String.format(Locale.ROOT, "%.1f GOPS", h.int8OpsLimit() / 1e9)));
        Row first = rows.isEmpty() ? null : rows.getFirst();
        if (h.baseline()) {
            b.append("| batch | baseline tok/s | Parley tok/s | Parley vs baseline | Parley vs batch 1 | "
                    + "mean latency baseline / Parley (s) | P99 latency baseline / Parley (s) | "
                    + "memory baseline / Parley (MiB) | KV held / used | % of int8 limit |\n");
            b.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        } else {
            b.append("| batch | Parley tok/s | Parley vs batch 1 | mean latency (s) | P99 latency (s) | "
                    + "memory (MiB) | KV held / used | % of int8 limit |\n");
            b.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        }
        for (Row r : rows) {
            Run p = r.parley();
            double vsOne = first == null ? 1 : p.tokensPerSecond() / first.parley().tokensPerSecond();
            double parleyMem = (r.parleyWeightBytes() + p.kvBytesPeak()) / 1048576.0;
            if (h.baseline() && r.baseline() != null) {
                Run base = r.baseline();
                b.append(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.1fx | %.2fx | %.2f / %.2f | %.2f / %.2f | "
                                + "%.0f / %.0f | %.3f | %s |%n", r.batch(), base.tokensPerSecond(),
                        p.tokensPerSecond(), p.tokensPerSecond() / base.tokensPerSecond(), vsOne,
                        base.meanLatencyMs() / 1e3, p.meanLatencyMs() / 1e3, base.p99LatencyMs() / 1e3,
                        p.p99LatencyMs() / 1e3, (r.baselineWeightBytes() + base.kvBytesPeak()) / 1048576.0, parleyMem,
                        p.kvFootprint(), percent(r.fractionOfLimit())));
            } else {
                b.append(String.format(Locale.ROOT, "| %d | %.1f | %.2fx | %.2f | %.2f | %.0f | %.3f | %s |%n",
                        r.batch(), p.tokensPerSecond(), vsOne, p.meanLatencyMs() / 1e3, p.p99LatencyMs() / 1e3,
                        parleyMem, p.kvFootprint(), percent(r.fractionOfLimit())));
            }
        }
        if (poisson != null) {
            Run s = poisson.staticRun();
            Run c = poisson.continuousRun();
            b.append(String.format(Locale.ROOT, "%n### Poisson arrivals: %d requests at %.2f/s, lengths mean %.0f "
                            + "(deviation %.0f) for prompt and output, at most %d sequences at once%n%n",
                    poisson.requests(), poisson.rate(), 512 * poisson.scale(), 300 * poisson.scale(),
                    poisson.maxRunning()));
            b.append("| batching | throughput tok/s | engine busy | P50 latency (s) | P99 latency (s) | steps |\n");
            b.append("|---|---:|---:|---:|---:|---:|\n");
            for (var e : List.of(java.util.Map.entry("static", s), java.util.Map.entry("continuous", c))) {
                Run r = e.getValue();
                b.append(String.format(Locale.ROOT, "| %s | %.1f | %.0f%% | %.2f | %.2f | %d |%n", e.getKey(),
                        r.tokensPerSecond(), 100 * r.busyFraction(), r.p50LatencyMs() / 1e3, r.p99LatencyMs() / 1e3,
                        r.steps()));
            }
            b.append(String.format(Locale.ROOT, "%nContinuous vs static: %.2fx the throughput, P99 latency %.2fx.%n",
                    c.tokensPerSecond() / s.tokensPerSecond(), c.p99LatencyMs() / s.p99LatencyMs()));
        }
        return b.toString();
    }
}
