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
 *
 * <p>When the next prompt no longer fits the context window, the {@link ContextPolicy} decides: by
 * default the oldest turns are dropped (the system message and the most recent turns are kept, no
 * message is cut) and the prompt is tokenized whole again; {@link #lastTrim()} says what was dropped,
 * so the app can tell the user.
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
    private ContextPolicy policy = ContextPolicy.DEFAULT;
    private ContextTrim lastTrim;

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
        lastTrim = null;
        if (policy.mustTrim(prompt.length, maxTokens, session.contextLength())) {
            prompt = trim(prompt.length, policy.keptTokens(session.contextLength()));
        }
        GenerationResult result = generator.generate(session,
                new GenerationRequest(prompt, maxTokens, template.stopStrings()), sampler, cancel, listener);
        messages.add(new ChatMessage(Role.ASSISTANT, result.text().strip()));
        history = concat(prompt, result.tokens());
        return result;
    }

    /** What the policy does when the context window is full; {@link ContextPolicy#DEFAULT} until set. */
    public ContextPolicy contextPolicy() {
        return policy;
    }

    /** Sets what happens from the next reply on when the context window is full. */
    public void contextPolicy(ContextPolicy policy) {
        this.policy = java.util.Objects.requireNonNull(policy, "policy");
    }

    /** What the last {@link #reply} dropped to fit the window, or empty when it dropped nothing. */
    public java.util.Optional<ContextTrim> lastTrim() {
        return java.util.Optional.ofNullable(lastTrim);
    }

    /** The conversation as the model sees it (the system message first, when there is one). */
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

    /**
     * Replaces every turn after the system message with {@code turns} (a stored chat reopened, or the
     * last exchange dropped to regenerate it). The next prompt is tokenized whole; the cache is still
     * reused as far as it matches.
     *
     * @throws IllegalArgumentException when {@code turns} contains a system message
     */
    public void restore(List<ChatMessage> turns) {
        for (ChatMessage m : turns) {
            if (m.role() == Role.SYSTEM) {
                throw new IllegalArgumentException("expected user and assistant turns to restore but found a "
                        + "system message (the system prompt is given to the constructor)");
            }
        }
        reset();
        messages.addAll(turns);
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

    /** Drops the oldest turns as the policy says and returns the kept prompt, tokenized whole. */
    private int[] trim(int tokensBefore, int limit) {
        int[] prompt = template.encodePrompt(tokenizer, messages, true);
        lastTrim = ContextWindow.trim(messages, prompt, template, tokenizer, limit);
        if (lastTrim == null) {
            return prompt;
        }
        lastTrim = new ContextTrim(lastTrim.droppedMessages(), lastTrim.keptMessages(), tokensBefore,
                lastTrim.tokensAfter());
        return template.encodePrompt(tokenizer, messages, true);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
