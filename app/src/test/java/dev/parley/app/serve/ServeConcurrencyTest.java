package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.app.TestModels;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Eight streaming clients at once share the batcher: all are served, in shared steps, each with its own text. */
class ServeConcurrencyTest {
    private static final int CLIENTS = 8;

    @Test
    void eightConcurrentStreamingClientsAreAllServedInterleaved(@TempDir Path dir) throws Exception {
        try (ServedModel served = ServedModel.start(TestModels.slow(dir), 512, "k")) {
            List<String> bodies = new ArrayList<>();
            List<String> alone = new ArrayList<>(); // what two of the requests give when run alone
            for (int i = 0; i < CLIENTS; i++) {
                String body = """
                        {"messages": [{"role": "user", "content": "Tell story number %d"}], "temperature": 0,
                         "max_tokens": 24, "stream": true}""".formatted(i);
                bodies.add(body);
                alone.add(i % 7 == 0 ? streamedText(served.post("/v1/chat/completions", body).body()) : null);
            }
            assertEquals(1.0, served.metric("parley_batch_max_sequences_in_step"), "one at a time so far");

            List<CompletableFuture<HttpResponse<String>>> replies = new ArrayList<>();
            for (String body : bodies) {
                HttpRequest request = served.request("/v1/chat/completions").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                replies.add(served.client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
            }
            for (int i = 0; i < CLIENTS; i++) {
                HttpResponse<String> r = replies.get(i).get(120, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode(), r.body());
                assertTrue(r.body().endsWith("data: [DONE]\n\n"), r.body());
                String text = streamedText(r.body());
                assertTrue(!text.isEmpty() && (alone.get(i) == null || alone.get(i).equals(text)),
                        "client " + i + " got " + text + ", alone " + alone.get(i));
            }
            double together = served.metric("parley_batch_max_sequences_in_step");
            assertTrue(together > 1, "expected steps holding several sequences but the most was " + together);
            assertTrue(served.metric("parley_batch_multi_sequence_steps_total") > 0);
            assertEquals(0.0, served.metric("parley_batch_running_sequences"));
            assertEquals(CLIENTS + 2.0, served.metric("parley_batch_completed_total"));
            assertEquals(CLIENTS + 2.0,
                    served.metric("parley_http_requests_total{route=\"/v1/chat/completions\",status=\"200\"}"));
        }
    }

    static String streamedText(String sse) throws Exception {
        StringBuilder text = new StringBuilder();
        ObjectMapper json = new ObjectMapper();
        for (String data : ServeApiTest.dataLines(sse)) {
            if (!data.equals("[DONE]")) {
                JsonNode chunk = json.readTree(data);
                text.append(chunk.at("/choices/0/delta/content").asText(""));
            }
        }
        return text.toString();
    }
}
