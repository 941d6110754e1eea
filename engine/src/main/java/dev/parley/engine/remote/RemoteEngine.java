package dev.parley.engine.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.Engine;
import dev.parley.engine.api.EngineHandle;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An {@link Engine} on an OpenAI-compatible server ({@code parley serve}, vLLM, llama.cpp's
 * {@code llama-server}, Ollama): streams {@code POST {base}/chat/completions} with server-sent events
 * through the JDK's {@link HttpClient}, and reads JSON with Jackson.
 *
 * <p>It lives in the engine module because it needs nothing but engine types, the JDK and Jackson, so
 * the voice loop and any other module can hold an {@link Engine} without knowing which one it is.
 *
 * <p>The base URL is the one OpenAI's clients take, ending in {@code /v1} (a URL with no path gets
 * {@code /v1} added). Only the standard sampling fields are sent (temperature, top_p, seed, max_tokens,
 * stop); top-k, min-p and repetition penalties are the server's own. Greedy settings send temperature 0.
 */
public final class RemoteEngine implements Engine {
    /** How long to wait for a response to start (its headers); the stream itself may then take any time. */
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(120);

    private final URI base;
    private final String apiKey;
    private final HttpClient client;
    private final ObjectMapper json = new ObjectMapper();
    private volatile String model;

    /**
     * @param baseUrl e.g. {@code http://127.0.0.1:8080/v1}
     * @param apiKey  sent as {@code Authorization: Bearer}; null or blank for none
     * @param model   the model id to ask for; null or blank for the first one the server lists
     */
    public RemoteEngine(String baseUrl, String apiKey, String model) {
        this.base = normalize(baseUrl);
        this.apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
        this.model = model == null || model.isBlank() ? null : model.strip();
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** The base URL with {@code /v1} where it had no path. */
    public URI baseUrl() {
        return base;
    }

    @Override
    public String modelName() {
        String m = model;
        return m == null ? "(server default)" : m;
    }

    @Override
    public String location() {
        return base.toString();
    }

    /**
     * The ids of {@code GET {base}/models}.
     *
     * @throws RemoteEngineException when the server cannot be reached or refuses (with its status and message)
     */
    public List<String> listModels() {
        HttpRequest request = authorized(HttpRequest.newBuilder(resolve("models")).GET()
                .timeout(Duration.ofSeconds(30))).build();
        HttpResponse<String> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new RemoteEngineException("could not reach the remote engine at " + base + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteEngineException("interrupted while listing the remote engine's models", e);
        }
        JsonNode body;
        try {
            body = json.readTree(response.body());
        } catch (IOException e) {
            body = null;
        }
        if (response.statusCode() != 200) {
            JsonNode error = body == null ? null : body.path("error");
            String message = error == null ? response.body()
                    : error.isTextual() ? error.asText() : error.path("message").asText(response.body());
            throw new RemoteEngineException(response.statusCode(), "the remote engine answered "
                    + response.statusCode() + " to GET /models: " + message,
                    error == null ? null : error.path("type").asText(null),
                    error == null ? null : error.path("code").asText(null));
        }
        if (body == null || !body.path("data").isArray()) {
            throw new RemoteEngineException(response.statusCode(), "expected {\"data\": [...]} from GET /models but "
                    + "found " + abbreviate(response.body()), null, null);
        }
        List<String> ids = new ArrayList<>();
        for (JsonNode m : body.path("data")) {
            ids.add(m.path("id").asText());
        }
        return ids;
    }

    @Override
    public EngineHandle chat(ChatRequest request, Consumer<? super TokenEvent> listener) {
        Objects.requireNonNull(listener, "listener");
        RemoteCall call = new RemoteCall(json, listener);
        String known = model;
        // Asking the server for its model is network work: never on the caller's (maybe a UI) thread.
        var modelId = known != null ? java.util.concurrent.CompletableFuture.completedFuture(known)
                : java.util.concurrent.CompletableFuture.supplyAsync(this::resolveModel);
        call.exchange(modelId.thenCompose(id -> {
            String body;
            try {
                body = json.writeValueAsString(requestBody(request, id));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            HttpRequest http = authorized(HttpRequest.newBuilder(resolve("chat/completions"))
                    .timeout(RESPONSE_TIMEOUT)
                    .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body))).build();
            return client.sendAsync(http, call.bodyHandler());
        }));
        return call;
    }

    /** The JSON body of a streaming chat completion for {@code request}. */
    ObjectNode requestBody(ChatRequest request, String modelId) {
        ObjectNode root = json.createObjectNode();
        if (modelId != null) {
            root.put("model", modelId);
        }
        ArrayNode messages = root.putArray("messages");
        for (ChatMessage m : request.messages()) {
            messages.addObject().put("role", m.role().templateName()).put("content", m.content());
        }
        SamplingSettings s = request.sampling();
        root.put("temperature", s.isGreedy() ? 0.0 : s.temperature());
        if (!s.isGreedy()) {
            root.put("top_p", s.topP());
            root.put("seed", s.seed());
        }
        root.put("max_tokens", request.maxTokens());
        if (!request.stopStrings().isEmpty()) {
            ArrayNode stop = root.putArray("stop");
            request.stopStrings().forEach(stop::add);
        }
        root.put("stream", true);
        root.putObject("stream_options").put("include_usage", true);
        return root;
    }

    private String resolveModel() {
        String m = model;
        if (m == null) {
            List<String> ids = listModels();
            if (ids.isEmpty()) {
                throw new RemoteEngineException(404, "the remote engine at " + base + " lists no models", null, null);
            }
            m = ids.getFirst();
            model = m;
        }
        return m;
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder builder) {
        return apiKey == null ? builder : builder.header("Authorization", "Bearer " + apiKey);
    }

    private URI resolve(String endpoint) {
        String b = base.toString();
        return URI.create(b.endsWith("/") ? b + endpoint : b + "/" + endpoint);
    }

    static URI normalize(String baseUrl) {
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("expected a base URL such as http://127.0.0.1:8080/v1 but found none");
        }
        URI uri;
        try {
            uri = URI.create(baseUrl.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected a base URL such as http://127.0.0.1:8080/v1 but found "
                    + baseUrl + " (" + e.getMessage() + ")", e);
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException("expected an http:// or https:// base URL with a host, such as "
                    + "http://127.0.0.1:8080/v1, but found " + baseUrl);
        }
        String path = uri.getPath();
        if (path == null || path.isEmpty() || path.equals("/")) {
            return URI.create(scheme + "://" + uri.getRawAuthority() + "/v1");
        }
        String s = uri.toString();
        return URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    }

    @Override
    public void close() {
        client.shutdownNow();
    }

    @Override
    public String toString() {
        return "RemoteEngine[" + base + ", model " + modelName() + "]";
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
