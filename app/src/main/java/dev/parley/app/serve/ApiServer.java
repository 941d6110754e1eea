package dev.parley.app.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.parley.engine.api.LocalEngine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code parley serve}: an OpenAI-compatible HTTP API over a {@link LocalEngine}, on the JDK's
 * {@link HttpServer} with a bounded pool of worker threads (a connection that finds the pool and its
 * queue full is closed). Routes: {@code POST /v1/chat/completions}, {@code POST /v1/completions},
 * {@code GET /v1/models}, {@code GET /v1/models/{id}}, {@code GET /health} and {@code GET /metrics}
 * (Prometheus text). With an API key, every route but {@code /health} needs
 * {@code Authorization: Bearer <key>}. Errors use OpenAI's shape; the server keeps serving after each.
 */
public final class ApiServer implements AutoCloseable {
    /** Bodies up to this size are read and dropped before a 413, so the client sees the answer. */
    private static final long DRAIN_LIMIT = 64L << 20;

    private final LocalEngine engine;
    private final ServeOptions options;
    private final ObjectMapper json = new ObjectMapper();
    private final HttpMetrics metrics = new HttpMetrics();
    private final GenerationEndpoint generation;
    private final MetricsEndpoint metricsEndpoint;
    private final HttpServer server;
    private final ThreadPoolExecutor workers;
    private final byte[] expectedAuthorization;

    private ApiServer(LocalEngine engine, ServeOptions options) throws IOException {
        this.engine = engine;
        this.options = options;
        this.generation = new GenerationEndpoint(engine, json, metrics);
        this.metricsEndpoint = new MetricsEndpoint(engine, metrics);
        this.expectedAuthorization = options.apiKey() == null ? null
                : ("Bearer " + options.apiKey()).getBytes(StandardCharsets.UTF_8);
        AtomicInteger count = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(options.threads(), options.threads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(options.queue()), r -> {
                    Thread t = new Thread(r, "parley-http-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, (r, pool) -> {
                    metrics.rejected.increment();
                    throw new java.util.concurrent.RejectedExecutionException("all " + options.threads()
                            + " HTTP workers are busy and " + options.queue() + " connections wait");
                });
        this.server = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 64);
        server.setExecutor(workers);
        server.createContext("/", this::handle);
    }

    /** Binds and starts serving; the engine stays the caller's to close. */
    public static ApiServer start(LocalEngine engine, ServeOptions options) throws IOException {
        ApiServer s = new ApiServer(engine, options);
        s.server.start();
        return s;
    }

    /** The bound port (the real one when {@code 0} was asked for). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The base URL clients use, e.g. {@code http://127.0.0.1:8080/v1}. */
    public String baseUrl() {
        String host = server.getAddress().getHostString();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/v1";
    }

