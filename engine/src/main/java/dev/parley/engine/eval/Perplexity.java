package dev.parley.engine.eval;

import dev.parley.engine.model.InferenceSession;
import dev.parley.engine.model.LlamaModel;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Perplexity of a model on a token sequence, by llama.cpp's method ({@code tools/perplexity}): the tokens are cut
 * into non-overlapping windows of {@code contextLength} (a partial last window is dropped), each evaluated from
 * an empty cache with its first token replaced by BOS when the vocabulary adds one; in each window only the
 * second half is scored, the logits at positions {@code ctx/2 .. ctx-2} predicting the next token. PPL is
 * {@code exp(mean NLL)}; its uncertainty is {@code PPL * sqrt(var(NLL) / (n - 1))}, as llama.cpp prints it.
 */
public final class Perplexity {

    /**
     * After each window: its index, the tokens scored so far and the running perplexity.
     */
    public record Progress(int window, int windows, int scored, double runningPerplexity) {
    }

    /**
     * The final figures.
     *
     * @param nll the negative log-likelihood of every scored token, in order
     */
    public record Result(int contextLength, int windows, double perplexity, double uncertainty, double[] nll) {

        public Result {
            nll = nll.clone();
        }

        public int scored() { return nll.length; }

        /** Mean negative log-likelihood. */
        public double meanNll() {
            return Arrays.stream(nll).average().orElse(Double.NaN);
        }

        @Override
        public double[] nll() { return nll.clone(); }
    }

    private Perplexity() {
    }

    /**
     * Scores {@code tokens} with {@code model}.
     *
     * @param bos the BOS id to put at the start of every window, or -1 to leave the tokens as they are
     * @throws IllegalArgumentException when the context is below 4 or exceeds the model's, or there are fewer
     *                                  tokens than one window
     */
    public static Result compute(LlamaModel model, int[] tokens, int contextLength, int bos, Consumer<Progress> progress) {
        if (contextLength < 4 || contextLength > model.config().contextLength()) {
            throw new IllegalArgumentException("expected a perplexity context from 4 to the model's "
                    + model.config().contextLength() + " but found " + contextLength);
        }
        int windows = tokens.length / contextLength;
        if (windows < 1) {
            throw new IllegalArgumentException("expected at least " + contextLength + " tokens (one window) but found "
                    + tokens.length);
        }
        int first = contextLength / 2;
        int perWindow = contextLength - first - 1;
        double[] nll = new double[windows * perWindow];
        int[] scored = {0};
        double sum = 0;
        try (InferenceSession s = model.newSession(contextLength)) {
            for (int w = 0; w < windows; w++) {
                int[] window = Arrays.copyOfRange(tokens, w * contextLength, (w + 1) * contextLength);
                if (bos >= 0) {
                    window[0] = bos;
                }
                s.rewind(0);
                s.ingestAll(window, (j, logits, offset) -> {
                    if (j >= first && j <= contextLength - 2) {
                        nll[scored[0]++] = -logProbability(logits, offset, model.config().vocabSize(), window[j + 1]);
                    }
                });
                for (int i = w * perWindow; i < scored[0]; i++) {
                    sum += nll[i];
                }
                progress.accept(new Progress(w + 1, windows, scored[0], Math.exp(sum / scored[0])));
            }
        }
        return summarize(contextLength, windows, nll);
    }

    /** PPL and its uncertainty from per-token negative log-likelihoods (llama.cpp's formulas). */
    public static Result summarize(int contextLength, int windows, double[] nll) {
        int n = nll.length;
        double mean = 0;
        double meanSquare = 0;
        for (double v : nll) {
            mean += v;
            meanSquare += v * v;
        }
        mean /= n;
        meanSquare /= n;
        double ppl = Math.exp(mean);
        double variance = meanSquare - mean * mean;
        double uncertainty = variance > 0 && n > 1 ? ppl * Math.sqrt(variance / (n - 1)) : 0;
        return new Result(contextLength, windows, ppl, uncertainty, nll);
    }

    /** {@code log softmax(logits)[target]}, the sum of exponentials in double. */
    public static double logProbability(float[] logits, int offset, int vocab, int target) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < vocab; i++) {
            max = Math.max(max, logits[offset + i]);
        }
        double sum = 0;
        for (int i = 0; i < vocab; i++) {
            sum += Math.exp(logits[offset + i] - max);
        }
        return logits[offset + target] - max - Math.log(sum);
    }
}
