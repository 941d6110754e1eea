package dev.parley.models.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.models.gguf.QuantMix;
import dev.parley.engine.model.InferenceSession;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parley against llama.cpp itself on synth models of every new architecture (qwen3, gemma3, phi3) in every weight
 * type and mix our writer makes (F32, F16, Q8_0, Q4_K_M, Q5_K_M, Q6_K): llama.cpp's greedy ids are fed to Parley (scalar and vector backends) step by step, and at
 * each step Parley's log-probabilities of llama.cpp's top tokens must lie within a tolerance of llama.cpp's (these are
 * the raw logits less one constant per step, so the logits are checked, not only the ids), and Parley's top-1 must be
 * llama.cpp's wherever llama.cpp's margin is clear. The gemma3 model's window (8) is shorter than the sequence (36);
 * the phi3 model carries LongRoPE factor tensors and uses Phi-3's vocabulary fixture (llama.cpp's phi3 loader needs
 * its special tokens).
 */
class PeerParityTest {

    static final int PROMPT = 24;
    static final int STEPS = 12;
    static final int TOP = 8;

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String arch : List.of("qwen3", "gemma3", "phi3")) {
            for (QuantMix mix : List.of(QuantMix.F32, QuantMix.F16, QuantMix.Q8_0, QuantMix.Q4_K_M, QuantMix.Q5_K_M,
                    QuantMix.Q6_K)) {
                out.add(Arguments.of(arch, mix));
            }
        }
        return out.stream();
    }

    /** How far Parley may be from llama.cpp: the activations are rounded alike, only the order of sums differs. */
    static double tolerance(QuantMix mix) {
        return switch (mix) {
            case F32 -> 2e-3;
            case F16 -> 0.02;
            // Q8_0 / Q8_K activations: a value on a rounding edge may fall either way after a differently ordered sum
            // (most cases agree to 1e-5; one flip moves some logits by 0.03 to 0.08). Mistakes move them by 1 or more.
            default -> 0.15;
        };
    }

    static int[] prompt(int vocab) {
        int[] p = new int[PROMPT];
        for (int i = 0; i < PROMPT; i++) {
            p[i] = 3 + (int) ((i * 7919L + 104729L) % (vocab - 3));
        }
        return p;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void greedyIdsAndLogitsMatchLlamaCpp(String arch, QuantMix type) throws Exception {
        LlamaCppPeer peer = LlamaCppPeer.require();
        Path model = synth(arch, type.base().blockSize() == 256 ? kQuantShape(arch) : "", type, "m.gguf");
        List<LlamaCppPeer.Step> steps;
        int vocab;
        try (LlamaModel m = LlamaModel.load(model, new ModelOptions(BackendKind.SCALAR, 1))) {
            vocab = m.config().vocabSize();
        }
        int[] prompt = prompt(vocab);
        steps = peer.greedy(model, prompt, STEPS, TOP, dir);
        for (BackendKind backend : List.of(BackendKind.SCALAR, BackendKind.VECTOR)) {
            double dev = maxDeviation(model, backend, prompt, steps, tolerance(type), true);
            System.out.printf(Locale.ROOT, "peer parity %s %s %s: max |log p - llama.cpp| = %.2e (tolerance %.3g)%n",
                    arch, type, backend, dev, tolerance(type));
        }
    }

    /** A window one position wider moves the logits of a gemma3 model beyond the tolerance (ids alone may not show it). */
    @Test
    void gemmaWindowOneTooWideMovesTheLogits() throws Exception {
        LlamaCppPeer peer = LlamaCppPeer.require();
        Path model = synth("gemma3", "", QuantMix.F32, "w8.gguf");
        Path wider = synth("gemma3", ",window=9", QuantMix.F32, "w9.gguf");
        int vocab;
        try (LlamaModel m = LlamaModel.load(model, new ModelOptions(BackendKind.SCALAR, 1))) {
            vocab = m.config().vocabSize();
        }
        int[] prompt = prompt(vocab);
        List<LlamaCppPeer.Step> steps = peer.greedy(model, prompt, STEPS, TOP, dir);
        double right = maxDeviation(model, BackendKind.VECTOR, prompt, steps, tolerance(QuantMix.F32), true);
        double wrong = maxDeviation(wider, BackendKind.VECTOR, prompt, steps, tolerance(QuantMix.F32), false);
        System.out.printf(Locale.ROOT, "gemma3 window 8: %.2e from llama.cpp; window 9 on the same weights: %.2e%n",
                right, wrong);
        assertTrue(wrong > 10 * tolerance(QuantMix.F32), "a window of 9 should move the logits beyond the tolerance, "
                + "but the largest deviation was " + wrong);
    }

    /**
     * Widths that are multiples of 256, so that every matrix takes the mix's K-quant types (narrower rows fall back
     * to other types); the qwen3 heads are wider than dim / heads, as in m6.
     */
    static String kQuantShape(String arch) {
        return switch (arch) {
            case "qwen3" -> ",dim=256,heads=4,kv=2,headdim=128,ffn=512";
            case "gemma3" -> ",dim=256,heads=4,kv=2,headdim=64,ffn=512";
            default -> ",dim=256,heads=4,kv=4,headdim=64,ffn=512";
        };
    }

    private Path synth(String arch, String extra, QuantMix type, String name) throws Exception {
        ModelShape shape = ModelShape.parse("tiny-" + arch + ":ctx=512" + extra);
        Path out = dir.resolve(name);
        // llama.cpp's phi3 loader expects Phi-3's own special tokens: its vocabulary fixture is used.
        Path vocab = arch.equals("phi3") ? SharedFixtures.require("tokenizer/ggml-vocab-phi-3.gguf") : null;
        new Synth(1).write(new SynthSpec(arch, shape, type, vocab, 11, null), out);
        return out;
    }

    /**
     * Feeds the prompt and llama.cpp's ids to Parley and returns the largest difference of log-probabilities over
     * llama.cpp's top tokens; with {@code check}, fails beyond {@code tol} or on a different top-1 where llama.cpp's
     * margin exceeds twice the tolerance.
     */
    private static double maxDeviation(Path model, BackendKind backend, int[] prompt, List<LlamaCppPeer.Step> steps,
                                       double tol, boolean check) throws Exception {
        double worst = 0;
        try (LlamaModel m = LlamaModel.load(model, new ModelOptions(backend, 2));
             InferenceSession s = m.newSession(512)) {
            float[] logits = s.ingest(prompt);
            for (int k = 0; k < steps.size(); k++) {
                LlamaCppPeer.Step step = steps.get(k);
                double lse = logSumExp(logits);
                for (int i = 0; i < step.topIds().length; i++) {
                    double ours = logits[step.topIds()[i]] - lse;
                    double d = Math.abs(ours - step.topLogProbs()[i]);
                    worst = Math.max(worst, d);
                    if (check) {
                        int kk = k;
                        int ii = i;
                        assertTrue(d <= tol, () -> String.format(Locale.ROOT, "%s %s step %d token %d: log p %.5f, "
                                + "llama.cpp %.5f", model.getFileName(), backend, kk, step.topIds()[ii], ours,
                                step.topLogProbs()[ii]));
                    }
                }
                if (check && step.margin() > 2 * tol) {
                    assertEquals(step.id(), argmax(logits), model.getFileName() + " " + backend + " greedy id of step " + k);
                }
                if (k + 1 < steps.size()) {
                    logits = s.ingest(new int[] {step.id()});
                }
            }
        }
        return worst;
    }

    static double logSumExp(float[] x) {
        double max = Double.NEGATIVE_INFINITY;
        for (float v : x) {
            max = Math.max(max, v);
        }
        double sum = 0;
        for (float v : x) {
            sum += Math.exp(v - max);
        }
        return max + Math.log(sum);
    }

    static int argmax(float[] x) {
        int best = 0;
        for (int i = 1; i < x.length; i++) {
            if (x[i] > x[best]) {
                best = i;
            }
        }
        return best;
    }
}
