package dev.parley.engine.batch;

import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.GenerationStats;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.model.BatchForward;
import dev.parley.engine.model.KvCache;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Continuous batching over a paged KV cache: owns the engine loop of one model and runs every submitted
 * request in shared steps. Each step holds one decode row for every generating sequence, then prompt chunks
 * of newly admitted ones up to {@link BatcherOptions#stepTokens()} rows, and reads every weight once for all of
 * them. A sequence that ends leaves at once and the next waiting one (first come, first served) joins in the
 * next step.
 *
 * <p><b>Memory.</b> Keys and values live in fixed-size blocks of one pool sized by
 * {@link BatcherOptions#kvMemoryBytes()}; each sequence has a block table and gets a new block only when it
 * fills the last one, so it wastes less than one block. A request is admitted only when the blocks its prompt
 * needs are available, so when the pool is full new work waits in the queue instead of failing. Full prompt
 * blocks are registered by content: a later sequence whose prompt starts with the same tokens (a shared system
 * prompt) reuses them, and a conversation keeps its whole cache after a turn so that its next turn prefills only
 * its new tokens. Those caches are given up, least recently used first, when blocks are needed.
 *
 * <p><b>Preemption.</b> When a running sequence needs a block and none is free or reclaimable, the most recently
 * admitted running sequence is preempted: its blocks go back to the pool and it returns to the front of the
 * queue, keeping the tokens it has produced; when readmitted it recomputes its cache (reusing any of its blocks
 * still registered) and continues, so its output is unchanged. A sequence alone in the engine that still cannot
 * grow ends with {@link StopReason#CONTEXT_FULL}.
 *
 * <p><b>Events.</b> A request streams the same {@link TokenEvent}s as {@link dev.parley.engine.generate.Generator},
 * delivered on the batcher's thread (listeners must be quick and must not block): tokens and text, then exactly
 * one {@code Done}. Cancelling stops a request within one step. If the engine itself fails, the requests it was
 * running get no {@code Done}: their {@link BatchHandle#result()} completes exceptionally.
 */
public final class Batcher implements AutoCloseable {

    private final Tokenizer tokenizer;
    private final BatcherOptions options;
    private final BatchForward forward;
    private final Scheduler scheduler;
    private final BatcherStats stats = new BatcherStats();
    private final int vocab;
    private final int blockSize;
    private final int blocks;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final ArrayDeque<Sequence> incoming = new ArrayDeque<>();
    private final AtomicInteger queued = new AtomicInteger();
    private boolean closed;
    private boolean wakeup;
    private long nextId = 1;
    private final Thread thread;

    private final long startNanos = System.nanoTime();
    private volatile int[] published = new int[5]; // running, used, cached, free, conversations

    /**
     * Starts a batcher on {@code model}.
     *
     * @throws IllegalArgumentException when the options do not fit the model (context, a budget below one block)
     */
    public Batcher(LlamaModel model, Tokenizer tokenizer, BatcherOptions options) {
        if (options.contextLength() > model.config().contextLength()) {
            throw new IllegalArgumentException("expected a context length of at most the model's "
                    + model.config().contextLength() + " but found " + options.contextLength());
        }
        long perBlock = KvCache.bytesFor(model.config(), options.blockSize(), model.options().kv());
        long count = options.kvMemoryBytes() / perBlock;
        if (count < 1) {
            throw new IllegalArgumentException("a KV memory budget of " + options.kvMemoryBytes()
                    + " bytes holds no block: one block of " + options.blockSize() + " positions takes " + perBlock
                    + " bytes for this model");
        }
        this.tokenizer = tokenizer;
        this.options = options;
        this.blockSize = options.blockSize();
        this.blocks = (int) Math.min(count, Integer.MAX_VALUE / 2);
        // One slot more than running sequences: static batches compute their prompt padding there.
        this.forward = model.newBatchForward(options.stepTokens(), options.maxRunning() + 1, options.contextLength(),
                blockSize, blocks);
        this.vocab = model.config().vocabSize();
        this.scheduler = new Scheduler(options, forward, tokenizer.vocabulary(), stats, this::publish);
        publish();
        this.thread = Thread.ofPlatform().name("parley-batcher").daemon(true).start(this::loop);
    }

    /**
     * Queues {@code request}; {@code listener} receives its events on the batcher's thread.
     *
     * @throws QueueFullException       when {@link BatcherOptions#maxQueue()} requests are already waiting
     * @throws IllegalArgumentException when the prompt can never run: a token outside the vocabulary, longer than
     *                                  the context, or needing more blocks than the whole pool
     * @throws IllegalStateException    when the batcher is closed
     */
    public BatchHandle submit(BatchRequest request, Consumer<? super TokenEvent> listener) {
        return submit(request, listener, null);
    }

    /**
     * Like {@link #submit(BatchRequest, Consumer)}, also stopping when {@code cancel} (may be null) is raised: the
     * batcher checks it at the start of every step, so a caller can stop a request from its listener before
     * {@code submit} has even returned the handle.
     */
    public BatchHandle submit(BatchRequest request, Consumer<? super TokenEvent> listener, CancellationToken cancel) {
        int n = request.promptLength();
        for (int i = 0; i < n; i++) {
            int t = request.promptToken(i);
            if (t < 0 || t >= vocab) {
                throw new IllegalArgumentException("expected token ids from 0 to " + (vocab - 1) + " but found " + t
                        + " at prompt index " + i);
            }
        }
        if (n > options.contextLength()) {
            throw new IllegalArgumentException("the prompt of " + n + " tokens exceeds the context of "
                    + options.contextLength() + " tokens");
        }
        long needed = (n + (long) blockSize - 1) / blockSize;
        if (needed > blocks) {
            throw new IllegalArgumentException("the prompt of " + n + " tokens needs " + needed
                    + " KV blocks but the whole pool has " + blocks + " (raise the KV memory budget)");
        }
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the batcher is closed");
            }
            if (queued.get() >= options.maxQueue()) {
                throw new QueueFullException(options.maxQueue());
            }
            Sequence seq = new Sequence(nextId++, request, tokenizer, listener, cancel, this::wake);
            incoming.add(seq);
            stats.queued(queued.incrementAndGet());
            work.signal();
            return seq;
        } finally {
            lock.unlock();
        }
    }

    /** A consistent snapshot of the queue, the pool and the latencies. Thread-safe. */
    public BatcherMetrics metrics() {
        int[] p = published;
        return stats.snapshot(queued.get(), p[0], p[1], p[2], p[3], blocks, forward.bytesPerBlock());
    }

    public BatcherOptions options() { return options; }

    public Tokenizer tokenizer() { return tokenizer; }

    /** When this batcher started ({@link System#nanoTime()}). */
    public long startNanos() { return startNanos; }

    /** Blocks in the KV pool. */
    public int kvBlocks() { return blocks; }

    /** Bytes of the KV pool. */
    public long kvBytes() { return blocks * forward.bytesPerBlock(); }

    /**
     * The conversation submitted so far as {@code from} is {@code to} from now on: its kept KV cache (or, for a turn
     * still running, the cache it will leave) serves the next request under {@code to}. For a spoken turn answered
     * before its conversation was stored, under a provisional key.
     */
    public void renameConversation(String from, String to) {
        scheduler.rename(java.util.Objects.requireNonNull(from, "from"), java.util.Objects.requireNonNull(to, "to"));
    }

    /**
     * Gives up every idle conversation cache and every cached shared block (they are rebuilt on demand) and
     * waits until the batcher's thread has done it.
     */
    public void dropCaches() throws InterruptedException {
        var done = new java.util.concurrent.CountDownLatch(1);
        scheduler.requestDropCaches(done::countDown);
        wake();
        done.await();
    }

    private void wake() {
        lock.lock();
        try {
            wakeup = true;
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    private void publish() {
        published = scheduler.counts();
    }

    private void loop() {
        while (true) {
            List<Sequence> arrived;
            lock.lock();
            try {
                while (!closed && !wakeup && incoming.isEmpty() && scheduler.idle()) {
                    work.awaitUninterruptibly();
                }
                wakeup = false;
                if (closed) {
                    break;
                }
                arrived = new ArrayList<>(incoming);
                incoming.clear();
            } finally {
                lock.unlock();
            }
            scheduler.enqueue(arrived);
            try {
                scheduler.step(queued);
            } catch (RuntimeException | Error e) {
                scheduler.failRunning(e);
            }
            publish();
        }
        List<Sequence> left;
        lock.lock();
        try {
            left = new ArrayList<>(incoming);
            incoming.clear();
        } finally {
            lock.unlock();
        }
        scheduler.enqueue(left);
        scheduler.cancelAll(queued);
        publish();
    }

    /** Cancels everything still queued or running (each gets its {@code Done}) and stops the batcher's thread. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            work.signal();
        } finally {
            lock.unlock();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        forward.close();
    }

    static GenerationResult result(Sequence s, long endNanos) {
        int[] out = Arrays.copyOfRange(s.tokens, s.promptLength, s.promptLength + s.generated);
        long promptNanos = (s.firstTokenNanos > 0 ? s.firstTokenNanos : endNanos) - Math.max(s.admitNanos, s.submitNanos);
        long decodeNanos = s.firstTokenNanos > 0 ? endNanos - s.firstTokenNanos : 0;
        var st = new GenerationStats(s.promptRows, s.generated, Math.max(0, promptNanos), Math.max(0, decodeNanos));
        return new GenerationResult(out, s.text.toString(), s.reason, Math.max(0, s.reused), st);
    }
}
