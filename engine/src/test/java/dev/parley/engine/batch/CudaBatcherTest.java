package dev.parley.engine.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.backend.cuda.CudaProbe;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.TestModels;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batcher on the GPU: every request's greedy tokens equal those of the same prompt decoded alone on the GPU, with
 * prefill and decode rows of many sequences sharing steps. Skipped without a GPU ("no CUDA driver").
 */
class CudaBatcherTest {

    private static final int CONTEXT = 128;

    @Test
    void batchedRequestsGiveTheTokensOfEachAlone(@TempDir Path dir) throws Exception {
        assumeTrue(CudaProbe.status().available(), CudaProbe.status().reason());
        Path file = TestModels.tiny(dir.resolve("tiny.gguf"), GgmlType.Q8_0);
        try (LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.CUDA, 1))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Random rnd = new Random(9);
            int n = 12;
            int[][] prompts = new int[n][];
            for (int i = 0; i < n; i++) {
                prompts[i] = rnd.ints(4 + rnd.nextInt(30), 3, model.config().vocabSize()).toArray();
            }
            try (Batcher batcher = new Batcher(model, tokenizer, BatcherOptions.of(8, 48, 1 << 20, CONTEXT))) {
                BatchHandle[] handles = new BatchHandle[n];
                for (int i = 0; i < n; i++) {
                    handles[i] = batcher.submit(BatchRequest.greedy(prompts[i], 20), e -> { });
                }
                for (int i = 0; i < n; i++) {
                    GenerationResult together = handles[i].result().get();
                    GenerationResult alone = Reference.alone(model, tokenizer, prompts[i], 20, CONTEXT);
                    assertArrayEquals(alone.tokens(), together.tokens(), "request " + i);
                }
                assertEquals(0, batcher.metrics().kvBlocksUsed());
            }
        }
    }
}
