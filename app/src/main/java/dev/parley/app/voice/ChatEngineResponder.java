package dev.parley.app.voice;

import dev.parley.audio.CancellationSignal;
import dev.parley.audio.Responder;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.Engine;
import dev.parley.engine.api.EngineHandle;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.ThinkingFilter;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * The voice loop's {@link Responder} on any {@link Engine} (local through the batcher, or a remote
 * server): keeps the spoken conversation as chat messages, sends it whole each turn (a local engine
 * reuses the conversation's cache by its id), streams the reply's text pieces, and cancels the
 * engine's request on barge-in. An interrupted reply stays in the history with the text said so far.
 */
public final class ChatEngineResponder implements Responder {
    private final Engine engine;
    private final SamplingSettings sampling;
    private final int maxTokens;
    private final String conversationId = "voice-" + UUID.randomUUID();
    private final List<ChatMessage> history = new ArrayList<>();
    private final List<SpokenReply> replies = new ArrayList<>();

    /** @param system the system message, or null/blank for none */
    public ChatEngineResponder(Engine engine, SamplingSettings sampling, int maxTokens, String system) {
        if (maxTokens < 1) {
            throw new IllegalArgumentException("expected at least 1 token per reply but found " + maxTokens);
        }
        this.engine = engine;
        this.sampling = sampling;
        this.maxTokens = maxTokens;
        if (system != null && !system.isBlank()) {
            history.add(ChatMessage.system(system));
        }
    }

    @Override
    public void respond(String userText, Consumer<String> textPieces, CancellationSignal cancel) throws Exception {
        List<ChatMessage> messages;
        synchronized (history) {
            history.add(ChatMessage.user(userText));
            messages = List.copyOf(history);
        }
        // A reasoning model's <think> block is never spoken.
        ThinkingFilter spoken = new ThinkingFilter();
        EngineHandle handle = engine.chat(new ChatRequest(conversationId, messages, sampling, maxTokens, List.of()),
                event -> {
                    String text = switch (event) {
                        case TokenEvent.Token t -> t.text();
                        case TokenEvent.Text t -> t.text();
                        case TokenEvent.Done d -> "";
                    };
                    String say = event instanceof TokenEvent.Done ? spoken.finish() : spoken.accept(text);
                    if (!say.isEmpty() && !cancel.isCancelled()) {
                        textPieces.accept(say);
                    }
                });
        cancel.onCancel(handle::cancel);
        EngineResult result;
        try {
            result = handle.result().get();
        } catch (ExecutionException e) {
            synchronized (history) {
                history.removeLast();
            }
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        boolean interrupted = result.reason() == StopReason.CANCELLED || cancel.isCancelled();
        synchronized (history) {
            history.add(ChatMessage.assistant(result.text().strip()));
            replies.add(new SpokenReply(userText, result.text(), result.reason(), result.completionTokens(),
                    interrupted));
        }
    }

    /** The replies so far, oldest first; interrupted ones are marked. */
    public List<SpokenReply> replies() {
        synchronized (history) {
            return List.copyOf(replies);
        }
    }

    /** The conversation so far (system message first when there is one). */
    public List<ChatMessage> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }
}
