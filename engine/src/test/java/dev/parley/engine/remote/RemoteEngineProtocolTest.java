package dev.parley.engine.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link RemoteEngine} against the response shapes other OpenAI-compatible servers write (replayed by a
 * JDK HTTP server): the request it sends, usage-less streams, CRLF lines, errors as strings (Ollama),
 * errors inside the stream (llama.cpp's server), plain-text error bodies.
 */
class RemoteEngineProtocolTest {
    private static final ChatRequest REQUEST = new ChatRequest("c", List.of(ChatMessage.system("Be brief."),
            ChatMessage.user("Hi")), new SamplingSettings(0.7f, 40, 0.9f, 0.05f, 1f, 0, 42), 8, List.of("END"));

    /** A server answering every request with {@code status} and {@code body}, remembering the last request. */
    private record Replay(HttpServer server, AtomicReference<String> lastBody, AtomicReference<String> lastAuth)
            implements AutoCloseable {
        static Replay of(int status, String contentType, String body) throws Exception {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            AtomicReference<String> lastBody = new AtomicReference<>();
            AtomicReference<String> lastAuth = new AtomicReference<>();
            server.createContext("/", exchange -> {
                lastBody.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                lastAuth.set(exchange.getRequestHeaders().getFirst("Authorization"));
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", contentType);
                exchange.sendResponseHeaders(status, bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            });
            server.start();
            return new Replay(server, lastBody, lastAuth);
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    void sendsTheStandardFieldsAndReadsAStreamWithoutUsage() throws Exception {
        String stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\r\n\r\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\r\n\r\n"
                + ": ping\r\n\r\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}]}\r\n\r\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\r\n\r\n"
                + "data: [DONE]\r\n\r\n";
        try (Replay server = Replay.of(200, "text/event-stream", stream);
             RemoteEngine engine = new RemoteEngine(server.url(), "k1", "m1")) {
            List<TokenEvent> events = new CopyOnWriteArrayList<>();
            EngineResult r = engine.chat(REQUEST, events::add).result().get(30, TimeUnit.SECONDS);
            assertEquals("Hello", r.text());
            assertEquals(StopReason.MAX_TOKENS, r.reason());
            assertEquals(2, r.completionTokens(), "without usage, the text pieces are counted");
            assertEquals(List.of(new TokenEvent.Text("Hel"), new TokenEvent.Text("lo")), events.subList(0, 2));
            assertInstanceOf(TokenEvent.Done.class, events.getLast());

            JsonNode sent = new ObjectMapper().readTree(server.lastBody().get());
            assertEquals("m1", sent.path("model").asText());
            assertEquals("system", sent.at("/messages/0/role").asText());
            assertEquals("Hi", sent.at("/messages/1/content").asText());
            assertEquals(0.7, sent.path("temperature").asDouble(), 1e-6);
            assertEquals(0.9, sent.path("top_p").asDouble(), 1e-6);
            assertEquals(42, sent.path("seed").asLong());
            assertEquals(8, sent.path("max_tokens").asInt());
            assertEquals("[\"END\"]", sent.path("stop").toString());
            assertTrue(sent.path("stream").asBoolean() && sent.at("/stream_options/include_usage").asBoolean());
            assertEquals("Bearer k1", server.lastAuth().get());
        }
    }

    @Test
    void errorsInEveryShapeBecomeRemoteEngineExceptions() throws Exception {
        try (Replay ollama = Replay.of(404, "application/json", "{\"error\":\"model 'm1' not found\"}");
             RemoteEngine engine = new RemoteEngine(ollama.url(), null, "m1")) {
            RemoteEngineException e = failure(engine);
            assertEquals(404, e.status());
            assertTrue(e.getMessage().contains("model 'm1' not found"), e.getMessage());
        }
        String midStream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"
                + "data: {\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\",\"code\":500}}\n\n";
        try (Replay llama = Replay.of(200, "text/event-stream", midStream);
             RemoteEngine engine = new RemoteEngine(llama.url(), null, "m1")) {
            RemoteEngineException e = failure(engine);
            assertEquals("server_error", e.type());
            assertTrue(e.getMessage().contains("out of memory"), e.getMessage());
        }
        try (Replay proxy = Replay.of(502, "text/plain", "Bad Gateway");
             RemoteEngine engine = new RemoteEngine(proxy.url(), null, "m1")) {
            RemoteEngineException e = failure(engine);
            assertEquals(502, e.status());
            assertTrue(e.getMessage().contains("Bad Gateway"), e.getMessage());
        }
        try (Replay cut = Replay.of(200, "text/event-stream",
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n");
             RemoteEngine engine = new RemoteEngine(cut.url(), null, "m1")) {
            assertTrue(failure(engine).getMessage().contains("ended without"), "a stream cut short is an error");
        }
        try (Replay garbage = Replay.of(200, "text/event-stream", "data: {not json\n\n");
             RemoteEngine engine = new RemoteEngine(garbage.url(), null, "m1")) {
            assertTrue(failure(engine).getMessage().contains("expected a JSON chunk"));
        }
    }

    private static RemoteEngineException failure(RemoteEngine engine) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> engine.chat(REQUEST, event -> { }).result().get(30, TimeUnit.SECONDS));
        return assertInstanceOf(RemoteEngineException.class, e.getCause());
    }
}