    private void handle(HttpExchange exchange) {
        String path = exchange.getRequestURI().getPath();
        String route = route(path);
        int status = 500;
        try (exchange) {
            try {
                status = dispatch(exchange, path);
            } catch (ApiError e) {
                status = e.status();
                sendError(exchange, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = 503;
                sendError(exchange, new ApiError(503, "the server is shutting down", "server_error", null, null));
            } catch (IOException e) {
                status = 499; // the client went away while we read or wrote
            } catch (RuntimeException e) {
                status = 500;
                sendError(exchange, new ApiError(500, "internal error: " + e.getMessage(), "server_error", null,
                        null));
            }
        } finally {
            metrics.count(route, status);
        }
    }

    private int dispatch(HttpExchange exchange, String path) throws IOException, InterruptedException {
        String method = exchange.getRequestMethod();
        if (path.equals("/health")) {
            require(method, "GET");
            return sendJson(exchange, 200, json.createObjectNode().put("status", "ok"));
        }
        authorize(exchange);
        switch (path) {
            case "/v1/chat/completions", "/v1/completions" -> {
                require(method, "POST");
                byte[] body = readBody(exchange);
                return generation.handle(exchange, body, path.equals("/v1/chat/completions"));
            }
            case "/v1/models" -> {
                require(method, "GET");
                ObjectNode list = json.createObjectNode().put("object", "list");
                list.putArray("data").add(modelObject());
                return sendJson(exchange, 200, list);
            }
            case "/metrics" -> {
                require(method, "GET");
                byte[] text = metricsEndpoint.render().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                exchange.sendResponseHeaders(200, text.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(text);
                }
                return 200;
            }
            default -> {
                if (path.startsWith("/v1/models/")) {
                    require(method, "GET");
                    String id = path.substring("/v1/models/".length());
                    if (!id.equals(engine.modelName())) {
                        throw new ApiError(404, "The model '" + id + "' does not exist; this server serves '"
                                + engine.modelName() + "'", "invalid_request_error", "model", "model_not_found");
                    }
                    return sendJson(exchange, 200, modelObject());
                }
                throw new ApiError(404, "Unknown route " + exchange.getRequestMethod() + " " + path + "; this server "
                        + "has /v1/chat/completions, /v1/completions, /v1/models, /health and /metrics",
                        "invalid_request_error", null, "unknown_url");
            }
        }
    }

    private ObjectNode modelObject() {
        return json.createObjectNode().put("id", engine.modelName()).put("object", "model").put("created", 0)
                .put("owned_by", "parley");
    }

    private void authorize(HttpExchange exchange) {
        if (expectedAuthorization == null) {
            return;
        }
        String given = exchange.getRequestHeaders().getFirst("Authorization");
        byte[] bytes = given == null ? new byte[0] : given.strip().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(bytes, expectedAuthorization)) {
            throw new ApiError(401, given == null
                    ? "You didn't provide an API key: send it as 'Authorization: Bearer <key>'"
                    : "Incorrect API key provided", "invalid_request_error", null, "invalid_api_key");
        }
    }

    private static void require(String method, String expected) {
        if (!method.equals(expected)) {
            throw new ApiError(405, "expected " + expected + " on this route but found " + method,
                    "invalid_request_error", null, "method_not_allowed");
        }
    }

    /** The body, at most {@link ServeOptions#maxBodyBytes()}; bigger ones are drained (up to a limit) and refused. */
    private byte[] readBody(HttpExchange exchange) throws IOException {
        int limit = options.maxBodyBytes();
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        long declared = -1;
        if (length != null) {
            try {
                declared = Long.parseLong(length.strip());
            } catch (NumberFormatException e) {
                throw ApiError.invalid("expected a number in Content-Length but found '" + length + "'", null, null);
            }
        }
        InputStream in = exchange.getRequestBody();
        if (declared > limit) {
            throw tooLarge(exchange, in, declared, limit);
        }
        byte[] body = in.readNBytes(limit + 1);
        if (body.length > limit) {
            throw tooLarge(exchange, in, -1, limit);
        }
        return body;
    }

    private ApiError tooLarge(HttpExchange exchange, InputStream in, long declared, int limit) throws IOException {
        if (declared > DRAIN_LIMIT) {
            exchange.getResponseHeaders().set("Connection", "close");
        } else {
            in.skip(DRAIN_LIMIT);
        }
        return new ApiError(413, "The request body is larger than this server's limit of " + limit + " bytes"
                + (declared > 0 ? " (found " + declared + ")" : ""), "invalid_request_error", null,
                "request_too_large");
    }

    private void sendError(HttpExchange exchange, ApiError e) {
        if (exchange.getResponseCode() != -1) {
            return; // headers are out (a stream): nothing more can be said
        }
        try {
            sendJson(exchange, e.status(), ResponseShapes.error(json, e));
        } catch (IOException ignored) {
            // the client is gone
        }
    }

    private int sendJson(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = json.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
        return status;
    }

    private static String route(String path) {
        return switch (path) {
            case "/v1/chat/completions", "/v1/completions", "/v1/models", "/health", "/metrics" -> path;
            default -> path.startsWith("/v1/models/") ? "/v1/models/{id}" : "other";
        };
    }

    /** Stops listening, waits up to {@code seconds} for open exchanges, then stops the workers. */
    public void stop(int seconds) {
        server.stop(seconds);
        workers.shutdownNow();
    }

    @Override
    public void close() {
        stop(0);
    }
}
