package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client that goes away mid-stream: its request is cancelled and its sequence freed. */
class ServeDisconnectTest {
    private static final String LONG_REQUEST = """
            {"prompt": "The", "temperature": 0, "max_tokens": 1500, "stream": true}""";

    @Test
    void aClientThatDisconnectsMidStreamFreesItsSequence(@TempDir Path dir) throws Exception {
        try (ServedModel served = ServedModel.start(TestModels.slow(dir), 2048, null)) {
            // The greedy continuation of this prompt runs to its limit (no end-of-generation token on the way).
            ServedModel.Reply probe = served.post("/v1/completions",
                    "{\"prompt\": \"The\", \"temperature\": 0, \"max_tokens\": 64}");
            assertEquals("length", probe.json().at("/choices/0/finish_reason").asText(), probe.body());
            double cancelledBefore = served.metric("parley_batch_cancelled_total");
            double completedBefore = served.metric("parley_batch_completed_total");

            HttpResponse<InputStream> stream = served.client.send(served.request("/v1/completions")
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(LONG_REQUEST)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, stream.statusCode());
            BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
            int chunks = 0;
            for (String line = lines.readLine(); line != null && chunks < 3; line = lines.readLine()) {
                if (line.startsWith("data: ")) {
                    chunks++;
                }
            }
            assertEquals(3, chunks);
            assertEquals(1.0, served.metric("parley_batch_running_sequences"), "the stream is being generated");
            lines.close(); // the client goes away

            waitFor(served, "parley_batch_cancelled_total", cancelledBefore + 1);
            waitFor(served, "parley_batch_running_sequences", 0);
            assertEquals(completedBefore, served.metric("parley_batch_completed_total"),
                    "the request was cancelled, not run to its end");
            assertTrue(served.metric("parley_http_client_disconnects_total") >= 1);
            assertEquals(0.0, served.metric("parley_kv_blocks_used"), "the sequence's blocks went back to the pool");
            assertEquals(served.metric("parley_kv_blocks_total"),
                    served.metric("parley_kv_blocks_free") + served.metric("parley_kv_blocks_cached"));

            ServedModel.Reply after = served.post("/v1/completions",
                    "{\"prompt\": \"The\", \"temperature\": 0, \"max_tokens\": 64}");
            assertEquals(probe.json().at("/choices/0/text"), after.json().at("/choices/0/text"), "still serving");
        }
    }

    /** Polls /metrics until {@code sample} equals {@code expected} (the server notices at its next write). */
    static void waitFor(ServedModel served, String sample, double expected) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        double value = served.metric(sample);
        while (value != expected && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L); // a poll interval, not a timing assumption
            value = served.metric(sample);
        }
        assertEquals(expected, value, sample);
    }
}
