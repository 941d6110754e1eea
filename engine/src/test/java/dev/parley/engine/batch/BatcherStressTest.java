package dev.parley.engine.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.KvCache;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.TestModels;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 64 requests of random lengths arriving at random moments (measured in generated tokens, not in time), a quarter
 * of them cancelled at a random point (some while still queued), through a small KV pool and a bounded queue.
 */
class BatcherStressTest {

    @TempDir
    Path dir;

    record Submitted(int[] prompt, int maxTokens, BatchHandle handle, RecordingListener stream, int cancelAfter) {
    }

    @Test
    void sixtyFourConcurrentRequestsWithRandomCancellationsLoseNothing() throws Exception {
        Path file = TestModels.tiny(dir.resolve("tiny.gguf"), GgmlType.Q8_0);
        try (LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 2).withKv(KvFormat.F32))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            long perBlock = KvCache.bytesFor(model.config(), 16, KvFormat.F32);
            int queueBound = 12;
            var options = BatcherOptions.of(8, 48, 14 * perBlock, 128).withQueue(queueBound);
            Random rnd = new Random(2026);
            Semaphore tokens = new Semaphore(0);
            AtomicInteger ended = new AtomicInteger();
            List<Submitted> all = new ArrayList<>();
            int refusedForQueue = 0;
            try (Batcher batcher = new Batcher(model, tokenizer, options)) {
                for (int i = 0; i < 64; i++) {
                    int[] prompt = BatcherTest.randomPrompt(rnd, 1 + rnd.nextInt(70));
                    int max = 1 + rnd.nextInt(40);
                    int cancelAfter = rnd.nextInt(4) == 0 ? rnd.nextInt(max + 1) : -1; // -1: never
                    RecordingListener stream = new RecordingListener();
                    BatchHandle[] self = new BatchHandle[1];
                    AtomicInteger seen = new AtomicInteger();
                    var request = BatchRequest.greedy(prompt, max);
                    java.util.function.Consumer<TokenEvent> listener = e -> {
                        stream.accept(e);
                        if (e instanceof TokenEvent.Token) {
                            tokens.release();
                            if (seen.incrementAndGet() == cancelAfter && self[0] != null) {
                                self[0].cancel();
                            }
                        } else if (e instanceof TokenEvent.Done) {
                            ended.incrementAndGet();
                            tokens.release();
                        }
                    };
                    while (true) {
                        try {
                            synchronized (self) {
                                self[0] = batcher.submit(request, listener);
                            }
                            break;
                        } catch (QueueFullException full) {
                            refusedForQueue++;
                            tokens.acquire(); // wait for progress, then try again
                        }
                    }
                    if (cancelAfter == 0) {
                        self[0].cancel(); // cancelled while queued, or before its first token
                    }
                    all.add(new Submitted(prompt, max, self[0], stream, cancelAfter));
                    // Random arrival: the next request comes after 0 to 12 more tokens (or ends) anywhere.
                    int gap = rnd.nextInt(13);
                    for (int g = 0; g < gap && ended.get() < all.size(); g++) {
                        while (!tokens.tryAcquire(20, TimeUnit.MILLISECONDS) && ended.get() < all.size()) {
                            // poll: stop waiting once everything submitted has ended
                        }
                    }
                    assertTrue(batcher.metrics().queued() <= queueBound);
                }
                int cancelled = 0;
                for (Submitted s : all) {
                    GenerationResult r = s.handle().result().get(120, TimeUnit.SECONDS);
                    assertEquals(1, s.stream().doneCount(), "exactly one Done");
                    assertTrue(s.stream().doneIsLast());
                    assertArrayEquals(r.tokens(), s.stream().tokenIds(), "no token lost or duplicated");
                    assertEquals(r.text(), s.stream().text());
                    if (r.reason() == StopReason.CANCELLED) {
                        cancelled++;
                        assertTrue(s.cancelAfter() >= 0, "only cancelled requests end cancelled");
                        assertTrue(r.tokens().length <= Math.max(0, s.cancelAfter()),
                                "nothing after the cancel: " + r.tokens().length + " > " + s.cancelAfter());
                        GenerationResult alone = Reference.alone(model, tokenizer, s.prompt(), s.maxTokens(), 128);
                        assertArrayEquals(java.util.Arrays.copyOf(alone.tokens(), r.tokens().length), r.tokens(),
                                "what a cancelled request produced is a prefix of its output alone");
                    } else {
                        GenerationResult alone = Reference.alone(model, tokenizer, s.prompt(), s.maxTokens(), 128);
                        assertArrayEquals(alone.tokens(), r.tokens(), "a completed request equals its run alone");
                    }
                }
                assertEquals(64, ended.get());
                BatcherMetrics m = batcher.metrics();
                assertEquals(cancelled, m.cancelled());
                assertEquals(64 - cancelled, m.completed());
                assertEquals(0, m.failed());
                assertEquals(0, m.running());
                assertEquals(0, m.queued());
                assertEquals(0, m.kvBlocksUsed(), "every block back in the pool");
                assertTrue(m.maxQueued() <= queueBound, "the queue never exceeded its bound: " + m.maxQueued());
                assertTrue(m.maxSequencesInStep() > 1);
                batcher.dropCaches();
                assertEquals(m.kvBlocksTotal(), batcher.metrics().kvBlocksFree());
                System.out.printf("stress: %d cancelled, %d refused for a full queue, %d preemptions, %d steps (%d with"
                        + " several sequences), max queue %d, TTFT p50 %.1f ms p99 %.1f ms%n", cancelled,
                        refusedForQueue, m.preempted(), m.steps(), m.multiSequenceSteps(), m.maxQueued(),
                        m.timeToFirstToken().p50Millis(), m.timeToFirstToken().p99Millis());
            }
        }
    }
}
