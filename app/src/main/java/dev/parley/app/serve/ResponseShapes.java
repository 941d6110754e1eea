package dev.parley.app.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.engine.generate.StopReason;

/**
 * The JSON objects of OpenAI's API that the server sends: chat completions and their streamed chunks,
 * text completions, usage, errors, the model list. One instance per response id.
 */
final class ResponseShapes {
    private final ObjectMapper json;
    private final boolean chat;
    private final String id;
    private final long created;
    private final String model;

    ResponseShapes(ObjectMapper json, boolean chat, String id, long created, String model) {
        this.json = json;
        this.chat = chat;
        this.id = id;
        this.created = created;
        this.model = model;
    }

    /** OpenAI's finish reason for an engine stop reason. */
    static String finishReason(StopReason reason) {
        return switch (reason) {
            case MAX_TOKENS, CONTEXT_FULL -> "length";
            case EOS, STOP_STRING, CANCELLED -> "stop";
        };
    }

    /** A streamed chunk carrying {@code text} (chat: as {@code delta.content}; the first one also sets the role). */
    ObjectNode chunk(String text, boolean first, String finishReason, boolean includeUsage) {
        ObjectNode root = header(chat ? "chat.completion.chunk" : "text_completion");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        if (chat) {
            ObjectNode delta = choice.putObject("delta");
            if (first) {
                delta.put("role", "assistant");
            }
            if (text != null) {
                delta.put("content", text);
            }
        } else {
            choice.put("text", text == null ? "" : text);
        }
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (includeUsage) {
            root.putNull("usage");
        }
        return root;
    }

    /** The last chunk of {@code stream_options.include_usage}: no choices, the usage. */
    ObjectNode usageChunk(int promptTokens, int completionTokens) {
        ObjectNode root = header(chat ? "chat.completion.chunk" : "text_completion");
        root.putArray("choices");
        root.set("usage", usage(promptTokens, completionTokens));
        return root;
    }

    /** The whole answer of a request without {@code stream}. */
    ObjectNode whole(String text, String finishReason, int promptTokens, int completionTokens) {
        ObjectNode root = header(chat ? "chat.completion" : "text_completion");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        if (chat) {
            choice.putObject("message").put("role", "assistant").put("content", text);
        } else {
            choice.put("text", text);
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        root.set("usage", usage(promptTokens, completionTokens));
        return root;
    }

    private ObjectNode usage(int promptTokens, int completionTokens) {
        return json.createObjectNode().put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
    }

    private ObjectNode header(String object) {
        return json.createObjectNode().put("id", id).put("object", object).put("created", created).put("model", model);
    }

    /** OpenAI's error shape for {@code e}. */
    static ObjectNode error(ObjectMapper json, ApiError e) {
        ObjectNode root = json.createObjectNode();
        ObjectNode error = root.putObject("error").put("message", e.getMessage()).put("type", e.type());
        if (e.param() == null) {
            error.putNull("param");
        } else {
            error.put("param", e.param());
        }
        if (e.code() == null) {
            error.putNull("code");
        } else {
            error.put("code", e.code());
        }
        return root;
    }
}
