package dev.parley.engine.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.TestModels;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The batcher against the single-sequence generator, on a small random model with a vocabulary. */
class BatcherTest {

    static final int CONTEXT = 128;

    @TempDir
    Path dir;

    LlamaModel load(BackendKind backend, KvFormat kv) throws Exception {
        Path file = TestModels.tiny(dir.resolve("tiny.gguf"), GgmlType.Q8_0);
        return LlamaModel.load(file, new ModelOptions(backend, 2).withKv(kv));
    }

    static int[] randomPrompt(Random rnd, int length) {
        int[] p = new int[length];
        p[0] = 1;
        for (int i = 1; i < length; i++) {
            p[i] = 3 + rnd.nextInt(93);
        }
        return p;
    }

    @ParameterizedTest
    @EnumSource(value = BackendKind.class, names = {"SCALAR", "VECTOR"})
    void greedyOutputsRunTogetherEqualEachRunAlone(BackendKind backend) throws Exception {
        try (LlamaModel model = load(backend, KvFormat.F32)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Random rnd = new Random(11);
            int n = 8;
            int[][] prompts = new int[n][];
            for (int i = 0; i < n; i++) {
                prompts[i] = randomPrompt(rnd, 3 + rnd.nextInt(45));
            }
            // Steps of 24 rows: prompts are cut into chunks that share steps with other sequences' decode rows.
            try (Batcher batcher = new Batcher(model, tokenizer, BatcherOptions.of(8, 24, 1 << 20, CONTEXT))) {
                List<BatchHandle> handles = new ArrayList<>();
                List<RecordingListener> streams = new ArrayList<>();
                for (int[] p : prompts) {
                    RecordingListener l = new RecordingListener();
                    streams.add(l);
                    handles.add(batcher.submit(BatchRequest.greedy(p, 24), l));
                }
                for (int i = 0; i < n; i++) {
                    GenerationResult together = handles.get(i).result().get(60, TimeUnit.SECONDS);
                    GenerationResult alone = Reference.alone(model, tokenizer, prompts[i], 24, CONTEXT);
                    assertArrayEquals(alone.tokens(), together.tokens(), "request " + i);
                    assertEquals(alone.reason(), together.reason(), "request " + i);
                    assertEquals(alone.text(), together.text(), "request " + i);
                    assertArrayEquals(together.tokens(), streams.get(i).tokenIds(), "the stream carries every token");
                    assertEquals(together.text(), streams.get(i).text());
                    assertEquals(1, streams.get(i).doneCount());
                }
                BatcherMetrics m = batcher.metrics();
                assertTrue(m.multiSequenceSteps() > 0, "steps held several sequences: " + m);
                assertTrue(m.maxSequencesInStep() > 1, m.toString());
                assertEquals(0, m.running());
                assertEquals(0, m.kvBlocksUsed(), "no block held once everything ended");
            }
        }
    }

    @Test
    void int8KvCacheBatchesToTheSameTokensAsAloneOnInt8() throws Exception {
        try (LlamaModel model = load(BackendKind.VECTOR, KvFormat.INT8)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Random rnd = new Random(5);
            int[][] prompts = {randomPrompt(rnd, 20), randomPrompt(rnd, 37), randomPrompt(rnd, 5)};
            try (Batcher batcher = new Batcher(model, tokenizer, BatcherOptions.of(4, 32, 1 << 20, CONTEXT))) {
                List<BatchHandle> hs = new ArrayList<>();
                for (int[] p : prompts) {
                    hs.add(batcher.submit(BatchRequest.greedy(p, 16), e -> { }));
                }
                for (int i = 0; i < prompts.length; i++) {
                    assertArrayEquals(Reference.alone(model, tokenizer, prompts[i], 16, CONTEXT).tokens(),
                            hs.get(i).result().get(60, TimeUnit.SECONDS).tokens());
                }
            }
        }
    }

