package dev.parley.app.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.parley.engine.api.EngineHandle;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.api.LocalEngine;
import dev.parley.engine.batch.QueueFullException;
import dev.parley.engine.generate.TokenEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code POST /v1/chat/completions} and {@code POST /v1/completions}: checks the request against the
 * model (name, context), hands it to the engine and answers with one JSON object or, with
 * {@code stream}, with server-sent events ending in {@code data: [DONE]}.
 *
 * <p>Engine events arrive on the engine's thread and only go into a queue there; this exchange's own
 * thread writes them. A write that fails means the client went away: the request is cancelled at once,
 * so its sequence and cache blocks are freed.
 */
final class GenerationEndpoint {
    /** Put in the event queue when the engine failed instead of ending with a Done event. */
    private record Failure(Throwable error) {
    }

    private final LocalEngine engine;
    private final ObjectMapper json;
    private final RequestParser parser;
    private final HttpMetrics metrics;

    GenerationEndpoint(LocalEngine engine, ObjectMapper json, HttpMetrics metrics) {
        this.engine = engine;
        this.json = json;
        this.parser = new RequestParser(json);
        this.metrics = metrics;
    }

    /** Answers the request and returns the HTTP status sent. */
    int handle(HttpExchange exchange, byte[] body, boolean chat) throws IOException, InterruptedException {
        ApiRequest request = parser.parse(body, chat);
        if (request.model() != null && !request.model().equals(engine.modelName())) {
            throw new ApiError(404, "The model '" + request.model() + "' does not exist or you do not have access "
                    + "to it; this server serves '" + engine.modelName() + "'", "invalid_request_error", "model",
                    "model_not_found");
        }
        int[] prompt = chat ? engine.chatPrompt(request.messages()) : engine.completionPrompt(request.prompt());
        String field = chat ? "messages" : "prompt";
        if (prompt.length == 0) {
            throw ApiError.invalid("the prompt is empty and this model adds no BOS token: nothing to continue", field,
                    null);
        }
        int context = engine.contextLength();
        if (prompt.length >= context) {
            throw ApiError.invalid("This model's maximum context length is " + context + " tokens, but your "
                    + field + " resulted in " + prompt.length + " tokens (and at least one new token must fit)",
                    field, "context_length_exceeded");
        }
        int room = context - prompt.length;
        int maxTokens = request.maxTokens() < 0 ? room : Math.min(request.maxTokens(), room);
        List<String> stops = new ArrayList<>(chat ? engine.template().stopStrings() : List.of());
        request.stop().stream().filter(s -> !stops.contains(s)).forEach(stops::add);

        String id = (chat ? "chatcmpl-" : "cmpl-") + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        ResponseShapes shapes = new ResponseShapes(json, chat, id, System.currentTimeMillis() / 1000,
                engine.modelName());
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        EngineHandle handle;
        try {
            handle = engine.generate(null, prompt, request.sampling(), maxTokens, stops,
                    request.stream() ? events::add : event -> { });
        } catch (QueueFullException e) {
            throw new ApiError(503, e.getMessage(), "server_error", null, "server_busy");
        } catch (IllegalArgumentException e) {
            throw ApiError.invalid(e.getMessage(), field, "context_length_exceeded");
        }
        handle.result().whenComplete((r, error) -> {
            if (error != null) {
                events.add(new Failure(error));
            }
        });
        metrics.promptTokens.add(prompt.length);
        if (request.stream()) {
            return stream(exchange, request, shapes, handle, events, prompt.length);
        }
        EngineResult result;
        try {
            result = handle.result().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the engine failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            handle.cancel();
            throw e;
        }
        metrics.completionTokens.add(result.completionTokens());
        byte[] answer = json.writeValueAsBytes(shapes.whole(result.text(), ResponseShapes.finishReason(result.reason()),
                prompt.length, result.completionTokens()));
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
        return 200;
    }

    private int stream(HttpExchange exchange, ApiRequest request, ResponseShapes shapes, EngineHandle handle,
                       BlockingQueue<Object> events, int promptTokens) throws IOException, InterruptedException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        boolean usage = request.includeUsage();
        try {
            if (request.chat()) {
                send(out, shapes.chunk("", true, null, usage).toString());
            }
            while (true) {
                Object event = events.take();
                switch (event) {
                    case TokenEvent.Token t when !t.text().isEmpty() -> send(out, shapes.chunk(t.text(), false, null,
                            usage).toString());
                    case TokenEvent.Text t when !t.text().isEmpty() -> send(out, shapes.chunk(t.text(), false, null,
                            usage).toString());
                    case TokenEvent.Done d -> {
                        metrics.completionTokens.add(d.stats().generatedTokens());
                        send(out, shapes.chunk(request.chat() ? null : "", false,
                                ResponseShapes.finishReason(d.reason()), usage).toString());
                        if (usage) {
                            send(out, shapes.usageChunk(promptTokens, d.stats().generatedTokens()).toString());
                        }
                        send(out, "[DONE]");
                        out.close();
                        return 200;
                    }
                    case Failure f -> {
                        ApiError error = new ApiError(500, "the engine failed: " + f.error().getMessage(),
                                "server_error", null, null);
                        send(out, ResponseShapes.error(json, error).toString());
                        out.close();
                        return 500;
                    }
                    default -> { }
                }
            }
        } catch (IOException e) {
            // The client went away (or the connection broke): stop generating for it now.
            handle.cancel();
            metrics.disconnects.increment();
            return 499;
        } catch (InterruptedException e) {
            handle.cancel();
            throw e;
        }
    }

    private static void send(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
