package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --weights int8} on a K-quant mix (m6: Q4_K with Q6_K for some tensors): every layer matrix is
 * requantized to Q8_0 (the embedding, shared with the output, stays as stored), each requantized row is within
 * Q8_0's rounding (half a step, plus the FP16 rounding of the scale) of the K-quant values, and the greedy ids of every golden case stay llama.cpp's.
 */
class KQuantInt8Test {

    @Test
    void int8RequantizesKQuantMatricesAndKeepsTheGreedyIds() throws Exception {
        Golden golden = Golden.load("m6-qwen3-qwen2-q4_k_m");
        ModelOptions stored = new ModelOptions(BackendKind.VECTOR, 2);
        try (LlamaModel k = LlamaModel.load(golden.gguf(), stored);
             LlamaModel q8 = LlamaModel.load(golden.gguf(), stored.withWeights(WeightFormat.INT8))) {
            assertEquals(GgmlType.Q4_K, q8.weights().tokenEmbedding().type(), "kept at stored precision by default");
            List<Tensor> from = k.weights().distinctMatrices();
            List<Tensor> to = q8.weights().distinctMatrices();
            boolean sawQ6 = false;
            for (int i = 1; i < from.size(); i++) {
                Tensor a = from.get(i);
                Tensor b = to.get(i);
                sawQ6 |= a.type() == GgmlType.Q6_K;
                assertEquals(GgmlType.Q8_0, b.type(), b.name());
                float[] ra = new float[a.cols()];
                float[] rb = new float[a.cols()];
                for (int r = 0; r < a.rows(); r += 7) {
                    a.dequantizeRow(r, ra, 0);
                    b.dequantizeRow(r, rb, 0);
                    for (int blk = 0; blk < a.cols(); blk += 32) {
                        float amax = 0;
                        for (int j = blk; j < blk + 32; j++) {
                            amax = Math.max(amax, Math.abs(ra[j]));
                        }
                        float d = amax / 127;
                        float bound = d / 2 + 127 * Math.abs(d - Float.float16ToFloat(Float.floatToFloat16(d))) + 1e-9f;
                        for (int j = blk; j < blk + 32; j++) {
                            assertTrue(Math.abs(ra[j] - rb[j]) <= bound,
                                    a.name() + " row " + r + " value " + j + ": " + ra[j] + " became " + rb[j] + ", bound " + bound);
                        }
                    }
                }
            }
            assertTrue(sawQ6, "the mix has Q6_K tensors");
            for (Golden.Run run : golden.cases()) {
                try (InferenceSession s = q8.newSession(512)) {
                    float[] logits = s.ingest(run.fedIds());
                    int[] ids = new int[run.generatedIds().length];
                    for (int step = 0; step < ids.length; step++) {
                        if (step > 0) {
                            logits = s.ingest(new int[] {ids[step - 1]});
                        }
                        ids[step] = ParityTest.argmax(logits);
                    }
                    assertArrayEquals(run.generatedIds(), ids, run.name());
                }
            }
        }
    }
}
