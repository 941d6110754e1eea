package dev.parley.engine.generate;

/**
 * What a {@link Conversation} dropped to make its prompt fit the context window (see
 * {@link ContextPolicy}): whole messages, oldest first, never the system message or the new one.
 *
 * @param droppedMessages messages the model no longer sees, from this trim
 * @param keptMessages    messages it still sees (the system message included, the new one too)
 * @param tokensBefore    tokens the prompt would have taken untrimmed
 * @param tokensAfter     tokens of the trimmed prompt
 */
public record ContextTrim(int droppedMessages, int keptMessages, int tokensBefore, int tokensAfter) {
}
