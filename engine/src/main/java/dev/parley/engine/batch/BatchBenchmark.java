package dev.parley.engine.batch;

import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The measurements behind {@code parley bench batch}: a fixed batch of equal requests submitted at once, and a
 * stream of requests of random lengths arriving at random (Poisson) times. Requests are greedy on random prompt
 * tokens and ignore end-of-generation tokens, so every run computes exactly the requested lengths.
 */
public final class BatchBenchmark {

    private BatchBenchmark() {
    }

    /**
     * One run.
     *
     * @param requests        requests run
     * @param generatedTokens tokens generated in all
     * @param promptTokens    prompt rows computed (recomputed history counted again)
     * @param seconds         from the first submission to the last result
     * @param meanLatencyMs   mean time from submission to result
     * @param p50LatencyMs    median time from submission to result
     * @param p99LatencyMs    99th percentile of the time from submission to result
     * @param busyFraction    fraction of the run the engine spent in steps
     * @param kvBytesPeak     the most KV bytes held by running sequences at once
     * @param kvFootprint     KV positions held over positions used by the sequences (1.0 is no waste)
     * @param steps           batched steps run
     */
    public record Run(int requests, long generatedTokens, long promptTokens, double seconds, double meanLatencyMs,
                      double p50LatencyMs, double p99LatencyMs, double busyFraction, long kvBytesPeak,
                      double kvFootprint, long steps) {

        /** Generated tokens per second. */
        public double tokensPerSecond() {
            return generatedTokens / seconds;
        }

        /** Rows (prompt and generated) per second. */
        public double rowsPerSecond() {
            return (generatedTokens + promptTokens) / seconds;
        }
    }

    /** One request of a Poisson run: when it arrives (seconds after the start) and its lengths. */
    public record Arrival(double atSeconds, int promptTokens, int outputTokens) {
    }

    /**
     * Runs {@code batch} requests of {@code promptTokens} random tokens and {@code outputTokens} new tokens, all
     * submitted at once, on a fresh batcher with {@code options}.
     */
    public static Run fixed(LlamaModel model, Tokenizer tokenizer, BatcherOptions options, int batch,
                            int promptTokens, int outputTokens, long seed) throws InterruptedException {
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < batch; i++) {
            arrivals.add(new Arrival(0, promptTokens, outputTokens));
        }
        return run(model, tokenizer, options, arrivals, seed);
    }

    /**
     * {@code n} arrivals at {@code ratePerSecond} on average (exponential gaps), with prompt and output lengths
     * drawn from a normal distribution of {@code mean} and {@code deviation}, both multiplied by {@code scale},
     * clipped to 1 .. {@code maxLength}.
     */
    public static List<Arrival> poisson(int n, double ratePerSecond, double mean, double deviation, double scale,
                                        int maxLength, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Arrival> arrivals = new ArrayList<>();
        double t = 0;
        for (int i = 0; i < n; i++) {
            arrivals.add(new Arrival(t, length(random, mean, deviation, scale, maxLength),
                    length(random, mean, deviation, scale, maxLength)));
            t += -Math.log(1 - random.nextDouble()) / ratePerSecond;
        }
        return arrivals;
    }

    private static int length(SplittableRandom random, double mean, double deviation, double scale, int max) {
        double v = (mean + deviation * random.nextGaussian()) * scale;
        return (int) Math.max(1, Math.min(max, Math.round(v)));
    }

    /** Submits {@code arrivals} at their times to a fresh batcher with {@code options} and waits for all. */
    public static Run run(LlamaModel model, Tokenizer tokenizer, BatcherOptions options, List<Arrival> arrivals,
                          long seed) throws InterruptedException {
        int vocab = model.config().vocabSize();
        SplittableRandom random = new SplittableRandom(seed);
        List<BatchRequest> requests = new ArrayList<>();
        for (Arrival a : arrivals) {
            int[] prompt = random.ints(a.promptTokens(), 0, vocab).toArray();
            requests.add(new BatchRequest(null, prompt, SamplingSettings.greedy(), a.outputTokens(), List.of(), true));
        }
        try (Batcher batcher = new Batcher(model, tokenizer, options.withQueue(Math.max(options.maxQueue(),
                arrivals.size())))) {
            List<BatchHandle> handles = new ArrayList<>();
            long[] submitted = new long[requests.size()];
            long[] done = new long[requests.size()];
            long start = System.nanoTime();
            for (int i = 0; i < requests.size(); i++) {
                long due = start + (long) (arrivals.get(i).atSeconds() * 1e9);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                int index = i;
                submitted[i] = System.nanoTime();
                // Done is the result's delivery: for a static batch, when the whole batch ends.
                handles.add(batcher.submit(requests.get(i), e -> {
                    if (e instanceof TokenEvent.Done) {
                        done[index] = System.nanoTime();
                    }
                }));
            }
            long generated = 0;
            for (BatchHandle h : handles) {
                generated += await(h).tokens().length;
            }
            long end = System.nanoTime();
            BatcherMetrics m = batcher.metrics();
            long[] latencies = new long[handles.size()];
            for (int i = 0; i < latencies.length; i++) {
                latencies[i] = done[i] - submitted[i];
            }
            Arrays.sort(latencies);
            double mean = Arrays.stream(latencies).average().orElse(0) / 1e6;
            double seconds = (end - start) / 1e9;
            // The batcher's busy fraction counts from its own start, just before this run's first submission.
            double busy = Math.min(1.0, m.busyFraction() * (end - batcher.startNanos()) / (double) (end - start));
            return new Run(handles.size(), generated, m.promptTokens(), seconds, mean,
                    LatencyWindow.percentile(latencies, 0.50) / 1e6, LatencyWindow.percentile(latencies, 0.99) / 1e6,
                    busy, m.kvBlocksPeak() * m.kvBytesPerBlock(), m.kvFootprintRatio(), m.steps());
        }
    }

    private static GenerationResult await(BatchHandle h) throws InterruptedException {
        try {
            return h.result().get(1, TimeUnit.HOURS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("a benchmark request failed: " + e.getMessage(), e);
        }
    }

    /**
     * Multiply-adds (times 2) per row of the matrices every row goes through (attention and feed-forward of every
     * layer), and of the output matrix, which only rows that need logits go through.
     */
    public static long[] opsPerRow(Configuration c) {
        long layer = (long) c.dim() * c.qDim() + 2L * c.dim() * c.kvDim() + (long) c.qDim() * c.dim()
                + 3L * c.dim() * c.ffnDim();
        return new long[] {2 * layer * c.layers(), 2L * c.dim() * c.vocabSize()};
    }
}
