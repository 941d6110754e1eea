package dev.parley.app.serve;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Reads the JSON body of a completion request into an {@link ApiRequest}, with OpenAI's field names
 * and meanings; every problem is an {@link ApiError} (400) naming the field. Unknown fields are ignored,
 * as other OpenAI-compatible servers do.
 */
final class RequestParser {
    static final int MAX_STOP_STRINGS = 16;

    private final ObjectMapper json;

    RequestParser(ObjectMapper json) {
        this.json = json;
    }

    ApiRequest parse(byte[] body, boolean chat) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiError.invalid("We could not parse the JSON body of your request: "
                    + e.getOriginalMessage(), null, "invalid_json");
        } catch (java.io.IOException e) {
            throw ApiError.invalid("We could not read the body of your request: " + e.getMessage(), null,
                    "invalid_json");
        }
        if (root == null || !root.isObject()) {
            throw ApiError.invalid("expected a JSON object as the request body but found "
                    + (root == null ? "nothing" : root.getNodeType().name().toLowerCase(java.util.Locale.ROOT)),
                    null, "invalid_json");
        }
        String model = optionalString(root, "model");
        List<ChatMessage> messages = chat ? messages(root) : List.of();
        String prompt = chat ? null : prompt(root);
        int n = optionalInt(root, "n", 1);
        if (n != 1) {
            throw ApiError.invalid("only n = 1 is supported, found " + n, "n", null);
        }
        int maxTokens = maxTokens(root);
        boolean stream = optionalBoolean(root, "stream", false);
        JsonNode options = root.path("stream_options");
        boolean includeUsage = options.isObject() && optionalBoolean(options, "include_usage", false);
        return new ApiRequest(chat, model, messages, prompt, sampling(root), maxTokens, stops(root), stream,
                includeUsage);
    }

    private static List<ChatMessage> messages(JsonNode root) {
        JsonNode list = root.get("messages");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw ApiError.invalid("expected 'messages' to be a non-empty array of {role, content} but found "
                    + describe(list), "messages", null);
        }
        List<ChatMessage> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode m = list.get(i);
            String param = "messages[" + i + "]";
            if (!m.isObject()) {
                throw ApiError.invalid("expected " + param + " to be an object but found " + describe(m), param, null);
            }
            String role = m.path("role").asText("");
            Role r = switch (role) {
                case "system", "developer" -> Role.SYSTEM;
                case "user" -> Role.USER;
                case "assistant" -> Role.ASSISTANT;
                default -> throw ApiError.invalid("expected " + param + ".role to be system, developer, user or "
                        + "assistant but found " + (role.isEmpty() ? describe(m.get("role")) : "'" + role + "'"),
                        param + ".role", null);
            };
            out.add(new ChatMessage(r, content(m.get("content"), param + ".content")));
        }
        return out;
    }

    /** A string, or an array of content parts of which the text parts are joined. */
    private static String content(JsonNode content, String param) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                if (!"text".equals(part.path("type").asText()) || !part.path("text").isTextual()) {
                    throw ApiError.invalid("expected only text content parts {type: 'text', text} in " + param
                            + " but found " + describe(part), param, null);
                }
                text.append(part.path("text").asText());
            }
            return text.toString();
        }
        throw ApiError.invalid("expected " + param + " to be a string or an array of text parts but found "
                + describe(content), param, null);
    }

    private static String prompt(JsonNode root) {
        JsonNode p = root.get("prompt");
        if (p != null && p.isArray() && p.size() == 1 && p.get(0).isTextual()) {
            p = p.get(0);
        }
        if (p == null || !p.isTextual() || p.asText().isEmpty()) {
            throw ApiError.invalid("expected 'prompt' to be a non-empty string but found " + describe(p), "prompt",
                    null);
        }
        return p.asText();
    }

    private static int maxTokens(JsonNode root) {
        String field = root.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return -1;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber()) {
            throw ApiError.invalid("expected '" + field + "' to be an integer but found " + describe(v), field, null);
        }
        if (v.intValue() < 1) {
            throw ApiError.invalid("expected '" + field + "' to be at least 1 but found " + v.intValue(), field,
                    "invalid_value");
        }
        return v.intValue();
    }

    private static SamplingSettings sampling(JsonNode root) {
        double temperature = optionalNumber(root, "temperature", 1.0);
        if (!(temperature >= 0 && temperature <= 2)) {
            throw ApiError.invalid("expected 'temperature' in [0, 2] but found " + temperature, "temperature",
                    "invalid_value");
        }
        double topP = optionalNumber(root, "top_p", 1.0);
        if (!((float) topP > 0 && topP <= 1)) {      // the sampler takes a float: 1e-50 is 0 there
            throw ApiError.invalid("expected 'top_p' in (0, 1] but found " + topP, "top_p", "invalid_value");
        }
        JsonNode seedNode = root.get("seed");
        long seed;
        if (seedNode == null || seedNode.isNull()) {
            seed = ThreadLocalRandom.current().nextLong();
        } else if (seedNode.isIntegralNumber() && seedNode.canConvertToLong()) {
            seed = seedNode.longValue();
        } else {
            throw ApiError.invalid("expected 'seed' to be an integer but found " + describe(seedNode), "seed", null);
        }
        if (temperature == 0) {
            return SamplingSettings.greedy();
        }
        return new SamplingSettings((float) temperature, 0, (float) topP, 0f, 1f, 0, seed);
    }

    private static List<String> stops(JsonNode root) {
        JsonNode stop = root.get("stop");
        List<String> out = new ArrayList<>();
        if (stop == null || stop.isNull()) {
            return out;
        }
        if (stop.isTextual()) {
            out.add(stop.asText());
        } else if (stop.isArray()) {
            for (JsonNode s : stop) {
                if (!s.isTextual()) {
                    throw ApiError.invalid("expected 'stop' to hold strings but found " + describe(s), "stop", null);
                }
                out.add(s.asText());
            }
        } else {
            throw ApiError.invalid("expected 'stop' to be a string or an array of strings but found "
                    + describe(stop), "stop", null);
        }
        if (out.size() > MAX_STOP_STRINGS) {
            throw ApiError.invalid("expected at most " + MAX_STOP_STRINGS + " stop strings but found " + out.size(),
                    "stop", null);
        }
        if (out.stream().anyMatch(String::isEmpty)) {
            throw ApiError.invalid("expected non-empty stop strings but found an empty one", "stop", null);
        }
        return out;
    }

    private static String optionalString(JsonNode root, String field) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiError.invalid("expected '" + field + "' to be a string but found " + describe(v), field, null);
        }
        return v.asText();
    }

    private static double optionalNumber(JsonNode root, String field, double fallback) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isNumber()) {
            throw ApiError.invalid("expected '" + field + "' to be a number but found " + describe(v), field, null);
        }
        return v.doubleValue();
    }

    private static int optionalInt(JsonNode root, String field, int fallback) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw ApiError.invalid("expected '" + field + "' to be an integer but found " + describe(v), field, null);
        }
        return v.intValue();
    }

    private static boolean optionalBoolean(JsonNode root, String field, boolean fallback) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isBoolean()) {
            throw ApiError.invalid("expected '" + field + "' to be true or false but found " + describe(v), field,
                    null);
        }
        return v.booleanValue();
    }

    private static String describe(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "nothing";
        }
        String s = v.toString();
        return v.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " "
                + (s.length() > 60 ? s.substring(0, 60) + "..." : s);
    }
}
