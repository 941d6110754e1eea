package dev.parley.app.service;

import dev.parley.app.store.ConversationStore;
import dev.parley.app.store.StoredMessage;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationStats;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.remote.RemoteEngine;
import dev.parley.engine.tokenizer.Role;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The app's side of the engine, free of any UI toolkit: holds the engine in use, a loaded model's
 * {@link dev.parley.engine.api.LocalEngine} or a remote OpenAI-compatible server ({@link #connectRemote}),
 * runs turns (one at a time within a conversation, several conversations at once: a typed chat and a spoken turn
 * share the local engine's batcher), streams each reply's {@link TokenEvent}s to a listener (on
 * the engine's thread: listeners must hand over, not block), writes every message to the
 * {@link ConversationStore} as it completes, and keeps the figures of {@link #snapshot()}, measured the
 * same way for both engines.
 */
public final class ChatService implements AutoCloseable {
    private static final int TURNS_KEPT = 30;
    /** How long a generated speculative reply waits for the voice loop to confirm or withdraw it. */
    private static final long SPECULATION_VERDICT_S = 30;

    private final ConversationStore store;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "parley-chat");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService turnThreads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "parley-turn");
        t.setDaemon(true);
        return t;
    });
    /** Turns hold it shared; loading, connecting and closing the engine hold it alone. */
    private final java.util.concurrent.locks.ReentrantReadWriteLock engineLock =
            new java.util.concurrent.locks.ReentrantReadWriteLock();
    /** The last turn submitted for each conversation: the next one starts after it. */
    private final java.util.Map<Long, CompletableFuture<?>> tails = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ProcessMemory memory = new ProcessMemory();

    // Written on the worker thread; read by the threads that take snapshots or stop a reply.
    private volatile EngineTurns engine;
    private volatile EngineState local;
    private volatile ModelInfo info;
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicInteger liveTokens = new AtomicInteger();
    private final AtomicLong turnCounter = new AtomicLong();
    private final AtomicLong sequence = new AtomicLong();
    private final Deque<TurnLatency> turns = new ArrayDeque<>();
    private final Set<CancellationToken> active = ConcurrentHashMap.newKeySet();

    public ChatService(ConversationStore store) {
        this.store = store;
    }

    /** The conversation database this service writes. */
    public ConversationStore store() {
        return store;
    }

    /** Loads a model (replacing and closing the engine in use); its replies then run through its batcher. */
    public CompletableFuture<ModelInfo> loadModel(ModelRequest request) {
        return submit(() -> {
            EngineState next = EngineState.load(request);
            engineLock.writeLock().lock(); // waits for the turns in flight
            try {
                closeEngineLocked();
                local = next;
                engine = new EngineTurns(next.engine(), next);
                info = next.info();
            } finally {
                engineLock.writeLock().unlock();
            }
            return info;
        });
    }

    /**
     * Switches to a remote OpenAI-compatible server (replacing and closing the engine in use): lists its
     * models to check that it answers, and takes {@code model} (or, when blank, the first one listed).
     * Replies then stream from the server, with the same timings on the dashboard.
     */
    public CompletableFuture<ModelInfo> connectRemote(String baseUrl, String apiKey, String model) {
        return submit(() -> {
            String name;
            try (RemoteEngine probe = new RemoteEngine(baseUrl, apiKey, model)) {
                List<String> models = probe.listModels();
                if (model != null && !model.isBlank() && !models.contains(model.strip())) {
                    throw new IllegalArgumentException("the server at " + probe.baseUrl() + " has no model '"
                            + model.strip() + "'; it lists " + models);
                }
                name = model != null && !model.isBlank() ? model.strip()
                        : models.isEmpty() ? null : models.getFirst();
            }
            RemoteEngine next = new RemoteEngine(baseUrl, apiKey, name);
            engineLock.writeLock().lock(); // waits for the turns in flight
            try {
                closeEngineLocked();
                engine = new EngineTurns(next, next);
                info = ModelInfo.remote(next.modelName(), next.location());
            } finally {
                engineLock.writeLock().unlock();
            }
            return info;
        });
    }

    /** The loaded model (or remote server), if any. */
    public Optional<ModelInfo> model() {
        return Optional.ofNullable(info);
    }

    /**
     * Stores the user's message, generates the reply (streamed to {@code listener} on the engine's
     * thread) and stores it when it completes, marked interrupted when stopped.
     */
    public CompletableFuture<TurnOutcome> send(long conversationId, String text, boolean spoken,
                                               GenerationParams params, Consumer<? super TokenEvent> listener) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("expected a message but found " + (text == null ? "null" : "blank text"));
        }
        CancellationToken cancel = new CancellationToken();
        long submitted = System.nanoTime();
        return submitTurn(conversationId, cancel, () -> {
            long started = System.nanoTime();
            EngineTurns current = ready(conversationId);
            StoredMessage user = store.append(conversationId, Role.USER, text.strip(), spoken, false);
            return reply(current, user, spoken, params, cancel, listener, submitted, started);
        });
    }

    /**
     * A spoken turn answered before the end of the user's turn is certain (the voice loop's speculation): the
     * reply to the stored conversation plus {@code text} is generated at once (streamed to {@code listener}), but
     * nothing is stored until {@code heard} completes with the id of the conversation to store the turn in (the
     * one given, or one created for it at confirmation); the user's message is stored then, the reply when it
     * completes. When {@code heard} completes with a negative id or exceptionally (withdrawn: the user went on
     * speaking), the generation is cancelled and nothing is stored: the future completes empty.
     *
     * @param conversationId the stored conversation the turn continues, or -1 for a new one
     */
    public CompletableFuture<Optional<TurnOutcome>> speculate(long conversationId, String text, GenerationParams params,
                                                              CompletableFuture<Long> heard,
                                                              Consumer<? super TokenEvent> listener) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("expected a message but found " + (text == null ? "null" : "blank text"));
        }
        CancellationToken cancel = new CancellationToken();
        heard.whenComplete((id, e) -> {
            if (e != null || id == null || id < 0) {
                cancel.cancel();
            }
        });
        long submitted = System.nanoTime();
        return submitTurn(conversationId, cancel, () -> {
            long started = System.nanoTime();
            EngineTurns current = conversationId < 0 ? readyEngine() : ready(conversationId);
            List<StoredMessage> history = new ArrayList<>(conversationId < 0 ? List.of() : store.messages(conversationId));
            history.add(new StoredMessage(-1, conversationId, Role.USER, text.strip(), true, false, java.time.Instant.now()));
            // Stored as soon as the turn is confirmed, as a typed message is when sent (a crash keeps it).
            CompletableFuture<StoredMessage> user = heard.thenApplyAsync(id -> id == null || id < 0 ? null
                    : store.append(id, Role.USER, text.strip(), true, false), turnThreads);
            long start = System.nanoTime();
            // A new conversation has no id until the turn is heard: its ids go under a key of its own meanwhile,
            // renamed to the id at confirmation, so that the next turn reuses them (else it re-reads the whole
            // conversation: 0.6-1.1 s more to the second turn's first token, measured in VoiceLatencySideBySide).
            String key = conversationId >= 0 ? Long.toString(conversationId)
                    : "provisional-" + java.util.UUID.randomUUID();
            if (conversationId < 0) {
                heard.thenAccept(id -> {
                    if (id != null && id >= 0) {
                        current.engine().renameConversation(key, Long.toString(id));
                    }
                });
            }
            EngineResult result = generate(current, key, history, params, cancel, listener);
            StoredMessage stored;
            try {
                stored = user.get(SPECULATION_VERDICT_S, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                heard.complete(-1L);   // never confirmed: nothing is kept
                stored = null;
            }
            if (stored == null) {
                return Optional.<TurnOutcome>empty();
            }
            return Optional.of(record(stored, result, true, submitted, started, start));
        });
    }

    /** Replaces the last reply of a conversation with a new one (the old one is deleted from the store). */
    public CompletableFuture<TurnOutcome> regenerate(long conversationId, GenerationParams params,
                                                     Consumer<? super TokenEvent> listener) {
        CancellationToken cancel = new CancellationToken();
        long submitted = System.nanoTime();
        return submitTurn(conversationId, cancel, () -> {
            long started = System.nanoTime();
            EngineTurns current = ready(conversationId);
            List<StoredMessage> stored = store.messages(conversationId);
            int lastUser = -1;
            for (int i = stored.size() - 1; i >= 0 && lastUser < 0; i--) {
                if (stored.get(i).role() == Role.USER) {
                    lastUser = i;
                }
            }
            if (lastUser < 0) {
                throw new IllegalStateException("expected a user message to answer again in conversation "
                        + conversationId + " but found none");
            }
            for (StoredMessage m : stored.subList(lastUser + 1, stored.size())) {
                store.deleteMessage(m.id());
            }
            StoredMessage user = stored.get(lastUser);
            return reply(current, user, user.spoken(), params, cancel, listener, submitted, started);
        });
    }

    /** Stops the reply being generated and any waiting turn; each ends with {@link StopReason#CANCELLED}. */
    public void stop() {
        for (CancellationToken t : active) {
            t.cancel();
        }
        EngineTurns current = engine;
        if (current != null) {
            current.stopAll();
        }
    }

    /**
     * Forgets what the service holds for a conversation (after it was deleted, or to reread it from the
     * store). Each turn sends the stored conversation, so there is nothing to drop: the engine's cache of
     * it is matched by content and given up when memory is needed.
     */
    public CompletableFuture<Void> forget(long conversationId) {
        return submit(() -> null);
    }

    /** Adds the voice stages a spoken turn measured outside the engine to the latency of {@code turn}. */
    public void recordVoiceStages(long turn, double transcriptMs, double firstAudioMs) {
        synchronized (turns) {
            List<TurnLatency> list = new ArrayList<>(turns);
            for (int i = 0; i < list.size(); i++) {
                TurnLatency t = list.get(i);
                if (t.turn() == turn) {
                    list.set(i, new TurnLatency(t.turn(), true, transcriptMs, t.queuedMs(), t.savedMs(), t.promptMs(),
                            t.generationMs(), firstAudioMs, t.tokens()));
                }
            }
            turns.clear();
            turns.addAll(list);
            sequence.incrementAndGet(); // under the lock: a snapshot's number always matches its turns
        }
    }

    /** The current figures; cheap enough to call a few times a second from any thread. */
    public MetricsSnapshot snapshot() {
        ModelInfo m = info;
        List<TurnLatency> recent;
        long seq;
        synchronized (turns) { // read together: a view that has seen this number never looks at these turns again
            recent = List.copyOf(turns);
            seq = sequence.get();
        }
        Runtime rt = Runtime.getRuntime();
        EngineState loaded = local;
        long kvBudget = m == null ? 0 : m.kvBudgetBytes();
        long kvUsed = loaded == null ? 0 : Math.min(kvBudget, loaded.kvUsedBytes());
        int running = inFlight.get();
        int waiting = queued.get();
        if (loaded != null) { // the batcher's own figures: sequences in its steps, requests it has not admitted
            var batch = loaded.engine().metrics();
            running = Math.max(running, batch.running());
            waiting += batch.queued();
        }
        return new MetricsSnapshot(seq, m != null, m == null ? "" : m.name(), running > 0, waiting,
                running, liveTokens.get(), recent, m == null ? 0 : m.weightsBytes(), kvUsed, kvBudget,
                rt.totalMemory() - rt.freeMemory(), rt.maxMemory(), memory.residentBytes(),
                loaded == null ? -1 : loaded.gpuBytes());
    }

    /**
     * Prompt tokens the local engine's batcher has computed since the model was loaded (positions reused from a
     * cache not counted); 0 without a local model.
     */
    public long promptTokensComputed() {
        EngineState loaded = local;
        return loaded == null ? 0 : loaded.engine().metrics().promptTokens();
    }

    /** Stops any reply, waits briefly for the worker thread and releases the engine. */
    @Override
    public void close() {
        stop();
        turnThreads.shutdown();
        try {
            worker.submit(() -> {
                closeEngine();
                return null;
            }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // Closing anyway: the worker thread is a daemon.
        }
        worker.shutdownNow();
        turnThreads.shutdownNow();
    }

    /** The engine for a turn of {@code conversationId}; nothing is stored when there is none. */
    private EngineTurns ready(long conversationId) {
        EngineTurns current = readyEngine();
        if (store.find(conversationId).isEmpty()) {
            throw new IllegalArgumentException("expected a stored conversation but found none with id "
                    + conversationId);
        }
        return current;
    }

    /** The engine in use; a clear error when there is none. */
    private EngineTurns readyEngine() {
        EngineTurns current = engine;
        if (current == null) {
            throw new IllegalStateException("no model is loaded yet: choose one in Settings (or wait for it to load)");
        }
        return current;
    }

    /** One turn: the prompt stage is the engine's time to first token, for local and remote engines alike. */
    private TurnOutcome reply(EngineTurns current, StoredMessage user, boolean spoken, GenerationParams params,
                              CancellationToken cancel, Consumer<? super TokenEvent> listener, long submitted,
                              long started) throws Exception {
        long start = System.nanoTime();
        EngineResult result = generate(current, Long.toString(user.conversationId()), store.messages(user.conversationId()), params,
                cancel, listener);
        return record(user, result, spoken, submitted, started, start);
    }

    /** Generates the reply to {@code history} (ending with the user's message), counting it in the live figures. */
    private EngineResult generate(EngineTurns current, String key, List<StoredMessage> history,
                                  GenerationParams params, CancellationToken cancel,
                                  Consumer<? super TokenEvent> listener) throws Exception {
        if (inFlight.getAndIncrement() == 0) {
            liveTokens.set(0);
        }
        try {
            return current.reply(key, history, params, cancel, event -> {
                if (event instanceof TokenEvent.Token || event instanceof TokenEvent.Text t && !t.text().isEmpty()) {
                    liveTokens.incrementAndGet();
                }
                listener.accept(event);
            });
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Stores the reply to {@code user} and keeps the turn's latency record. */
    private TurnOutcome record(StoredMessage user, EngineResult result, boolean spoken, long submitted, long started,
                               long start) {
        StoredMessage reply = store.append(user.conversationId(), Role.ASSISTANT, result.text().strip(), spoken,
                result.reason() == StopReason.CANCELLED);
        long ttft = result.timeToFirstTokenNanos();
        TurnLatency latency = new TurnLatency(turnCounter.incrementAndGet(), spoken, 0, ms(started - submitted),
                ms(start - started), ms(ttft), ms(result.totalNanos() - ttft), 0, result.completionTokens());
        synchronized (turns) {
            turns.addLast(latency);
            while (turns.size() > TURNS_KEPT) {
                turns.removeFirst();
            }
            sequence.incrementAndGet();
        }
        GenerationStats stats = new GenerationStats(result.promptTokens(), result.completionTokens(), ttft,
                result.totalNanos() - ttft);
        return new TurnOutcome(user, reply, result.reason(), stats, latency, result.trim());
    }

    /** Worker thread: releases the local model or the remote connection, whichever is in use. */
    private void closeEngine() throws Exception {
        engineLock.writeLock().lock();
        try {
            closeEngineLocked();
        } finally {
            engineLock.writeLock().unlock();
        }
    }

    private void closeEngineLocked() throws Exception {
        EngineTurns current = engine;
        engine = null;
        local = null;
        info = null;
        if (current != null) {
            current.close();
        }
    }

    /** Runs {@code work} on the worker thread (loading, connecting, closing: one at a time). */
    private <T> CompletableFuture<T> submit(Callable<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        try {
            worker.execute(() -> {
                try {
                    future.complete(work.call());
                } catch (Throwable t) {
                    future.completeExceptionally(t);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            future.completeExceptionally(new IllegalStateException("the chat service is closed", e));
        }
        return future;
    }

    /**
     * Runs a turn of {@code conversationId} after the turns already submitted for it, on a turn thread, holding the
     * engine shared (so a model switch waits for it); turns of other conversations run at the same time.
     */
    private <T> CompletableFuture<T> submitTurn(long conversationId, CancellationToken cancel, Callable<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        active.add(cancel);
        queued.incrementAndGet();
        java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable run = () -> {
            started.set(true);
            queued.decrementAndGet();
            engineLock.readLock().lock();
            try {
                future.complete(work.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            } finally {
                engineLock.readLock().unlock();
                active.remove(cancel);
            }
        };
        CompletableFuture<?> tail = tails.compute(conversationId, (id, previous) -> {
            CompletableFuture<?> after = previous == null ? CompletableFuture.completedFuture(null) : previous;
            return after.handle((r, e) -> null).thenRunAsync(run, turnThreads);
        });
        tail.whenComplete((r, e) -> {
            tails.remove(conversationId, tail);
            if (e != null && !started.get()) { // the turn threads were shut down before it could run
                active.remove(cancel);
                queued.decrementAndGet();
                future.completeExceptionally(new IllegalStateException("the chat service is closed", e));
            }
        });
        return future;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
