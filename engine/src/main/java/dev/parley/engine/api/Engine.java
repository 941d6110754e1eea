package dev.parley.engine.api;

import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.TokenEvent;
import java.util.function.Consumer;

/**
 * What the app and the voice loop talk to: chat messages in, a stream of text out. Two
 * implementations: {@link LocalEngine} (a model in this process, shared by concurrent requests) and
 * {@link dev.parley.engine.remote.RemoteEngine} (an OpenAI-compatible server such as
 * {@code parley serve}, vLLM, llama.cpp's server or Ollama).
 *
 * <p>Events arrive in {@link TokenEvent}'s order: text events, then exactly one
 * {@link TokenEvent.Done}. A local engine sends {@link TokenEvent.Token}s with their ids; a remote
 * engine does not know ids and sends {@link TokenEvent.Text} for every piece of text it receives.
 * Listeners run on the engine's own thread: they must hand over, never block.
 *
 * <p>Implementations are safe to call from any thread.
 */
public interface Engine extends AutoCloseable {

    /** The model's name, as a dashboard shows it. */
    String modelName();

    /** Where the engine runs, e.g. {@code local} or the remote base URL. */
    String location();

    /**
     * Starts generating the assistant's reply to {@code request}'s messages; returns at once.
     * Failures (a server that cannot be reached, a request the engine rejects) complete the
     * handle's result exceptionally and send no {@link TokenEvent.Done}.
     */
    EngineHandle chat(ChatRequest request, Consumer<? super TokenEvent> listener);

    /**
     * Like {@link #chat(ChatRequest, Consumer)}, also stopping when {@code cancel} is raised. A local engine checks
     * the token at every step, so even a listener that raises it before this method has returned stops the reply
     * within one step; this default cancels the handle if the token is already raised when it is returned.
     */
    default EngineHandle chat(ChatRequest request, Consumer<? super TokenEvent> listener, CancellationToken cancel) {
        EngineHandle handle = chat(request, listener);
        if (cancel.isCancelled()) {
            handle.cancel();
        }
        return handle;
    }

    /**
     * The conversation sent so far under the provisional key {@code from} (a spoken turn answered before it was
     * stored, so before it had an id) is from now on {@code to}: what the engine keeps of it (a local engine, the ids
     * it fed and generated) serves requests under {@code to}, also for a turn under {@code from} still running. Does
     * nothing by default (a remote engine keeps nothing per conversation).
     */
    default void renameConversation(String from, String to) {
    }

    /** Stops accepting requests and releases what the engine holds. */
    @Override
    void close();
}