    @Test
    void aBudgetTooSmallForAllRequestsQueuesThemAndAllComplete() throws Exception {
        try (LlamaModel model = load(BackendKind.VECTOR, KvFormat.F32)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Random rnd = new Random(3);
            long perBlock = dev.parley.engine.model.KvCache.bytesFor(model.config(), 16, KvFormat.F32);
            // 7 blocks of 16 positions for 10 requests that need 3 to 5 blocks each.
            var options = BatcherOptions.of(6, 64, 7 * perBlock, CONTEXT);
            try (Batcher batcher = new Batcher(model, tokenizer, options)) {
                assertEquals(7, batcher.kvBlocks());
                int n = 10;
                int[][] prompts = new int[n][];
                List<BatchHandle> hs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    prompts[i] = randomPrompt(rnd, 20 + rnd.nextInt(30));
                    hs.add(batcher.submit(BatchRequest.greedy(prompts[i], 24), e -> { }));
                }
                for (int i = 0; i < n; i++) {
                    GenerationResult r = hs.get(i).result().get(60, TimeUnit.SECONDS);
                    assertTrue(r.reason() != StopReason.CANCELLED && r.reason() != StopReason.CONTEXT_FULL,
                            "request " + i + " ended " + r.reason());
                    assertArrayEquals(Reference.alone(model, tokenizer, prompts[i], 24, CONTEXT).tokens(), r.tokens(),
                            "request " + i + " is unchanged by waiting or preemption");
                }
                BatcherMetrics m = batcher.metrics();
                assertEquals(0, m.failed());
                assertEquals(n, m.completed());
                assertTrue(m.maxQueued() > 0, "requests had to wait");
                batcher.dropCaches();
                assertEquals(7, batcher.metrics().kvBlocksFree());
            }
        }
    }

    @Test
    void runningSequencesThatOutgrowThePoolArePreemptedAndResumeUnchanged() throws Exception {
        try (LlamaModel model = load(BackendKind.VECTOR, KvFormat.F32)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Random rnd = new Random(17);
            List<int[]> prompts = new ArrayList<>();
            while (prompts.size() < 3) { // prompts whose output runs to the limit (a random model may end early)
                int[] p = randomPrompt(rnd, 30);
                if (Reference.alone(model, tokenizer, p, 60, CONTEXT).tokens().length == 60) {
                    prompts.add(p);
                }
            }
            long perBlock = dev.parley.engine.model.KvCache.bytesFor(model.config(), 16, KvFormat.F32);
            // Each needs 6 blocks of 16 by its end; the pool has 7, and all three start with 2.
            try (Batcher batcher = new Batcher(model, tokenizer, BatcherOptions.of(3, 96, 7 * perBlock, CONTEXT))) {
                List<BatchHandle> hs = new ArrayList<>();
                for (int[] p : prompts) {
                    hs.add(batcher.submit(BatchRequest.greedy(p, 60), e -> { }));
                }
                for (int i = 0; i < prompts.size(); i++) {
                    GenerationResult r = hs.get(i).result().get(60, TimeUnit.SECONDS);
                    assertEquals(StopReason.MAX_TOKENS, r.reason());
                    assertArrayEquals(Reference.alone(model, tokenizer, prompts.get(i), 60, CONTEXT).tokens(),
                            r.tokens(), "request " + i);
                }
                BatcherMetrics m = batcher.metrics();
                assertTrue(m.preempted() > 0, "the pool could not hold all three: " + m);
                assertEquals(0, m.kvBlocksUsed());
            }
        }
    }

    @Test
    void aSecondTurnPrefillsOnlyItsNewTokensAndConversationsShareTheSystemPrompt() throws Exception {
        try (LlamaModel model = load(BackendKind.VECTOR, KvFormat.F32);
             Batcher batcher = new Batcher(model, Tokenizer.fromGguf(model.gguf()),
                     BatcherOptions.of(4, 64, 1 << 20, CONTEXT))) {
            Tokenizer tokenizer = batcher.tokenizer();
            Random rnd = new Random(9);
            int[] system = randomPrompt(rnd, 40);
            int[] first = concat(system, randomPrompt(rnd, 7));
            GenerationResult one = batcher.submit(new BatchRequest("alice", first, SamplingSettings.greedy(), 10,
                    List.of()), e -> { }).result().get(60, TimeUnit.SECONDS);
            assertEquals(0, one.reusedTokens());
            assertEquals(first.length, one.stats().promptTokens());
            int cached = first.length + one.tokens().length - (one.reason() == StopReason.EOS ? 0 : 1);

            int[] second = concat(concat(first, one.tokens()), randomPrompt(rnd, 6));
            GenerationResult two = batcher.submit(new BatchRequest("alice", second, SamplingSettings.greedy(), 10,
                    List.of()), e -> { }).result().get(60, TimeUnit.SECONDS);
            assertEquals(cached, two.reusedTokens(), "the whole first turn is reused");
            assertEquals(second.length - cached, two.stats().promptTokens(), "only the new tokens are prefilled");
            assertArrayEquals(Reference.alone(model, tokenizer, second, 10, CONTEXT).tokens(), two.tokens());

            // Another conversation with the same system prompt reuses its full blocks (two blocks of 16 of 40).
            int[] other = concat(system, randomPrompt(rnd, 5));
            GenerationResult bob = batcher.submit(new BatchRequest("bob", other, SamplingSettings.greedy(), 6,
                    List.of()), e -> { }).result().get(60, TimeUnit.SECONDS);
            assertEquals(32, bob.reusedTokens());
            assertEquals(other.length - 32, bob.stats().promptTokens());
            assertArrayEquals(Reference.alone(model, tokenizer, other, 6, CONTEXT).tokens(), bob.tokens());
        }
    }

    @Test
    void cancellingStopsWithinOneStepAndFreesTheBlocks() throws Exception {
        try (LlamaModel model = load(BackendKind.VECTOR, KvFormat.F32);
             Batcher batcher = new Batcher(model, Tokenizer.fromGguf(model.gguf()),
                     BatcherOptions.of(4, 64, 1 << 20, CONTEXT))) {
            Random rnd = new Random(4);
            BatchHandle[] self = new BatchHandle[1];
            CountDownLatch submitted = new CountDownLatch(1);
            RecordingListener stream = new RecordingListener();
            self[0] = batcher.submit(BatchRequest.greedy(randomPrompt(rnd, 10), 100), e -> {
                stream.accept(e);
                if (e instanceof TokenEvent.Token && stream.tokenIds().length == 3) {
                    try {
                        submitted.await();
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    self[0].cancel();
                }
            });
            // A neighbour keeps running while the first is cancelled.
            BatchHandle neighbour = batcher.submit(BatchRequest.greedy(randomPrompt(rnd, 12), 20), e -> { });
            submitted.countDown();
            GenerationResult r = self[0].result().get(60, TimeUnit.SECONDS);
            if (r.reason() == StopReason.EOS && r.tokens().length < 3) {
                return; // the random model ended before the cancel point; nothing to check
            }
            assertEquals(StopReason.CANCELLED, r.reason());
            assertEquals(3, r.tokens().length, "no token after the step in which it was cancelled");
            assertArrayEquals(r.tokens(), stream.tokenIds());
            assertTrue(stream.doneIsLast());
            neighbour.result().get(60, TimeUnit.SECONDS);
            BatcherMetrics m = batcher.metrics();
            assertEquals(1, m.cancelled());
            assertEquals(0, m.kvBlocksUsed());
        }
    }

    @Test
    void staticAndNoCacheBaselinesComputeTheSameTokens() throws Exception {
        try (LlamaModel model = load(BackendKind.VECTOR, KvFormat.F32)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Random rnd = new Random(21);
            int[][] prompts = {randomPrompt(rnd, 9), randomPrompt(rnd, 30), randomPrompt(rnd, 17)};
            int[] limits = {5, 14, 9};
            for (BatcherOptions o : List.of(
                    BatcherOptions.of(3, 96, 1 << 20, CONTEXT).withPolicy(SchedulingPolicy.STATIC),
                    BatcherOptions.of(3, 96, 1 << 20, CONTEXT).withRecomputeHistory(true))) {
                try (Batcher batcher = new Batcher(model, tokenizer, o)) {
                    List<BatchHandle> hs = new ArrayList<>();
                    for (int i = 0; i < prompts.length; i++) {
                        hs.add(batcher.submit(BatchRequest.greedy(prompts[i], limits[i]), e -> { }));
                    }
                    for (int i = 0; i < prompts.length; i++) {
                        assertArrayEquals(Reference.alone(model, tokenizer, prompts[i], limits[i], CONTEXT).tokens(),
                                hs.get(i).result().get(60, TimeUnit.SECONDS).tokens(), o + " request " + i);
                    }
                    assertEquals(0, batcher.metrics().kvBlocksUsed());
                }
            }
        }
    }

    @Test
    void badRequestsAreRefusedWithReasons() throws Exception {
        try (LlamaModel model = load(BackendKind.SCALAR, KvFormat.F32)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            var tooSmall = assertThrows(IllegalArgumentException.class,
                    () -> new Batcher(model, tokenizer, BatcherOptions.of(2, 8, 100, CONTEXT)));
            assertTrue(tooSmall.getMessage().contains("holds no block"), tooSmall.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> new Batcher(model, tokenizer, BatcherOptions.of(2, 8, 1 << 20, CONTEXT * 2)));
            try (Batcher batcher = new Batcher(model, tokenizer, BatcherOptions.of(1, 8, 1 << 20, CONTEXT)
                    .withQueue(1))) {
                var longPrompt = assertThrows(IllegalArgumentException.class,
                        () -> batcher.submit(BatchRequest.greedy(new int[CONTEXT + 1], 1), e -> { }));
                assertTrue(longPrompt.getMessage().contains("exceeds the context"), longPrompt.getMessage());
                var badId = assertThrows(IllegalArgumentException.class,
                        () -> batcher.submit(BatchRequest.greedy(new int[] {1, 500}, 1), e -> { }));
                assertTrue(badId.getMessage().contains("found 500"), badId.getMessage());
                assertThrows(IllegalArgumentException.class, () -> BatchRequest.greedy(new int[0], 1));
                assertThrows(IllegalArgumentException.class, () -> BatchRequest.greedy(new int[] {1}, -1));
            }
        }
    }

    static int[] concat(int[] a, int[] b) {
        int[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
