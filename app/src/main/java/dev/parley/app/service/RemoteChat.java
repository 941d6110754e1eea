package dev.parley.app.service;

import dev.parley.app.store.StoredMessage;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.EngineHandle;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.remote.RemoteEngine;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * The chat service's turns on a {@link RemoteEngine}: each turn sends the stored conversation (with
 * the system prompt) and streams the reply; {@link #stopAll()} cancels what is in flight.
 */
final class RemoteChat implements AutoCloseable {
    private final RemoteEngine engine;
    private final Set<EngineHandle> inFlight = ConcurrentHashMap.newKeySet();

    RemoteChat(RemoteEngine engine) {
        this.engine = engine;
    }

    RemoteEngine engine() {
        return engine;
    }

    /** Generates the reply to the conversation {@code stored} (ending with the user's message); blocks until done. */
    EngineResult reply(long conversationId, List<StoredMessage> stored, GenerationParams params, boolean cancelled,
                       Consumer<? super TokenEvent> listener) throws Exception {
        List<ChatMessage> messages = new ArrayList<>();
        if (!params.systemPrompt().isBlank()) {
            messages.add(ChatMessage.system(params.systemPrompt()));
        }
        for (StoredMessage m : stored) {
            if (m.role() != Role.SYSTEM) {
                messages.add(new ChatMessage(m.role(), m.content()));
            }
        }
        EngineHandle handle = engine.chat(new ChatRequest(Long.toString(conversationId), messages, params.sampling(),
                params.maxTokens(), List.of()), listener);
        inFlight.add(handle);
        if (cancelled) {
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
    public void close() {
        stopAll();
        engine.close();
    }
}
