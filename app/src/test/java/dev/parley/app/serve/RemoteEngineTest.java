package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.remote.RemoteEngine;
import dev.parley.engine.remote.RemoteEngineException;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RemoteEngine} pointed at a real {@code parley serve} on localhost, against the local engine behind it. */
class RemoteEngineTest {
    private static final String KEY = "remote-key";
    private static final List<ChatMessage> CHAT = List.of(ChatMessage.system("Be brief."),
            ChatMessage.user("Tell me a story"));

    @TempDir
    static Path dir;
    static ServedModel served;

    @BeforeAll
    static void start() throws Exception {
        served = ServedModel.start(TestModels.tiny(dir), 512, KEY);
    }

    @AfterAll
    static void stop() {
        if (served != null) {
            served.close();
        }
    }

    @Test
    void theRemoteEngineGivesTheLocalEnginesTextAndTokenCount() throws Exception {
        ChatRequest request = new ChatRequest("c1", CHAT, SamplingSettings.greedy(), 20, List.of());
        List<TokenEvent> localEvents = new CopyOnWriteArrayList<>();
        EngineResult local = served.engine.chat(request, localEvents::add).result().get(60, TimeUnit.SECONDS);

        List<TokenEvent> remoteEvents = new CopyOnWriteArrayList<>();
        try (RemoteEngine remote = new RemoteEngine(served.baseUrl(), KEY, null)) {
            assertEquals(List.of("tiny"), remote.listModels());
            EngineResult r = remote.chat(request, remoteEvents::add).result().get(60, TimeUnit.SECONDS);

            assertTrue(local.completionTokens() > 0, local.toString());
            assertEquals(local.text(), r.text());
            assertEquals(local.completionTokens(), r.completionTokens());
            assertEquals(local.promptTokens(), r.promptTokens());
            assertEquals(local.reason() == StopReason.MAX_TOKENS ? StopReason.MAX_TOKENS : StopReason.EOS, r.reason());
            assertEquals("tiny", remote.modelName());
        }
        assertEquals(local.text(), joined(localEvents));
        assertEquals(local.text(), joined(remoteEvents));
        TokenEvent.Done done = assertInstanceOf(TokenEvent.Done.class, remoteEvents.getLast());
        assertEquals(local.completionTokens(), done.stats().generatedTokens());
        assertTrue(remoteEvents.stream().noneMatch(e -> e instanceof TokenEvent.Token), "remote engines know no ids");
    }

    @Test
    void remoteTimingsAreMeasuredLikeLocalOnes() throws Exception {
        ChatRequest request = new ChatRequest(CHAT, SamplingSettings.greedy(), 12);
        try (RemoteEngine remote = new RemoteEngine("http://127.0.0.1:" + served.server.port(), KEY, "tiny")) {
            assertEquals(served.baseUrl(), remote.baseUrl().toString());
            EngineResult r = remote.chat(request, e -> { }).result().get(60, TimeUnit.SECONDS);
            assertTrue(r.timeToFirstTokenNanos() > 0 && r.totalNanos() >= r.timeToFirstTokenNanos(), r.toString());
            if (r.completionTokens() >= 2 && r.totalNanos() > r.timeToFirstTokenNanos()) {
                assertTrue(r.tokensPerSecond() > 0, r.toString());
            }
        }
    }

    @Test
    void serverErrorsArriveWithTheirStatusAndCode() {
        ChatRequest request = new ChatRequest(CHAT, SamplingSettings.greedy(), 4);
        try (RemoteEngine wrongKey = new RemoteEngine(served.baseUrl(), "nope", "tiny");
             RemoteEngine wrongModel = new RemoteEngine(served.baseUrl(), KEY, "gpt-17")) {
            RemoteEngineException e401 = failure(wrongKey, request);
            assertEquals(401, e401.status());
            assertEquals("invalid_api_key", e401.code());
            RemoteEngineException e404 = failure(wrongModel, request);
            assertEquals(404, e404.status());
            assertEquals("model_not_found", e404.code());
            assertTrue(e404.getMessage().contains("gpt-17"), e404.getMessage());
            assertThrows(RemoteEngineException.class, wrongKey::listModels);
        }
    }

    @Test
    void anUnreachableServerIsAClearFailure() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (RemoteEngine remote = new RemoteEngine("http://127.0.0.1:" + port + "/v1", null, "x")) {
            RemoteEngineException e = failure(remote, new ChatRequest(CHAT, SamplingSettings.greedy(), 4));
            assertEquals(-1, e.status());
            assertTrue(e.getMessage().contains("could not reach"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new RemoteEngine("ftp://host/v1", null, null));
    }

    private static RemoteEngineException failure(RemoteEngine engine, ChatRequest request) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> engine.chat(request, event -> { }).result().get(60, TimeUnit.SECONDS));
        return assertInstanceOf(RemoteEngineException.class, e.getCause());
    }

    static String joined(List<TokenEvent> events) {
        StringBuilder s = new StringBuilder();
        for (TokenEvent e : events) {
            switch (e) {
                case TokenEvent.Token t -> s.append(t.text());
                case TokenEvent.Text t -> s.append(t.text());
                case TokenEvent.Done d -> { }
            }
        }
        return s.toString();
    }
}
