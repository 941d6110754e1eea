package dev.parley.engine.api;

import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationRequest;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.Generator;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** One request at a time on one KV cache, in arrival order (the stand-in until the batcher lands). */
final class SerialRunner implements AutoCloseable {
    private final Generator generator;
    private final CachedSession session;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "parley-local-engine");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong cancelled = new AtomicLong();

    SerialRunner(LlamaModel model, Tokenizer tokenizer, int contextLength) {
        this.generator = new Generator(tokenizer);
        this.session = new CachedSession(model.newSession(contextLength));
    }

    int contextLength() {
        return session.contextLength();
    }

    record Job(CancellationToken token, CompletableFuture<GenerationResult> result) {
        void cancel() {
            token.cancel();
        }
    }

    Job submit(int[] prompt, SamplingSettings sampling, int maxTokens, List<String> stops,
               Consumer<? super TokenEvent> listener) {
        GenerationRequest request = new GenerationRequest(prompt, maxTokens, stops);
        Job job = new Job(new CancellationToken(), new CompletableFuture<>());
        queued.incrementAndGet();
        try {
            thread.execute(() -> {
                queued.decrementAndGet();
                running.incrementAndGet();
                try {
                    GenerationResult r = generator.generate(session, request, Sampler.create(sampling), job.token(),
                            listener);
                    (r.reason() == dev.parley.engine.generate.StopReason.CANCELLED ? cancelled : completed)
                            .incrementAndGet();
                    job.result().complete(r);
                } catch (Throwable t) {
                    job.result().completeExceptionally(t);
                } finally {
                    running.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            queued.decrementAndGet();
            job.result().completeExceptionally(new IllegalStateException("the engine is closed", e));
        }
        return job;
    }

    RunnerStats stats() {
        return new RunnerStats(queued.get(), running.get(), completed.get(), cancelled.get(), 1);
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
                return; // a generation is still running on the cache: leave it to the garbage collector
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        session.close();
    }
}
