package dev.parley.app.voice;

import dev.parley.audio.CancellationSignal;
import dev.parley.audio.Responder;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.ThinkingFilter;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The voice loop's {@link Responder} backed by the language-model engine: each spoken turn is a
 * turn of one {@link Conversation} (the KV cache is kept between turns), its text is streamed piece
 * by piece as tokens are decoded, and the loop's {@link CancellationSignal} (barge-in) cancels the
 * engine's {@link CancellationToken}, which the generator checks before every step. An interrupted
 * reply stays in the conversation with the text generated so far and is listed in {@link #replies()}
 * marked interrupted.
 */
public final class EngineResponder implements Responder {
    private final Conversation conversation;
    private final Sampler sampler;
    private final int maxTokens;
    private final List<SpokenReply> replies = new ArrayList<>();
    private final List<Consumer<SpokenReply>> replyListeners = new CopyOnWriteArrayList<>();
    /** The turns before the last reply (responder thread only), for {@link #retract()}. */
    private List<ChatMessage> beforeLast;

    /**
     * @param conversation the chat the spoken turns join (used from the voice loop's responder thread only)
     * @param sampler      how tokens are chosen
     * @param maxTokens    at most this many tokens per reply
     */
    public EngineResponder(Conversation conversation, Sampler sampler, int maxTokens) {
        if (maxTokens < 1) {
            throw new IllegalArgumentException("expected at least 1 token per reply but found " + maxTokens);
        }
        this.conversation = conversation;
        this.sampler = sampler;
        this.maxTokens = maxTokens;
    }

    @Override
    public void respond(String userText, Consumer<String> textPieces, CancellationSignal cancel) {
        CancellationToken token = new CancellationToken();
        cancel.onCancel(token::cancel);
        // A reasoning model's <think> block is never spoken.
        ThinkingFilter spoken = new ThinkingFilter();
        GenerationResult result;
        synchronized (conversation) {
            beforeLast = conversation.messages().stream().filter(m -> m.role() != Role.SYSTEM).toList();
            result = conversation.reply(userText, sampler, maxTokens, token, event -> {
                String text = switch (event) {
                    case TokenEvent.Token t -> t.text();
                    case TokenEvent.Text t -> t.text();
                    case TokenEvent.Done d -> "";
                };
                String say = event instanceof TokenEvent.Done ? spoken.finish() : spoken.accept(text);
                if (!say.isEmpty() && !token.isCancelled()) {
                    textPieces.accept(say);
                }
            });
        }
        boolean interrupted = result.reason() == StopReason.CANCELLED || cancel.isCancelled();
        SpokenReply reply = new SpokenReply(userText, result.text(), result.reason(), result.stats().generatedTokens(),
                interrupted);
        synchronized (replies) {
            replies.add(reply);
        }
        for (Consumer<SpokenReply> l : replyListeners) {
            l.accept(reply);
        }
    }

    @Override
    public boolean canRetract() {
        return true;
    }

    /**
     * Forgets the last reply (a speculative one the user talked over): the conversation goes back to
     * the turns before it (the KV cache is reused as far as it matches) and the reply leaves
     * {@link #replies()}.
     */
    @Override
    public void retract() {
        if (beforeLast == null) {
            throw new IllegalStateException("expected a reply to retract but found none");
        }
        synchronized (conversation) {
            conversation.restore(beforeLast);
        }
        beforeLast = null;
        synchronized (replies) {
            if (!replies.isEmpty()) {
                replies.removeLast();
            }
        }
    }

    /** Calls {@code listener} (on the responder's thread) each time a generation ended, cancelled or not. */
    public void addReplyListener(Consumer<SpokenReply> listener) {
        replyListeners.add(listener);
    }

    /**
     * Runs one short throwaway generation and forgets it, so that the first spoken turn does not pay
     * for the JIT compiling the engine (seconds on a cold JVM). Call it before the loop starts.
     */
    public void warmUp() {
        synchronized (conversation) {
            conversation.reply("Hello.", sampler, 32, new CancellationToken(), event -> { });
            conversation.reset();
            sampler.reset();
        }
    }

    /** The replies so far, oldest first; interrupted ones are marked. */
    public List<SpokenReply> replies() {
        synchronized (replies) {
            return List.copyOf(replies);
        }
    }

    /** The conversation the spoken turns are part of. */
    public Conversation conversation() {
        return conversation;
    }
}
