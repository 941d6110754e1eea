package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.app.TestModels;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley serve}'s HTTP API on a real synthesized model: shapes, streaming, keys and bad input. */
class ServeApiTest {
    static final String KEY = "sekret-key";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path modelFile;
    static ServedModel served;

    @BeforeAll
    static void start() throws IOException {
        modelFile = TestModels.tiny(dir);
        served = ServedModel.start(modelFile, 128, KEY);
    }

    @AfterAll
    static void stop() {
        if (served != null) {
            served.close();
        }
    }

    @Test
    void healthAndModels() throws Exception {
        ServedModel.Reply health = served.send(HttpRequest.newBuilder(served.uri("/health")).GET().build());
        assertEquals(200, health.status(), health.body());
        assertEquals("ok", health.json().path("status").asText());

        JsonNode models = served.get("/v1/models").json();
        assertEquals("list", models.path("object").asText());
        assertEquals(List.of("tiny"), ids(models));
        assertEquals("tiny", served.get("/v1/models/tiny").json().path("id").asText());
        assertEquals(404, served.get("/v1/models/other").status());
    }

    @Test
    void streamedAndWholeChatCompletionsAgreeAndCountUsage() throws Exception {
        String body = """
                {"model": "tiny", "messages": [{"role": "system", "content": "Be brief."},
                 {"role": "user", "content": "Hello there"}], "temperature": 0, "max_tokens": 12%s}""";
        ServedModel.Reply whole = served.post("/v1/chat/completions", body.formatted(""));
        assertEquals(200, whole.status(), whole.body());
        JsonNode w = whole.json();
        assertEquals("chat.completion", w.path("object").asText());
        assertEquals("assistant", w.at("/choices/0/message/role").asText());
        String text = w.at("/choices/0/message/content").asText();
        int completion = w.at("/usage/completion_tokens").asInt();
        int prompt = w.at("/usage/prompt_tokens").asInt();
        assertTrue(completion >= 1 && completion <= 12, w.toString());
        assertEquals(served.engine.chatPrompt(List.of(
                dev.parley.engine.tokenizer.ChatMessage.system("Be brief."),
                dev.parley.engine.tokenizer.ChatMessage.user("Hello there"))).length, prompt);
        assertEquals(prompt + completion, w.at("/usage/total_tokens").asInt());

        ServedModel.Reply streamed = served.post("/v1/chat/completions",
                body.formatted(", \"stream\": true, \"stream_options\": {\"include_usage\": true}"));
        assertEquals(200, streamed.status(), streamed.body());
        List<String> events = dataLines(streamed.body());
        assertEquals("[DONE]", events.getLast());
        List<JsonNode> chunks = new ArrayList<>();
        for (String e : events.subList(0, events.size() - 1)) {
            chunks.add(JSON.readTree(e));
        }
        assertEquals("assistant", chunks.getFirst().at("/choices/0/delta/role").asText());
        StringBuilder joined = new StringBuilder();
        for (JsonNode c : chunks) {
            assertEquals("chat.completion.chunk", c.path("object").asText());
            joined.append(c.at("/choices/0/delta/content").asText(""));
        }
        assertEquals(text, joined.toString());
        JsonNode usage = chunks.getLast();
        assertEquals(0, usage.path("choices").size(), usage.toString());
        assertEquals(completion, usage.at("/usage/completion_tokens").asInt());
        assertEquals(prompt, usage.at("/usage/prompt_tokens").asInt());
        JsonNode last = chunks.get(chunks.size() - 2);
        assertEquals(w.at("/choices/0/finish_reason").asText(), last.at("/choices/0/finish_reason").asText());
    }

    @Test
    void maxCompletionTokensLimitsTheReply() throws Exception {
        JsonNode r = served.post("/v1/completions", """
                {"prompt": "Once upon a time", "temperature": 0, "max_completion_tokens": 3, "stop": ["zzzz"]}""")
                .json();
        assertEquals("text_completion", r.path("object").asText());
        assertEquals(3, r.at("/usage/completion_tokens").asInt(), r.toString());
        assertEquals("length", r.at("/choices/0/finish_reason").asText());
    }

    @Test
    void aWrongOrMissingKeyIs401() throws Exception {
        HttpRequest none = HttpRequest.newBuilder(served.uri("/v1/models")).GET().build();
        assertError(served.send(none), 401, "invalid_api_key");
        HttpRequest wrong = HttpRequest.newBuilder(served.uri("/v1/chat/completions"))
                .header("Authorization", "Bearer not-" + KEY)
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        assertError(served.send(wrong), 401, "invalid_api_key");
        HttpRequest metrics = HttpRequest.newBuilder(served.uri("/metrics")).GET().build();
        assertEquals(401, served.send(metrics).status());
        assertStillServes();
    }

