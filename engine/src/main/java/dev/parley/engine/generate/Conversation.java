package dev.parley.engine.generate;

import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Role;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A multi-turn chat on one KV cache. Each turn renders the whole conversation with the model's chat
 * template and tokenizes it; the part the cache already holds (everything up to the new user
 * message, usually) is reused and only the rest is fed.
 */
public final class Conversation {
    private final Tokenizer tokenizer;
    private final ChatTemplate template;
    private final CachedSession session;
    private final Generator generator;
    private final String systemPrompt;
    private final List<ChatMessage> messages = new ArrayList<>();

    /** @param systemPrompt the system message, or null for none */
    public Conversation(Tokenizer tokenizer, ChatTemplate template, CachedSession session, String systemPrompt) {
        this.tokenizer = tokenizer;
        this.template = template;
        this.session = session;
        this.generator = new Generator(tokenizer);
        this.systemPrompt = systemPrompt == null || systemPrompt.isBlank() ? null : systemPrompt;
        reset();
    }

    /**
     * Adds the user's message, generates the assistant's answer (streamed to {@code listener}) and
     * adds it to the conversation, partial when cancelled or cut off.
     */
    public GenerationResult reply(String userText, Sampler sampler, int maxTokens, CancellationToken cancel,
                                  Consumer<? super TokenEvent> listener) {
        messages.add(new ChatMessage(Role.USER, userText));
        int[] prompt = promptTokens();
        GenerationResult result = generator.generate(session,
                new GenerationRequest(prompt, maxTokens, template.stopStrings()), sampler, cancel, listener);
        messages.add(new ChatMessage(Role.ASSISTANT, result.text().strip()));
        return result;
    }

    /** The conversation so far (the system message first, when there is one). */
    public List<ChatMessage> messages() {
        return List.copyOf(messages);
    }

    /** Forgets every turn but the system message; the cache is kept and reused as far as it matches. */
    public void reset() {
        messages.clear();
        if (systemPrompt != null) {
            messages.add(new ChatMessage(Role.SYSTEM, systemPrompt));
        }
    }

    /** Tokens in the cache. */
    public int cachedTokens() {
        return session.position();
    }

    /** The rendered conversation with the assistant's turn opened, as tokens. */
    private int[] promptTokens() {
        return template.encodePrompt(tokenizer, messages, true);
    }
}
