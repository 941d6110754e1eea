package dev.parley.engine.generate;

import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Role;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/**
 * Fits a chat into a context window as a {@link ContextPolicy} says: when the prompt, plus room for
 * the reply, does not fit, the oldest turns are dropped whole (a user message and the answers after
 * it), never the system message (first, when there is one) nor the last message. Used by
 * {@link Conversation} and by engines that receive whole message lists.
 */
public final class ContextWindow {

    private ContextWindow() {
    }

    /**
     * The messages the model will see and their prompt.
     *
     * @param messages the kept messages, in order
     * @param prompt   their prompt tokens (the template's rendering with the assistant's header)
     * @param trim     what was dropped, or null when nothing was
     */
    public record Fit(List<ChatMessage> messages, int[] prompt, ContextTrim trim) {
        public Fit {
            messages = List.copyOf(messages);
        }
    }

    /** Fits {@code messages} for a reply of up to {@code maxTokens} in a window of {@code contextLength}. */
    public static Fit fit(List<ChatMessage> messages, ChatTemplate template, Tokenizer tokenizer, int contextLength,
                          int maxTokens, ContextPolicy policy) {
        int[] prompt = template.encodePrompt(tokenizer, messages, true);
        if (!policy.mustTrim(prompt.length, maxTokens, contextLength)) {
            return new Fit(messages, prompt, null);
        }
        List<ChatMessage> kept = new ArrayList<>(messages);
        ContextTrim trim = trim(kept, prompt, template, tokenizer, policy.keptTokens(contextLength));
        return new Fit(kept, trim == null ? prompt : template.encodePrompt(tokenizer, kept, true), trim);
    }

    /**
     * Drops the oldest turns of {@code messages} (in place) until their prompt takes at most {@code limit}
     * tokens or only the last message is left after the system message; returns what was dropped or null.
     */
    static ContextTrim trim(List<ChatMessage> messages, int[] prompt, ChatTemplate template, Tokenizer tokenizer,
                            int limit) {
        int first = !messages.isEmpty() && messages.getFirst().role() == Role.SYSTEM ? 1 : 0;
        int tokensBefore = prompt.length;
        int length = prompt.length;
        int dropped = 0;
        while (length > limit && messages.size() - first > 1) {
            messages.remove(first);
            dropped++;
            // Keep the turns paired: a conversation after the system message starts with the user.
            while (messages.size() - first > 1 && messages.get(first).role() != Role.USER) {
                messages.remove(first);
                dropped++;
            }
            length = template.encodePrompt(tokenizer, messages, true).length;
        }
        return dropped == 0 ? null : new ContextTrim(dropped, messages.size(), tokensBefore, length);
    }
}
