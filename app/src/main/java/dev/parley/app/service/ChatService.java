package dev.parley.app.service;

import dev.parley.app.store.ConversationStore;
import dev.parley.app.store.StoredMessage;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.Role;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The app's side of the engine, free of any UI toolkit: owns the loaded model on one engine thread,
 * keeps one engine {@code Conversation} per open chat, streams each reply's {@link TokenEvent}s to a
 * listener (on the engine thread: listeners must hand over, not block), writes every message to the
 * {@link ConversationStore} as it completes, and keeps the figures of {@link #snapshot()}.
 */
public final class ChatService implements AutoCloseable {
    private static final int TURNS_KEPT = 30;

    private final ConversationStore store;
    private final ExecutorService engine = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "parley-engine");
        t.setDaemon(true);
        return t;
    });
    private final ProcessMemory memory = new ProcessMemory();

    // Engine thread only.
    private EngineState state;
    private final Map<Long, OpenChat> chats = new HashMap<>();

    // Shared with the threads that read snapshots or stop a reply.
    private volatile ModelInfo info;
    private volatile boolean generating;
    private volatile int kvPositions;
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

    /** Loads a model on the engine thread, replacing (and closing) the current one. */
    public CompletableFuture<ModelInfo> loadModel(ModelRequest request) {
        return submit(() -> {
            EngineState next = EngineState.load(request);
            if (state != null) {
                state.close();
            }
            chats.clear();
            state = next;
            kvPositions = 0;
            info = next.info();
            return info;
        });
    }

    /** The loaded model, if any. */
    public Optional<ModelInfo> model() {
        return Optional.ofNullable(info);
    }

    /**
     * Stores the user's message, generates the reply (streamed to {@code listener} on the engine
     * thread) and stores it when it completes, marked interrupted when stopped.
     */
    public CompletableFuture<TurnOutcome> send(long conversationId, String text, boolean spoken,
                                               GenerationParams params, Consumer<? super TokenEvent> listener) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("expected a message but found " + (text == null ? "null" : "blank text"));
        }
        CancellationToken cancel = new CancellationToken();
        long submitted = System.nanoTime();
        return submit(cancel, () -> {
            long started = System.nanoTime();
            OpenChat chat = open(conversationId, params.systemPrompt());
            StoredMessage user = store.append(conversationId, Role.USER, text.strip(), spoken, false);
            return reply(chat, user, spoken, params, cancel, listener, submitted, started);
        });
    }

    /** Replaces the last reply of a conversation with a new one (the old one is deleted from the store). */
    public CompletableFuture<TurnOutcome> regenerate(long conversationId, GenerationParams params,
                                                     Consumer<? super TokenEvent> listener) {
        CancellationToken cancel = new CancellationToken();
        long submitted = System.nanoTime();
        return submit(cancel, () -> {
            long started = System.nanoTime();
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
            OpenChat chat = open(conversationId, params.systemPrompt());
            chat.conversation().restore(turnsOf(stored.subList(0, lastUser)));
            StoredMessage user = stored.get(lastUser);
            return reply(chat, user, user.spoken(), params, cancel, listener, submitted, started);
        });
    }

    /** Stops the reply being generated and any waiting turn; each ends with {@link StopReason#CANCELLED}. */
    public void stop() {
        for (CancellationToken t : active) {
            t.cancel();
        }
    }

    /** Drops the engine state of a conversation (after it was deleted, or to reread it from the store). */
    public CompletableFuture<Void> forget(long conversationId) {
        return submit(() -> {
            chats.remove(conversationId);
            return null;
        });
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
        }
        sequence.incrementAndGet();
    }

    /** The current figures; cheap enough to call a few times a second from any thread. */
    public MetricsSnapshot snapshot() {
        ModelInfo m = info;
        List<TurnLatency> recent;
        synchronized (turns) {
            recent = List.copyOf(turns);
        }
        Runtime rt = Runtime.getRuntime();
        long kvBudget = m == null ? 0 : m.kvBudgetBytes();
        long kvUsed = m == null || m.contextSize() == 0 ? 0 : kvBudget * kvPositions / m.contextSize();
        return new MetricsSnapshot(sequence.get(), m != null, m == null ? "" : m.name(), generating, queued.get(),
                generating ? 1 : 0, liveTokens.get(), recent, m == null ? 0 : m.weightsBytes(), kvUsed, kvBudget,
                rt.totalMemory() - rt.freeMemory(), rt.maxMemory(), memory.residentBytes(), -1);
    }

    /** Stops any reply, waits briefly for the engine thread and releases the model. */
    @Override
    public void close() {
        stop();
        try {
            engine.submit(() -> {
                if (state != null) {
                    state.close();
                    state = null;
                }
            }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // Closing anyway: the engine thread is a daemon.
        }
        engine.shutdownNow();
    }

    private TurnOutcome reply(OpenChat chat, StoredMessage user, boolean spoken, GenerationParams params,
                              CancellationToken cancel, Consumer<? super TokenEvent> listener, long submitted,
                              long started) {
        long start = System.nanoTime();
        long[] firstToken = {-1};
        liveTokens.set(0);
        generating = true;
        GenerationResult result;
        try {
            Sampler sampler = Sampler.create(params.sampling());
            chat.conversation().contextPolicy(params.contextPolicy());
            result = chat.conversation().reply(user.content(), sampler, params.maxTokens(), cancel, event -> {
                if (event instanceof TokenEvent.Token) {
                    if (firstToken[0] < 0) {
                        firstToken[0] = System.nanoTime();
                    }
                    liveTokens.incrementAndGet();
                }
                listener.accept(event);
            });
        } finally {
            generating = false;
            kvPositions = chat.conversation().cachedTokens();
        }
        long end = System.nanoTime();
        long first = firstToken[0] < 0 ? end : firstToken[0];
        StoredMessage reply = store.append(user.conversationId(), Role.ASSISTANT, result.text().strip(), spoken,
                result.reason() == StopReason.CANCELLED);
        TurnLatency latency = new TurnLatency(turnCounter.incrementAndGet(), spoken, 0, ms(started - submitted),
                ms(start - started), ms(first - start), ms(end - first), 0, result.stats().generatedTokens());
        synchronized (turns) {
            turns.addLast(latency);
            while (turns.size() > TURNS_KEPT) {
                turns.removeFirst();
            }
        }
        sequence.incrementAndGet();
        return new TurnOutcome(user, reply, result.reason(), result.stats(), latency,
                chat.conversation().lastTrim().orElse(null));
    }

    private OpenChat open(long conversationId, String systemPrompt) {
        if (state == null) {
            throw new IllegalStateException("no model is loaded yet: choose one in Settings (or wait for it to load)");
        }
        OpenChat chat = chats.get(conversationId);
        if (chat == null || !chat.systemPrompt().equals(systemPrompt)) {
            if (store.find(conversationId).isEmpty()) {
                throw new IllegalArgumentException("expected a stored conversation but found none with id "
                        + conversationId);
            }
            chat = new OpenChat(state.newConversation(systemPrompt), systemPrompt);
            chat.conversation().restore(turnsOf(store.messages(conversationId)));
            chats.put(conversationId, chat);
        }
        return chat;
    }

    private static List<ChatMessage> turnsOf(List<StoredMessage> stored) {
        List<ChatMessage> out = new ArrayList<>();
        for (StoredMessage m : stored) {
            if (m.role() != Role.SYSTEM) {
                out.add(new ChatMessage(m.role(), m.content()));
            }
        }
        return out;
    }

    private <T> CompletableFuture<T> submit(Callable<T> work) {
        return submit(null, work);
    }

    private <T> CompletableFuture<T> submit(CancellationToken cancel, Callable<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        if (cancel != null) {
            active.add(cancel);
            queued.incrementAndGet();
        }
        try {
            engine.execute(() -> {
                if (cancel != null) {
                    queued.decrementAndGet();
                }
                try {
                    future.complete(work.call());
                } catch (Throwable t) {
                    future.completeExceptionally(t);
                } finally {
                    if (cancel != null) {
                        active.remove(cancel);
                    }
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            if (cancel != null) {
                active.remove(cancel);
                queued.decrementAndGet();
            }
            future.completeExceptionally(new IllegalStateException("the chat service is closed", e));
        }
        return future;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private record OpenChat(dev.parley.engine.generate.Conversation conversation, String systemPrompt) {
    }
}
