package dev.parley.engine.api;

import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.util.List;
import java.util.Objects;

/**
 * One chat turn to generate.
 *
 * @param conversationId a stable id of the conversation, so a local engine can keep its KV cache between
 *                       turns; null when none should be kept
 * @param messages       the whole conversation so far (system message first when there is one); at least one
 * @param sampling       how to choose tokens ({@link SamplingSettings#greedy()} for reproducible output)
 * @param maxTokens      at most this many new tokens, at least 1
 * @param stopStrings    extra text that ends the reply (the chat template's own end markers always do)
 */
public record ChatRequest(String conversationId, List<ChatMessage> messages, SamplingSettings sampling,
                          int maxTokens, List<String> stopStrings) {

    public ChatRequest {
        Objects.requireNonNull(sampling, "sampling");
        if (messages == null || messages.isEmpty()) {
            throw new IllegalArgumentException("expected at least one chat message but found none");
        }
        messages = List.copyOf(messages);
        if (maxTokens < 1) {
            throw new IllegalArgumentException("expected max tokens >= 1 but found " + maxTokens);
        }
        stopStrings = stopStrings == null ? List.of() : List.copyOf(stopStrings);
        for (String s : stopStrings) {
            if (s.isEmpty()) {
                throw new IllegalArgumentException("expected non-empty stop strings but found an empty one");
            }
        }
    }

    /** A request without a conversation id or extra stop strings. */
    public ChatRequest(List<ChatMessage> messages, SamplingSettings sampling, int maxTokens) {
        this(null, messages, sampling, maxTokens, List.of());
    }
}
