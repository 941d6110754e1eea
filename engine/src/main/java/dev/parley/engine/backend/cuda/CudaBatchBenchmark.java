package dev.parley.engine.backend.cuda;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Measures batched decoding on the GPU without a scheduler in the way: {@code batch} sequences each prefill a random
 * prompt, then take {@code decode} steps together, one row per sequence per step, each step copying back only the
 * greedy tokens. Reports tokens per second and the weight bytes read per second (every step reads every matrix once,
 * whatever the batch). Usable from code ({@link #run}) or a command line ({@link #main}).
 */
public final class CudaBatchBenchmark {

    /**
     * One measurement.
     *
     * @param batch            sequences decoding together
     * @param promptTokens     prompt tokens per sequence
     * @param decodeSteps      timed decode steps
     * @param prefillPerSecond prompt tokens per second over all sequences
     * @param tokensPerSecond  generated tokens per second over all sequences
     * @param weightGbPerSecond weight bytes read per second while decoding, in GB (1e9)
     */
    public record Result(int batch, int promptTokens, int decodeSteps, double prefillPerSecond, double tokensPerSecond,
                         double weightGbPerSecond) {
    }

    private CudaBatchBenchmark() {
    }

    /**
     * Runs one measurement on {@code model}'s GPU after one untimed decode step.
     *
     * @throws IllegalArgumentException when the model does not run on CUDA, or the sizes do not fit its step rows
     *                                  or KV pool
     */
    public static Result run(CudaModel model, int batch, int promptTokens, int decodeSteps, long seed) {
        if (batch < 1 || batch > model.plan().maxRows() || promptTokens < 1 || decodeSteps < 1) {
            throw new IllegalArgumentException("expected a batch of 1 to " + model.plan().maxRows()
                    + " and at least one prompt token and decode step but found " + batch + ", " + promptTokens + ", "
                    + decodeSteps);
        }
        int vocab = model.config().vocabSize();
        SplittableRandom rnd = new SplittableRandom(seed);
        List<CudaSequence> seqs = new ArrayList<>();
        try {
            int chunk = model.plan().maxRows();
            long prefillStart = System.nanoTime();
            for (int s = 0; s < batch; s++) {
                CudaSequence seq = new CudaSequence(model, chunk);
                seqs.add(seq);
                int[] prompt = rnd.ints(promptTokens, 0, vocab).toArray();
                for (int from = 0; from < promptTokens; from += chunk) {
                    int n = Math.min(chunk, promptTokens - from);
                    seq.run(prompt, from, n, from, null, null);
                }
            }
            long prefillNanos = System.nanoTime() - prefillStart;
            int[] tokens = rnd.ints(batch, 0, vocab).toArray();
            int[] positions = new int[batch];
            int[] sequences = new int[batch];
            boolean[] want = new boolean[batch];
            for (int s = 0; s < batch; s++) {
                positions[s] = promptTokens;
                sequences[s] = s;
                want[s] = true;
            }
            int[][] tables = new int[batch][];
            step(model, seqs, tokens, positions, sequences, tables, want); // warm-up
            long start = System.nanoTime();
            for (int i = 0; i < decodeSteps; i++) {
                step(model, seqs, tokens, positions, sequences, tables, want);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Result(batch, promptTokens, decodeSteps, batch * (double) promptTokens / (prefillNanos / 1e9),
                    batch * (double) decodeSteps / seconds, decodeSteps * (double) model.weightBytes() / seconds / 1e9);
        } finally {
            for (CudaSequence s : seqs) {
                s.close();
            }
        }
    }

    /** One decode row per sequence; each sequence's next token is the greedy one just computed. */
    private static void step(CudaModel model, List<CudaSequence> seqs, int[] tokens, int[] positions, int[] sequences,
                             int[][] tables, boolean[] want) {
        for (int s = 0; s < seqs.size(); s++) {
            seqs.get(s).reserve(positions[s] + 1);
            tables[s] = seqs.get(s).blockIds();
        }
        StepPlan plan = StepPlan.build(tokens, positions, sequences, tables, want, model.plan().blockSize(),
                model.config().vocabSize());
        model.step(plan, null, tokens);
        for (int s = 0; s < positions.length; s++) {
            positions[s]++;
        }
    }

    /**
     * {@code CudaBatchBenchmark MODEL.gguf [BATCHES (e.g. 1,8,16,32)] [PROMPT] [STEPS] [PEAK_GB_PER_S]}: prints a
     * Markdown table, one row per batch size; with a peak bandwidth, the share of it that decoding reads.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: CudaBatchBenchmark MODEL.gguf [BATCHES] [PROMPT] [STEPS] [PEAK_GB_PER_S]");
            System.exit(2);
        }
        String[] batches = (args.length > 1 ? args[1] : "1,8,16,32").split(",");
        int prompt = args.length > 2 ? Integer.parseInt(args[2]) : 128;
        int steps = args.length > 3 ? Integer.parseInt(args[3]) : 64;
        double peak = args.length > 4 ? Double.parseDouble(args[4]) : 0;
        LlamaModel loaded;
        try {
            loaded = LlamaModel.load(Path.of(args[0]), new ModelOptions(BackendKind.CUDA, 1));
        } catch (IOException | IllegalStateException e) {
            System.err.println("CudaBatchBenchmark: " + e.getMessage());
            System.exit(1);
            return;
        }
        try (LlamaModel model = loaded) {
            CudaModel gpu = model.cudaModel().orElseThrow();
            System.out.printf(Locale.ROOT, "%s on %s: %.2f GB of weights per step, prompt %d, %d decode steps%n%n",
                    Path.of(args[0]).getFileName(), gpu.deviceName(), gpu.weightBytes() / 1e9, prompt, steps);
            System.out.println("| batch | prefill tok/s | decode tok/s | weights GB/s |" + (peak > 0 ? " of peak |" : ""));
            System.out.println("|---:|---:|---:|---:|" + (peak > 0 ? "---:|" : ""));
            for (String b : batches) {
                Result r = run(gpu, Integer.parseInt(b.strip()), prompt, steps, 42);
                System.out.printf(Locale.ROOT, "| %d | %.0f | %.1f | %.0f |%s%n", r.batch(), r.prefillPerSecond(),
                        r.tokensPerSecond(), r.weightGbPerSecond(),
                        peak > 0 ? String.format(Locale.ROOT, " %.0f%% |", 100 * r.weightGbPerSecond() / peak) : "");
            }
        }
    }
}
