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
 * A multi-turn chat on one KV cache. The conversation's tokens are kept as the model saw and
 * produced them; a new turn tokenizes only the text that the chat template adds for it (the end of
 * the assistant's turn, the user's message, the opening of the next assistant turn), so the cache
 * holds everything before it and only the new tokens are fed. Re-tokenizing the whole rendered
 * conversation instead would not give back the generated ids (a tokenizer's segmentation of a text
 * differs from the ids the model sampled), and the cache would be reused only up to the last prompt.
 */
public final class Conversation {
    private final Tokenizer tokenizer;
    private final ChatTemplate template;
    private final CachedSession session;
    private final Generator generator;
    private final String systemPrompt;
    private final List<ChatMessage> messages = new ArrayList<>();
    /** The conversation as tokens: every prompt and generated token so far (empty before the first turn). */
    private int[] history = new int[0];

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
        List<ChatMessage> before = List.copyOf(messages);
        messages.add(new ChatMessage(Role.USER, userText));
        int[] prompt = promptTokens(before);
        GenerationResult result = generator.generate(session,
                new GenerationRequest(prompt, maxTokens, template.stopStrings()), sampler, cancel, listener);
        messages.add(new ChatMessage(Role.ASSISTANT, result.text().strip()));
        history = concat(prompt, result.tokens());
        return result;
    }

    /** The conversation so far (the system message first, when there is one). */
    public List<ChatMessage> messages() {
        return List.copyOf(messages);
    }

    /** Forgets every turn but the system message; the cache is kept and reused as far as it matches. */
    public void reset() {
        messages.clear();
        history = new int[0];
        if (systemPrompt != null) {
            messages.add(new ChatMessage(Role.SYSTEM, systemPrompt));
        }
    }

    /** Tokens in the cache. */
    public int cachedTokens() {
        return session.position();
    }

    /**
     * The prompt of the new turn: the conversation's tokens so far followed by the tokens of the text
     * the template adds for the new message. When the template rewrites earlier turns (its rendering
     * of the old messages is not a prefix of the new rendering), the whole conversation is tokenized.
     */
    private int[] promptTokens(List<ChatMessage> before) {
        if (history.length > 0) {
            String previous = template.render(before, false);
            String next = template.render(messages, true);
            if (next.startsWith(previous)) {
                return concat(history, tokenizer.encode(next.substring(previous.length()), false, true));
            }
        }
        return template.encodePrompt(tokenizer, messages, true);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
