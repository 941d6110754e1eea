package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.eval.Perplexity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Parley's perplexity against a reference computed only from llama.cpp's goldens (no Parley logits): the scored
 * text is the "short" prompt followed by its greedy continuation, so every scored position is a golden step. With
 * a window of {@code n = 2 * prompt - 2} tokens the scored positions {@code n/2 .. n-2} are exactly steps 0 to
 * {@code n - prompt - 1}: step 0 has llama.cpp's full logits (exact log-softmax); later steps have their top-5
 * logits, which bound the log-sum-exp from below (top-5 only) and above (every other token at most the 5th logit).
 * Each window ends with a different token from the last step's top 5, so the scores are not all near zero.
 */
class PerplexityGoldenTest {

    private static final float TOLERANCE = 0.1f; // Parley vs llama.cpp logits on the F16 model (see ParityTest)

    @Test
    void perplexityMatchesTheOneComputedFromTheGoldens() throws Exception {
        Golden golden = Golden.load("m2-llama-spm-f16");
        Golden.Run run = golden.cases().stream().filter(r -> r.name().equals("short")).findFirst().orElseThrow();
        int prompt = run.fedIds().length;
        int n = 2 * prompt - 2;
        int steps = n - prompt; // steps 0 .. steps-1 are scored
        int vocab = run.step0Logits().length;
        float[][] lastTop5 = run.top5().get(steps - 1);
        List<int[]> windows = new ArrayList<>();
        for (float[] pair : lastTop5) {
            int[] w = new int[n];
            System.arraycopy(run.fedIds(), 0, w, 0, prompt);
            System.arraycopy(run.generatedIds(), 0, w, prompt, steps - 1);
            w[n - 1] = (int) pair[0];
            windows.add(w);
        }
        // Reference bounds of each scored token's NLL = logsumexp - logit(target).
        List<double[]> bounds = new ArrayList<>();
        for (int[] w : windows) {
            for (int k = 0; k < steps; k++) {
                int target = w[prompt + k];
                if (k == 0) {
                    double nll = logSumExp(run.step0Logits()) - run.step0Logits()[target];
                    bounds.add(new double[] {nll, nll});
                } else {
                    float[][] top = run.top5().get(k);
                    float targetLogit = Float.NaN;
                    double[] exps = new double[top.length];
                    for (int i = 0; i < top.length; i++) {
                        exps[i] = top[i][1];
                        if ((int) top[i][0] == target) {
                            targetLogit = top[i][1];
                        }
                    }
                    assertTrue(!Float.isNaN(targetLogit), "target in the golden top 5 at step " + k);
                    double low = logSumExp(exps);
                    double[] withRest = Arrays.copyOf(exps, top.length + 1);
                    withRest[top.length] = top[top.length - 1][1] + Math.log(vocab - top.length);
                    double high = logSumExp(withRest);
                    bounds.add(new double[] {low - targetLogit, high - targetLogit});
                }
            }
        }
        int[] text = windows.stream().flatMapToInt(Arrays::stream).toArray();
        List<Perplexity.Progress> progress = new ArrayList<>();
        Perplexity.Result r;
        try (LlamaModel m = LlamaModel.load(golden.gguf(), new ModelOptions(BackendKind.VECTOR, 2))) {
            r = Perplexity.compute(m, text, n, 1, progress::add);
        }
        assertEquals(windows.size(), r.windows());
        assertEquals(bounds.size(), r.scored());
        assertEquals(windows.size(), progress.size());
        double refMean = 0;
        double[] nll = r.nll();
        for (int i = 0; i < nll.length; i++) {
            double[] b = bounds.get(i);
            assertTrue(nll[i] >= b[0] - 2 * TOLERANCE && nll[i] <= b[1] + 2 * TOLERANCE,
                    "token " + i + ": NLL " + nll[i] + " outside the golden range " + Arrays.toString(b));
            refMean += (b[0] + b[1]) / 2;
        }
        refMean /= nll.length;
        double refPpl = Math.exp(refMean);
        System.out.printf("perplexity %.4f +/- %.4f, reference from goldens %.4f%n", r.perplexity(), r.uncertainty(),
                refPpl);
        assertTrue(r.meanNll() > 0.5, "the non-greedy window ends make the text surprising, mean NLL " + r.meanNll());
        assertEquals(refMean, Math.log(r.perplexity()), 2 * TOLERANCE, "log perplexity");
        assertEquals(r.perplexity(), progress.getLast().runningPerplexity(), 1e-9 * r.perplexity());
        // The spread as llama.cpp computes it, from the reference NLLs.
        double[] refNll = bounds.stream().mapToDouble(b -> (b[0] + b[1]) / 2).toArray();
        double refUncertainty = Perplexity.summarize(n, windows.size(), refNll).uncertainty();
        assertEquals(refUncertainty, r.uncertainty(), 0.1 * refUncertainty);
    }

    @Test
    void tooFewTokensOrABadContextAreRejected() throws Exception {
        Golden golden = Golden.load("m2-llama-spm-f16");
        try (LlamaModel m = LlamaModel.load(golden.gguf(), new ModelOptions(BackendKind.SCALAR, 1))) {
            assertThrows(IllegalArgumentException.class, () -> Perplexity.compute(m, new int[10], 16, 1, x -> { }));
            assertThrows(IllegalArgumentException.class, () -> Perplexity.compute(m, new int[10], 3, 1, x -> { }));
        }
    }

    @Test
    void summarizeFollowsLlamaCppsFormula() {
        double[] nll = {1, 2, 3, 4};
        Perplexity.Result r = Perplexity.summarize(4, 1, nll);
        assertEquals(Math.exp(2.5), r.perplexity(), 1e-12);
        // variance of the NLLs = 1.25; uncertainty = ppl * sqrt(1.25 / 3)
        assertEquals(Math.exp(2.5) * Math.sqrt(1.25 / 3), r.uncertainty(), 1e-12);
    }

    private static double logSumExp(float[] x) {
        double[] d = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            d[i] = x[i];
        }
        return logSumExp(d);
    }

    private static double logSumExp(double[] x) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : x) {
            max = Math.max(max, v);
        }
        double s = 0;
        for (double v : x) {
            s += Math.exp(v - max);
        }
        return max + Math.log(s);
    }
}
