package dev.parley.engine.model;

import dev.parley.engine.backend.BackendKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Measures prompt processing and decoding speed: one prompt of {@code promptTokens} ingested at
 * once, then {@code decodeTokens} single-token steps (greedy), after {@code warmups} untimed runs.
 * Usable from a command line ({@link #main}) or from code ({@link #run}).
 */
public final class DecodeBenchmark {

    /**
     * Speeds of one timed run.
     *
     * @param promptTokensPerSecond prompt tokens per second of the prefill
     * @param decodeTokensPerSecond decoded tokens per second
     * @param decodeGigabytesPerSecond weight bytes read per second while decoding
     */
    public record Result(int promptTokens, int decodeTokens, double promptTokensPerSecond,
                         double decodeTokensPerSecond, double decodeGigabytesPerSecond) {
        @Override
        public String toString() {
            return String.format("prompt %d tok: %.1f tok/s, decode %d tok: %.1f tok/s (%.2f GB/s of weights)",
                    promptTokens, promptTokensPerSecond, decodeTokens, decodeTokensPerSecond, decodeGigabytesPerSecond);
        }
    }

    private DecodeBenchmark() {
    }

    /** Runs the benchmark on an already loaded model. */
    public static Result run(LlamaModel model, int promptTokens, int decodeTokens) {
        int ctx = Math.min(model.config().contextLength(), promptTokens + decodeTokens + 1);
        if (promptTokens < 1 || decodeTokens < 1 || promptTokens + decodeTokens > ctx) {
            throw new IllegalArgumentException("expected at least 1 prompt and 1 decode token fitting in the context of "
                    + model.config().contextLength() + " but found " + promptTokens + " + " + decodeTokens);
        }
        int vocab = model.config().vocabSize();
        int[] prompt = new int[promptTokens];
        for (int i = 0; i < prompt.length; i++) {
            prompt[i] = 1 + (int) ((i * 2654435761L) % (vocab - 1));
        }
        try (InferenceSession s = model.newSession(ctx)) {
            long t0 = System.nanoTime();
            float[] logits = s.ingest(prompt);
            long t1 = System.nanoTime();
            int[] one = new int[1];
            for (int i = 0; i < decodeTokens; i++) {
                one[0] = argmax(logits);
                logits = s.ingest(one);
            }
            long t2 = System.nanoTime();
            double decodeRate = decodeTokens / ((t2 - t1) / 1e9);
            return new Result(promptTokens, decodeTokens, promptTokens / ((t1 - t0) / 1e9), decodeRate,
                    decodeRate * model.weightBytes() / 1e9);
        }
    }

    private static int argmax(float[] logits) {
        int best = 0;
        for (int i = 1; i < logits.length; i++) {
            if (logits[i] > logits[best]) {
                best = i;
            }
        }
        return best;
    }

    /**
     * {@code DecodeBenchmark MODEL.gguf [promptTokens=64] [decodeTokens=64] [backend=vector] [threads=1] [runs=5]}:
     * prints each run and the median decode speed.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: DecodeBenchmark MODEL.gguf [prompt=64] [decode=64] [scalar|vector] [threads=1] [runs=5]");
            System.exit(2);
        }
        int prompt = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int decode = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        BackendKind kind = args.length > 3 ? BackendKind.parse(args[3]) : BackendKind.VECTOR;
        int threads = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        int runs = args.length > 5 ? Integer.parseInt(args[5]) : 5;
        try (LlamaModel model = LlamaModel.load(Path.of(args[0]), new ModelOptions(kind, threads))) {
            System.out.printf("%s, %.1f MB of weights per token, %s x%d%n", model.config(), model.weightBytes() / 1e6,
                    kind.label(), threads);
            run(model, prompt, decode); // warm-up: until C2 has compiled the kernels, vectors run slowly
            run(model, prompt, decode);
            double[] decodeRates = new double[runs];
            double[] promptRates = new double[runs];
            for (int i = 0; i < runs; i++) {
                Result r = run(model, prompt, decode);
                System.out.println("run " + (i + 1) + ": " + r);
                decodeRates[i] = r.decodeTokensPerSecond();
                promptRates[i] = r.promptTokensPerSecond();
            }
            Arrays.sort(decodeRates);
            Arrays.sort(promptRates);
            System.out.printf("median: prompt %.1f tok/s, decode %.1f tok/s (%.2f GB/s)%n", promptRates[runs / 2],
                    decodeRates[runs / 2], decodeRates[runs / 2] * model.weightBytes() / 1e9);
            System.out.printf("best:   prompt %.1f tok/s, decode %.1f tok/s (%.2f GB/s)%n", promptRates[runs - 1],
                    decodeRates[runs - 1], decodeRates[runs - 1] * model.weightBytes() / 1e9);
        }
    }
}
