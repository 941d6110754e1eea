package dev.parley.models.window;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.batch.BatchHandle;
import dev.parley.engine.batch.BatchRequest;
import dev.parley.engine.batch.Batcher;
import dev.parley.engine.batch.BatcherOptions;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationRequest;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.Generator;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.BatchForward;
import dev.parley.engine.model.InferenceSession;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.StepBatch;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.Tokenizer;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Gemma 3's sliding-window layers in the paged KV cache and the batcher, on a synth gemma3 model whose window (8
 * positions; five local layers, one global) is much shorter than its sequences: batched steps over blocks of 4
 * positions give the logits of each sequence run alone, the batcher's greedy outputs are those of each request
 * alone, and a window one position wider changes the logits once a sequence is longer than the window (and not
 * before).
 */
class SlidingWindowBatchTest {

    static final int CONTEXT = 128;

    @TempDir
    Path dir;

    Path gemma(int window, String name) throws Exception {
        Path out = dir.resolve(name);
        ModelShape shape = ModelShape.parse("tiny-gemma3:ctx=" + CONTEXT + ",window=" + window);
        new Synth(1).write(new SynthSpec("gemma3", shape, GgmlType.Q8_0, null, 21, null), out);
        return out;
    }

    static int[] prompt(int length, int salt) {
        int[] p = new int[length];
        for (int i = 0; i < length; i++) {
            p[i] = 3 + (i * 131 + salt * 17) % 1000;
        }
        return p;
    }

    @ParameterizedTest
    @EnumSource(value = BackendKind.class, names = {"SCALAR", "VECTOR"})
    void pagedBatchedStepsGiveTheLogitsOfEachSequenceAlone(BackendKind backend) throws Exception {
        try (LlamaModel model = LlamaModel.load(gemma(8, "g.gguf"), new ModelOptions(backend, 2))) {
            int vocab = model.config().vocabSize();
            int[][] prompts = {prompt(21, 1), prompt(13, 2)};
            int decode = 10;
            // Alone: each sequence in a session of its own, the prompt then its own greedy ids.
            List<List<float[]>> alone = List.of(new ArrayList<>(), new ArrayList<>());
            int[][] continuation = new int[2][decode];
            for (int s = 0; s < 2; s++) {
                try (InferenceSession session = model.newSession(CONTEXT)) {
                    float[] logits = session.ingest(prompts[s]).clone();
                    alone.get(s).add(logits);
                    for (int k = 0; k < decode; k++) {
                        continuation[s][k] = argmax(logits);
                        logits = session.ingest(new int[] {continuation[s][k]}).clone();
                        alone.get(s).add(logits);
                    }
                }
            }
            // Together: both sequences' rows share each step; blocks of 4 positions, tables interleaved in the pool.
            int block = 4;
            int[][] tables = new int[2][CONTEXT / block];
            for (int b = 0; b < CONTEXT / block; b++) {
                tables[0][b] = 2 * b;
                tables[1][b] = 2 * b + 1;
            }
            double worst = 0;
            try (BatchForward forward = model.newBatchForward(64, 2, CONTEXT, block, 2 * CONTEXT / block)) {
                StepBatch batch = new StepBatch(64, 2);
                float[] logits = new float[2 * vocab];
                for (int k = 0; k <= decode; k++) {
                    batch.clear();
                    for (int s = 0; s < 2; s++) {
                        int[] tokens = k == 0 ? prompts[s] : new int[] {continuation[s][k - 1]};
                        int first = k == 0 ? 0 : prompts[s].length + k - 1;
                        batch.setTable(s, tables[s], (first + tokens.length + block - 1) / block);
                        for (int i = 0; i < tokens.length; i++) {
                            batch.add(s, tokens[i], first + i, i == tokens.length - 1);
                        }
                    }
                    forward.forward(batch, logits);
                    for (int s = 0; s < 2; s++) {
                        float[] expected = alone.get(s).get(k);
                        for (int v = 0; v < vocab; v++) {
                            worst = Math.max(worst, Math.abs(expected[v] - logits[s * vocab + v]));
                        }
                    }
                }
            }
            System.out.printf(Locale.ROOT, "gemma3 window 8, %s: batched vs alone, max |logit difference| %.2e%n",
                    backend, worst);
            // Both backends compute every dot product, softmax and activation the same way in a batch as alone: the
            // vector kernels end in a fixed summation tree and take exp from their own polynomial (reduceLanes and the
            // Vector API's exp round otherwise once the JIT has compiled them, which moved these logits by 0.05). A
            // window applied wrongly in the batched path moves them by about 2.
            double tolerance = 0;
            assertTrue(worst <= tolerance, "batched logits should be those of each sequence alone but differ by "
                    + worst);
        }
    }

    @Test
    void theBatcherGivesEachRequestItsOutputAlone() throws Exception {
        try (LlamaModel model = LlamaModel.load(gemma(8, "g.gguf"), new ModelOptions(BackendKind.VECTOR, 2))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            int[][] prompts = {prompt(30, 3), prompt(5, 4), prompt(17, 5), prompt(44, 6)};
            BatcherOptions options = BatcherOptions.of(4, 24, 1 << 22, CONTEXT).withBlockSize(4);
            try (Batcher batcher = new Batcher(model, tokenizer, options)) {
                List<BatchHandle> handles = new ArrayList<>();
                for (int[] p : prompts) {
                    handles.add(batcher.submit(BatchRequest.greedy(p, 20), e -> { }));
                }
                for (int i = 0; i < prompts.length; i++) {
                    GenerationResult together = handles.get(i).result().get(120, TimeUnit.SECONDS);
                    try (CachedSession session = new CachedSession(model.newSession(CONTEXT))) {
                        GenerationResult alone = new Generator(tokenizer).generate(session,
                                new GenerationRequest(prompts[i], 20, List.of()), Sampler.greedy(),
                                new CancellationToken(), e -> { });
                        assertArrayEquals(alone.tokens(), together.tokens(), "request " + i);
                    }
                }
            }
        }
    }

    @Test
    void aWindowOnePositionWiderChangesTheLogitsOnlyPastTheWindow() throws Exception {
        try (LlamaModel right = LlamaModel.load(gemma(8, "w8.gguf"), new ModelOptions(BackendKind.VECTOR, 2));
             LlamaModel wider = LlamaModel.load(gemma(9, "w9.gguf"), new ModelOptions(BackendKind.VECTOR, 2))) {
            // Within the window (8 positions: the query sees all of them either way) the logits are the same.
            assertEquals(0.0, maxDifference(right, wider, prompt(8, 7)), 1e-6,
                    "a sequence no longer than the window cannot tell 8 from 9");
            double past = maxDifference(right, wider, prompt(20, 7));
            System.out.printf(Locale.ROOT, "gemma3: window 9 instead of 8 moves the logits by %.3f at position 19%n",
                    past);
            assertTrue(past > 0.01, "one more visible position should move the logits, but they moved by " + past);
        }
    }

    private static double maxDifference(LlamaModel a, LlamaModel b, int[] prompt) {
        try (InferenceSession sa = a.newSession(CONTEXT); InferenceSession sb = b.newSession(CONTEXT)) {
            float[] la = sa.ingest(prompt);
            float[] lb = sb.ingest(prompt);
            double worst = 0;
            for (int i = 0; i < la.length; i++) {
                worst = Math.max(worst, Math.abs(la[i] - lb[i]));
            }
            return worst;
        }
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
