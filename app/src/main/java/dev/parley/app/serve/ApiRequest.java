package dev.parley.app.serve;

import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.util.List;

/**
 * A validated {@code /v1/chat/completions} or {@code /v1/completions} request.
 *
 * @param chat         true for chat completions ({@link #messages}), false for text completions ({@link #prompt})
 * @param model        the model asked for, or null when the client named none
 * @param messages     the conversation (chat only, else empty)
 * @param prompt       the text to continue (text completions only, else null)
 * @param sampling     temperature, top-p and seed mapped to the engine's settings
 * @param maxTokens    the client's limit on new tokens, or -1 when it gave none
 * @param stop         extra stop strings
 * @param stream       answer with server-sent events
 * @param includeUsage send a last chunk with the usage counts ({@code stream_options.include_usage})
 */
record ApiRequest(boolean chat, String model, List<ChatMessage> messages, String prompt, SamplingSettings sampling,
                  int maxTokens, List<String> stop, boolean stream, boolean includeUsage) {
}
