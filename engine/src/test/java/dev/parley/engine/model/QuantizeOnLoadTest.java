package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --weights int8} on the F16 parity model: m1 holds the same weights in Q8_0 made by ggml, so quantizing
 * m2-f16 on load must give m1's bytes exactly, and the same greedy ids and logits close to the F16 run.
 */
class QuantizeOnLoadTest {

    private static final ModelOptions INT8 = new ModelOptions(BackendKind.VECTOR, 2).withWeights(WeightFormat.INT8);

    @Test
    void int8OnLoadOfTheF16ModelReproducesTheQ8_0ModelByteForByte() throws Exception {
        Path f16 = SharedFixtures.require("parity/m2-llama-spm-f16.gguf");
        Path q8 = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        AtomicLong last = new AtomicLong();
        AtomicLong total = new AtomicLong();
        try (LlamaModel a = LlamaModel.load(f16, INT8, (done, all) -> {
                 last.accumulateAndGet(done, Math::max);
                 total.set(all);
             });
             LlamaModel b = LlamaModel.load(q8, new ModelOptions(BackendKind.VECTOR, 1))) {
            List<Tensor> mine = a.weights().distinctMatrices();
            List<Tensor> ref = b.weights().distinctMatrices();
            assertEquals(ref.size(), mine.size());
            long layerBytes = 0;
            for (int i = 0; i < mine.size(); i++) {
                Tensor t = mine.get(i);
                assertEquals(GgmlType.Q8_0, t.type(), t.name());
                assertEquals(ref.get(i).name(), t.name());
                assertArrayEquals(ref.get(i).data().toArray(ValueLayout.JAVA_BYTE), t.data().toArray(ValueLayout.JAVA_BYTE),
                        t.name() + " differs from ggml's Q8_0");
                if (t.name().startsWith("blk.")) {
                    layerBytes += t.byteSize();
                }
            }
            assertEquals(layerBytes, a.quantizedBytes(), "every layer matrix quantized, embeddings and output kept");
            assertTrue(total.get() > 0);
            assertEquals(total.get(), last.get(), "progress reaches the total");
        }
    }

    @Test
    void keepEmbeddingsKeepsThemAtStoredPrecisionAndNoKeepQuantizesThem(@TempDir Path dir) throws Exception {
        Path f16 = TinyGguf.model("llama", GgmlType.F16, false).write(dir.resolve("tiny-f16.gguf"));
        try (LlamaModel stored = LlamaModel.load(f16, new ModelOptions(BackendKind.SCALAR, 1));
             LlamaModel kept = LlamaModel.load(f16, INT8);
             LlamaModel all = LlamaModel.load(f16, INT8.withKeepEmbeddings(false))) {
            assertEquals(0, stored.quantizedBytes());
            assertEquals(GgmlType.F16, kept.weights().tokenEmbedding().type());
            assertEquals(GgmlType.F16, kept.weights().output().type());
            assertEquals(GgmlType.Q8_0, kept.weights().layers().get(0).wq().type());
            assertEquals(GgmlType.Q8_0, all.weights().tokenEmbedding().type());
            assertEquals(GgmlType.Q8_0, all.weights().output().type());
            long embeddings = 2 * GgmlType.Q8_0.byteSizeFor((long) TinyGguf.DIM * TinyGguf.VOCAB);
            assertEquals(kept.quantizedBytes() + embeddings, all.quantizedBytes());
            assertNotSame(stored.weights().layers().get(0).wq(), kept.weights().layers().get(0).wq());
            // All three still compute the same next token on this tiny model.
            int[] prompt = {1, 5, 9, 17};
            float[] a;
            float[] b;
            try (InferenceSession s = stored.newSession(16); InferenceSession t = all.newSession(16)) {
                a = s.ingest(prompt);
                b = t.ingest(prompt);
            }
            float max = 0;
            for (int i = 0; i < a.length; i++) {
                max = Math.max(max, Math.abs(a[i] - b[i]));
            }
            assertTrue(max < 0.1f * (1 + Math.abs(a[ParityTest.argmax(a)])), "logits moved by " + max);
        }
    }

    @Test
    void int8WeightsKeepTheGreedyIdsAndLogitsNearTheF16Run() throws Exception {
        Golden golden = Golden.load("m2-llama-spm-f16");
        float maxDev = 0;
        try (LlamaModel f16 = LlamaModel.load(golden.gguf(), new ModelOptions(BackendKind.VECTOR, 2));
             LlamaModel q8 = LlamaModel.load(golden.gguf(), INT8)) {
            for (Golden.Run run : golden.cases()) {
                try (InferenceSession a = f16.newSession(128); InferenceSession b = q8.newSession(128)) {
                    float[] la = a.ingest(run.fedIds());
                    float[] lb = b.ingest(run.fedIds());
                    for (int k = 0; k < run.generatedIds().length; k++) {
                        for (int i = 0; i < la.length; i++) {
                            maxDev = Math.max(maxDev, Math.abs(la[i] - lb[i]));
                        }
                        assertEquals(run.generatedIds()[k], ParityTest.argmax(lb), run.name() + " step " + k);
                        ParityTest.checkTop5(run.name() + " step " + k, run.top5().get(k), lb, 0.3f);
                        int[] next = {run.generatedIds()[k]};
                        la = a.ingest(next);
                        lb = b.ingest(next);
                    }
                }
            }
        }
        System.out.printf("int8 weights vs f16: max |logit dev| %.4f%n", maxDev);
        assertTrue(maxDev < 0.3f, "int8 weights moved a logit by " + maxDev);
        assertFalse(maxDev == 0f, "the int8 run should not be identical to the F16 run (activations differ)");
    }

    @Test
    void closingTheModelFreesTheQuantizedWeights() throws Exception {
        Path f16 = SharedFixtures.require("parity/m2-llama-spm-f16.gguf");
        LlamaModel m = LlamaModel.load(f16, INT8);
        var seg = m.weights().layers().get(0).wq().data();
        assertTrue(seg.scope().isAlive());
        m.close();
        assertFalse(seg.scope().isAlive());
    }
}
