package dev.parley.app.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.api.LocalEngine;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** A real model behind a real {@link ApiServer} on an ephemeral loopback port, and an HTTP client for it. */
final class ServedModel implements AutoCloseable {
    record Reply(int status, String body) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(body);
        }
    }

    final LlamaModel model;
    final LocalEngine engine;
    final ApiServer server;
    final String apiKey;
    final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private ServedModel(LlamaModel model, LocalEngine engine, ApiServer server, String apiKey) {
        this.model = model;
        this.engine = engine;
        this.server = server;
        this.apiKey = apiKey;
    }

    /** Serves {@code file} (id: its name without .gguf) with {@code context} positions and 1 engine thread. */
    static ServedModel start(Path file, int context, String apiKey) throws IOException {
        LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 1));
        try {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            ChatTemplate template = ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null));
            String id = file.getFileName().toString().replace(".gguf", "");
            LocalEngine engine = new LocalEngine(model, tokenizer, template, id, context);
            ApiServer server = ApiServer.start(engine, ServeOptions.local(0, apiKey));
            return new ServedModel(model, engine, server, apiKey);
        } catch (IOException | RuntimeException e) {
            model.close();
            throw e;
        }
    }

    String baseUrl() {
        return server.baseUrl();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(120));
        return apiKey == null ? b : b.header("Authorization", "Bearer " + apiKey);
    }

    Reply get(String path) throws IOException, InterruptedException {
        return send(request(path).GET().build());
    }

    Reply post(String path, String json) throws IOException, InterruptedException {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    Reply send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body());
    }

    /** One Prometheus sample's value, e.g. {@code parley_batch_running_sequences}; NaN when absent. */
    double metric(String sample) throws IOException, InterruptedException {
        Reply r = get("/metrics");
        if (r.status() != 200) {
            throw new IllegalStateException("GET /metrics answered " + r.status() + ": " + r.body());
        }
        for (String line : r.body().split("\n")) {
            if (line.startsWith(sample + " ")) {
                return Double.parseDouble(line.substring(sample.length() + 1).strip());
            }
        }
        return Double.NaN;
    }

    @Override
    public void close() {
        server.close();
        engine.close();
        model.close();
        client.shutdownNow();
    }
}
