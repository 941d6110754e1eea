package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.backend.cuda.CudaModel;
import dev.parley.engine.backend.cuda.CudaProbe;
import dev.parley.engine.backend.cuda.CudaSequence;
import dev.parley.engine.backend.cuda.StepPlan;
import dev.parley.engine.gguf.GgmlType;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA backend against the scalar reference with the same weights (int8, embeddings too) and an FP16 KV cache:
 * prompt logits within tolerance, the same greedy tokens, and a batched decode step equal to the same rows run one
 * by one. Skipped without a GPU ("no CUDA driver").
 */
class CudaParityTest {

    /** The CPU computing what the GPU computes: Q8_0 matrices everywhere, FP16 keys and values. */
    private static final ModelOptions REFERENCE = new ModelOptions(BackendKind.SCALAR, 1).withWeights(WeightFormat.INT8)
            .withKeepEmbeddings(false).withKv(KvFormat.F16);
    private static final ModelOptions GPU = new ModelOptions(BackendKind.CUDA, 1);
    /**
     * Logit tolerance: the GPU sums the same int8 products in another order (lanes, then a tree), which can move an
     * activation across a Q8_0 rounding step and grow through the layers, as between the CPU's two backends.
     */
    private static final float TOLERANCE = 0.1f;

    @TempDir
    Path dir;

    @BeforeEach
    void needsAGpu() {
        assumeTrue(CudaProbe.status().available(), CudaProbe.status().reason());
    }

    @Test
    void tinyLlamaQ8_0Tied() throws Exception {
        compare(TinyGguf.model("llama", GgmlType.Q8_0, true).write(dir.resolve("a.gguf")), 40);
    }

    @Test
    void tinyLlamaF16Untied() throws Exception {
        compare(TinyGguf.model("llama", GgmlType.F16, false).write(dir.resolve("b.gguf")), 40);
    }

    @Test
    void tinyQwen2WithBiasesAndNeoxRope() throws Exception {
        compare(TinyGguf.model("qwen2", GgmlType.Q8_0, true).write(dir.resolve("c.gguf")), 40);
    }

    @Test
    void parityFixtureM1() throws Exception {
        compare(SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf"), 24);
    }

    @Test
    void parityFixtureM3Tied() throws Exception {
        compare(SharedFixtures.require("parity/m3-llama-gpt2-tied-q8_0.gguf"), 24);
    }

    /** A prompt (one tiled product when longer than 8), then 16 greedy steps fed with the reference's tokens. */
    private static void compare(Path file, int promptLength) throws Exception {
        try (LlamaModel ref = LlamaModel.load(file, REFERENCE); LlamaModel gpu = LlamaModel.load(file, GPU)) {
            assertEquals(BackendKind.CUDA, gpu.backendChoice().kind());
            assertTrue(gpu.gpuBytes() > 0);
            int vocab = ref.config().vocabSize();
            int[] prompt = new Random(5).ints(promptLength, 0, vocab).toArray();
            try (InferenceSession r = ref.newSession(128); InferenceSession g = gpu.newSession(128)) {
                float[] lr = r.ingest(prompt);
                float[] lg = g.ingest(prompt);
                assertClose(lr, lg, file.getFileName() + " prompt");
                for (int step = 0; step < 16; step++) {
                    int next = ParityTest.argmax(lr);
                    assertGreedyAgrees(lr, lg, file.getFileName() + " step " + step);
                    lr = r.ingest(new int[] {next});
                    lg = g.ingest(new int[] {next});
                    assertClose(lr, lg, file.getFileName() + " step " + step);
                }
            }
        }
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        float max = 0;
        for (int i = 0; i < expected.length; i++) {
            max = Math.max(max, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(max <= TOLERANCE, what + ": logits deviate by up to " + max + ", expected at most " + TOLERANCE);
    }

    /** The same argmax, unless the reference's top two are a near-tie within the tolerance. */
    private static void assertGreedyAgrees(float[] expected, float[] actual, String what) {
        int a = ParityTest.argmax(expected);
        int b = ParityTest.argmax(actual);
        assertTrue(a == b || Math.abs(expected[a] - expected[b]) <= TOLERANCE,
                what + ": greedy token " + b + " on the GPU, " + a + " on the CPU");
    }

    @Test
    void batchedDecodeEqualsTheSameRowsOneByOne() throws Exception {
        Path file = TinyGguf.model("llama", GgmlType.Q8_0, true).write(dir.resolve("batch.gguf"));
        try (LlamaModel model = LlamaModel.load(file, GPU)) {
            CudaModel cuda = model.cudaModel().orElseThrow();
            int vocab = model.config().vocabSize();
            for (int batch : new int[] {4, 12}) { // the matrix x vector kernel, then the tiled one
                CudaSequence[] seqs = new CudaSequence[batch];
                int[][] tables = new int[batch][];
                int[] tokens = new int[batch];
                int[] positions = new int[batch];
                int[] sequences = new int[batch];
                boolean[] want = new boolean[batch];
                Random rnd = new Random(batch);
                for (int s = 0; s < batch; s++) {
                    seqs[s] = new CudaSequence(cuda, 64);
                    int[] prompt = rnd.ints(3 + s, 0, vocab).toArray();
                    seqs[s].run(prompt, 0, prompt.length, 0, new float[vocab], null);
                    seqs[s].reserve(prompt.length + 1);
                    tokens[s] = rnd.nextInt(vocab);
                    positions[s] = prompt.length;
                    sequences[s] = s;
                    want[s] = true;
                }
                for (int s = 0; s < batch; s++) {
                    tables[s] = seqs[s].blockIds();
                }
                float[] batched = new float[batch * vocab];
                cuda.step(StepPlan.build(tokens, positions, sequences, tables, want, 16, vocab), batched, null);
                int[] greedy = new int[batch];
                cuda.step(StepPlan.build(tokens, positions, sequences, tables, want, 16, vocab), null, greedy);
                for (int s = 0; s < batch; s++) {
                    float[] alone = new float[vocab];
                    cuda.step(StepPlan.build(new int[] {tokens[s]}, new int[] {positions[s]}, new int[] {0},
                            new int[][] {tables[s]}, new boolean[] {true}, 16, vocab), alone, null);
                    float[] row = java.util.Arrays.copyOfRange(batched, s * vocab, (s + 1) * vocab);
                    if (batch <= 8) {
                        assertArrayEquals(alone, row, "batch " + batch + " row " + s + ": same kernels, same sums");
                    } else {
                        assertClose(alone, row, "batch " + batch + " row " + s);
                    }
                    assertEquals(ParityTest.argmax(row), greedy[s], "device argmax of row " + s);
                }
                for (CudaSequence s : seqs) {
                    s.close();
                }
            }
        }
    }
}