    @Test
    void aTenMegabyteBodyIs413() throws Exception {
        String big = "{\"prompt\": \"" + "a".repeat(10 << 20) + "\"}";
        assertError(served.post("/v1/completions", big), 413, "request_too_large");
        assertStillServes();
    }

    @Test
    void invalidJsonIs400() throws Exception {
        assertError(served.post("/v1/chat/completions", "{\"messages\": [ {\"role\": "), 400, "invalid_json");
        assertError(served.post("/v1/chat/completions", "[1, 2]"), 400, "invalid_json");
        ServedModel.Reply noMessages = served.post("/v1/chat/completions", "{\"model\": \"tiny\"}");
        assertError(noMessages, 400, null);
        assertEquals("messages", noMessages.json().at("/error/param").asText());
        assertStillServes();
    }

    @Test
    void anUnknownModelIs404() throws Exception {
        ServedModel.Reply r = served.post("/v1/chat/completions", """
                {"model": "gpt-17", "messages": [{"role": "user", "content": "Hi"}]}""");
        assertError(r, 404, "model_not_found");
        assertTrue(r.json().at("/error/message").asText().contains("gpt-17"), r.body());
        assertStillServes();
    }

    @Test
    void negativeMaxTokensIs400() throws Exception {
        ServedModel.Reply r = served.post("/v1/chat/completions", """
                {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": -5}""");
        assertError(r, 400, "invalid_value");
        assertEquals("max_tokens", r.json().at("/error/param").asText());
        assertStillServes();
    }

    @Test
    void aPromptLongerThanTheContextIs400() throws Exception {
        String words = "hello ".repeat(400);
        ServedModel.Reply r = served.post("/v1/completions", "{\"prompt\": \"" + words + "\", \"max_tokens\": 4}");
        assertError(r, 400, "context_length_exceeded");
        assertTrue(r.json().at("/error/message").asText().contains("128"), r.body());
        assertStillServes();
    }

    @Test
    void unknownRoutesAndWrongMethodsAreErrorsToo() throws Exception {
        assertError(served.get("/v2/nothing"), 404, "unknown_url");
        assertError(served.get("/v1/chat/completions"), 405, "method_not_allowed");
    }

    @Test
    void metricsAreInPrometheusTextFormat() throws Exception {
        assertStillServes();
        ServedModel.Reply m = served.get("/metrics");
        assertEquals(200, m.status());
        for (String line : m.body().split("\n")) {
            assertTrue(line.startsWith("# HELP ") || line.startsWith("# TYPE ")
                    || line.matches("[a-z_]+(\\{[a-z_]+=\"[^\"]*\"(,[a-z_]+=\"[^\"]*\")*})? -?[0-9.eE+-]+|NaN"), line);
        }
        assertTrue(served.metric("parley_http_requests_total{route=\"/v1/completions\",status=\"200\"}") >= 1,
                m.body());
    }

    /** A valid request after a refused one still gets its answer. */
    private static void assertStillServes() throws Exception {
        ServedModel.Reply ok = served.post("/v1/completions",
                "{\"model\": \"tiny\", \"prompt\": \"Hi\", \"temperature\": 0, \"max_tokens\": 2}");
        assertEquals(200, ok.status(), ok.body());
        assertFalse(ok.json().at("/choices/0/finish_reason").asText().isEmpty());
    }

    static void assertError(ServedModel.Reply r, int status, String code) throws IOException {
        assertEquals(status, r.status(), r.body());
        JsonNode error = r.json().path("error");
        assertTrue(error.isObject(), r.body());
        for (String field : List.of("message", "type", "param", "code")) {
            assertTrue(error.has(field), "no " + field + " in " + r.body());
        }
        assertFalse(error.path("message").asText().isBlank(), r.body());
        if (code != null) {
            assertEquals(code, error.path("code").asText(), r.body());
        }
    }

    static List<String> dataLines(String sse) {
        List<String> out = new ArrayList<>();
        for (String event : sse.split("\n\n")) {
            if (event.startsWith("data: ")) {
                out.add(event.substring("data: ".length()));
            }
        }
        return out;
    }

    private static List<String> ids(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("data").forEach(m -> out.add(m.path("id").asText()));
        return out;
    }
}
