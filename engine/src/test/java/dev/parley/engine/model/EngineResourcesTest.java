package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.ResourceLevels;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationRequest;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.Generator;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading a model, running a session and closing both 50 times leaves nothing behind: the worker
 * threads end, the file is unmapped and its handle closed, and the weights quantized on load (an
 * FFM arena) are freed. The model is an F32 file quantized to int8 on load with two worker
 * threads, so each round allocates about 1.5 MB off the heap, maps 4.6 MB and starts threads: a
 * leak of any of them over 50 rounds is far above the tolerances below.
 */
class EngineResourcesTest {

    private static final int ROUNDS = 50;

    @TempDir
    Path dir;

    @Test
    void fiftyLoadGenerateCloseRoundsReturnToTheStartingLevels() throws Exception {
        Path file = TestModels.sized(dir.resolve("f32.gguf"), GgmlType.F32, 256, 2, 512, 512);
        ModelOptions options = new ModelOptions(BackendKind.VECTOR, 2).withWeights(WeightFormat.INT8).withKv(KvFormat.INT8);
        for (int i = 0; i < 3; i++) {
            round(file, options); // warm up: classes, JIT, the JDK's own lazily started threads
        }
        ResourceLevels before = ResourceLevels.now();
        int[] first = round(file, options);
        for (int i = 1; i < ROUNDS / 2; i++) {
            assertEquals(first.length, round(file, options).length, "every round generates the same (greedy)");
        }
        ResourceLevels half = ResourceLevels.now();
        for (int i = ROUNDS / 2; i < ROUNDS; i++) {
            assertEquals(first.length, round(file, options).length, "every round generates the same (greedy)");
        }
        ResourceLevels after = ResourceLevels.now();
        String levels = after.since(before) + "; second half: " + after.since(half);
        System.out.println("EngineResourcesTest, " + ROUNDS + " rounds: " + levels);
        assertEquals(0, ResourceLevels.mappingsOf(file), "the model file is unmapped");
        // Exact for threads and handles: every one this code starts or opens is ended or closed.
        assertTrue(after.threads() <= before.threads(), levels);
        assertTrue(after.fileHandles() <= before.fileHandles(), levels);
        assertTrue(after.directBytes() - before.directBytes() < 64 << 10, levels);
        assertTrue(after.mappedBytes() <= before.mappedBytes(), levels);
        // FFM arenas are not in the buffer pools, so native memory is judged by the RSS outside the heap. The C
        // allocator keeps freed memory for reuse, so the first rounds raise it to a plateau; a leak keeps climbing
        // instead. Over the second 25 rounds a leak of the arena (1.5 MB a round) would add about 37 MiB: allow 12.
        assertTrue(after.offHeapResidentBytes() - half.offHeapResidentBytes() < 12L << 20, levels);
    }

    private static int[] round(Path file, ModelOptions options) throws Exception {
        try (LlamaModel model = LlamaModel.load(file, options);
             CachedSession session = new CachedSession(model.newSession(256))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            GenerationResult r = new Generator(tokenizer).generate(session,
                    new GenerationRequest(tokenizer.encode("the cat", true, false), 8, List.of()), Sampler.greedy(),
                    new CancellationToken(), e -> { });
            return r.tokens();
        }
    }
}
