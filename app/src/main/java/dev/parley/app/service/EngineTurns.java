package dev.parley.app.service;

import dev.parley.app.store.StoredMessage;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.Engine;
import dev.parley.engine.api.EngineHandle;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * The chat service's turns on an {@link Engine}, local or remote alike: each turn sends the stored
 * conversation (with the system prompt) under the conversation's id, so a local engine keeps that
 * conversation's KV cache between turns, and streams the reply; {@link #stopAll()} cancels what is in
 * flight. Closing it releases the engine.
 */
final class EngineTurns implements AutoCloseable {
    private final Engine engine;
    private final AutoCloseable owner;
    private final Set<EngineHandle> inFlight = ConcurrentHashMap.newKeySet();

    /** @param owner what releases the engine (the loaded model for a local engine, the engine itself else) */
    EngineTurns(Engine engine, AutoCloseable owner) {
        this.engine = engine;
        this.owner = owner;
    }

    Engine engine() {
        return engine;
    }

    /** Generates the reply to the conversation {@code stored} (ending with the user's message); blocks until done. */
    EngineResult reply(long conversationId, List<StoredMessage> stored, GenerationParams params,
                       CancellationToken cancel, Consumer<? super TokenEvent> listener) throws Exception {
        return reply(conversationId < 0 ? null : Long.toString(conversationId), stored, params, cancel, listener);
    }

    /**
     * As {@link #reply(long, List, GenerationParams, CancellationToken, Consumer)} under the engine's conversation
     * key {@code key}: a stored conversation's id, a provisional key (see {@link Engine#renameConversation}), or null
     * for none.
     */
    EngineResult reply(String key, List<StoredMessage> stored, GenerationParams params,
                       CancellationToken cancel, Consumer<? super TokenEvent> listener) throws Exception {
        List<ChatMessage> messages = new ArrayList<>();
        if (!params.systemPrompt().isBlank()) {
            messages.add(ChatMessage.system(params.systemPrompt()));
        }
        for (StoredMessage m : stored) {
            if (m.role() != Role.SYSTEM) {
                messages.add(new ChatMessage(m.role(), m.content()));
            }
        }
        EngineHandle handle = engine.chat(new ChatRequest(key, messages, params.sampling(),
                params.maxTokens(), List.of(), params.contextPolicy()), listener, cancel);
        inFlight.add(handle);
        // A stop may have come between the request and its registration (even from the listener, on the engine's
        // thread): the token tells.
        if (cancel.isCancelled()) {
            handle.cancel();
        }
        try {
            return handle.result().get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            inFlight.remove(handle);
        }
    }

    /** Cancels every turn in flight. */
    void stopAll() {
        inFlight.forEach(EngineHandle::cancel);
    }

    @Override
    public void close() throws Exception {
        stopAll();
        owner.close();
    }
}
