package dev.parley.models.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.InferenceSession;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.models.gguf.GgufQuantizer;
import dev.parley.models.gguf.QuantMix;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parley against llama.cpp itself (node-llama-cpp 3.21.1, CPU, 1 thread) on synth models of every K-quant type and
 * mix, and on {@code models quantize} output: at each of {@value #STEPS} steps, teacher-forced with llama.cpp's
 * top-1 token, llama.cpp's top-5 logits (log-probabilities at temperature 1: the raw logits up to one constant per
 * step, so differences from the top-1 are compared) must match Parley's within {@value #TOL} on both backends, and
 * where llama.cpp's top-1 leads the second by more than twice that, Parley's greedy id must be the same. Q8_0 models
 * run too, as the baseline.
 *
 * <p>llama.cpp runs through {@link LlamaCppPeer} (skipped with a message without node-llama-cpp). {@link PeerParityTest}
 * does the same for the qwen3, gemma3 and phi3 synth models.
 */
class LlamaCppPeerTest {

    static final int STEPS = 12;
    /**
     * On these flat random models Parley's logits often equal llama.cpp's to 1e-4 and elsewhere differ by up to about
     * 0.13 (measured: Q8_0 0.09, K-quants 0.13), where a float difference (an exp, a sum order) flips an activation's
     * Q8_K or Q8_0 rounding step; the fixtures' README calls 0.6 safe for K-quant models.
     */
    static final double TOL = 0.25;
    private static final String SHAPE = "tiny:dim=256,heads=4,kv=2,ffn=512,layers=4,ctx=512";
    private static final int[] PROMPT = {1, 40, 50, 60, 70, 300, 1000, 17};

    @TempDir
    static Path dir;
    private static LlamaCppPeer peer;

    @BeforeAll
    static void peer() {
        peer = LlamaCppPeer.require();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"llama, Q8_0", "qwen2, Q8_0", "llama, Q4_K", "llama, Q5_K", "llama, Q6_K", "llama, Q4_K_M", "llama, Q5_K_M",
            "qwen2, Q4_K", "qwen2, Q5_K", "qwen2, Q6_K"})
    void synthModelsMatchLlamaCpp(String arch, QuantMix mix) throws Exception {
        Path model = dir.resolve(arch + "-" + mix + ".gguf");
        ModelShape shape = ModelShape.parse(SHAPE + ",arch=" + arch);
        new Synth(2).write(new SynthSpec(arch, shape, mix, null, 41, null), model);
        compare(model);
    }

    /**
     * {@code models quantize} output read by llama.cpp. The second source is 384 wide, so Q4_K_M and Q5_K_M fall back
     * to Q5_0 and Q5_1 for the rows 256 does not divide, as llama-quantize does.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"'" + SHAPE + "'", "'tiny:dim=384,heads=6,kv=2,ffn=768,layers=4,ctx=512'"})
    void quantizeOutputReadByLlamaCppGivesParleysGreedyIds(String source) throws Exception {
        Path f32 = dir.resolve("src-f32.gguf");
        new Synth(2).write(new SynthSpec("llama", ModelShape.parse(source), GgmlType.F32, null, 43, null), f32);
        for (QuantMix mix : new QuantMix[] {QuantMix.Q4_K_M, QuantMix.Q5_K_M, QuantMix.Q6_K}) {
            Path out = dir.resolve("quantized-" + mix + "-" + source.hashCode() + ".gguf");
            GgufQuantizer.Result r = new GgufQuantizer(2).quantize(f32, out, mix, f -> { });
            if (source.contains("384") && mix != QuantMix.Q6_K) {
                GgmlType fallback = mix == QuantMix.Q4_K_M ? GgmlType.Q5_0 : GgmlType.Q5_1;
                org.junit.jupiter.api.Assertions.assertTrue(r.typeCounts().containsKey(fallback), r.typeCounts().toString());
            }
            List<Integer> theirs = compare(out);
            // Free-running greedy decoding in Parley gives the ids llama.cpp chose (where its margin is clear).
            try (LlamaModel m = LlamaModel.load(out, new ModelOptions(BackendKind.VECTOR, 1));
                 InferenceSession s = m.newSession(512)) {
                float[] logits = s.ingest(PROMPT);
                for (int k = 0; k < theirs.size(); k++) {
                    int id = argmax(logits);
                    if (theirs.get(k) < 0) {
                        break; // llama.cpp's own choice was not clear: the runs may part here
                    }
                    assertEquals((int) theirs.get(k), id, mix + " greedy step " + k);
                    logits = s.ingest(new int[] {id});
                }
            }
        }
    }

    /**
     * Runs llama.cpp on {@code model}, then Parley on both backends teacher-forced with llama.cpp's tokens; returns
     * llama.cpp's top-1 per step (-1 where its margin is not clear).
     */
    private static List<Integer> compare(Path model) throws Exception {
        List<LlamaCppPeer.Step> steps = peer.greedy(model, PROMPT, STEPS, 5, dir);
        List<Integer> clear = new ArrayList<>();
        double worst = 0;
        for (BackendKind backend : new BackendKind[] {BackendKind.SCALAR, BackendKind.VECTOR}) {
            try (LlamaModel m = LlamaModel.load(model, new ModelOptions(backend, 1));
                 InferenceSession s = m.newSession(512)) {
                float[] logits = s.ingest(PROMPT);
                for (int k = 0; k < STEPS; k++) {
                    LlamaCppPeer.Step step = steps.get(k);
                    int first = step.id();
                    double margin = step.margin();
                    for (int i = 0; i < step.topIds().length; i++) {
                        double theirs = step.topLogProbs()[i] - step.topLogProbs()[0];
                        double ours = logits[step.topIds()[i]] - logits[first];
                        worst = Math.max(worst, Math.abs(theirs - ours));
                        assertEquals(theirs, ours, TOL, model.getFileName() + " " + backend + " step " + k + " token "
                                + step.topIds()[i] + " (logit minus the top-1's)");
                    }
                    if (margin > 2 * TOL) {
                        assertEquals(first, argmax(logits), model.getFileName() + " " + backend + " step " + k
                                + " greedy id (llama.cpp's margin " + margin + ")");
                    }
                    if (backend == BackendKind.SCALAR) {
                        clear.add(margin > 2 * TOL ? first : -1);
                    }
                    logits = s.ingest(new int[] {first});
                }
            }
        }
        System.out.printf("peer %-24s max |dev| of top-5 logit differences %.4f%n", model.getFileName(), worst);
        return clear;
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
}
