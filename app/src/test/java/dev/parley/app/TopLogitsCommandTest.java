package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.SharedFixtures;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code generate --json --top-logits K}: each generated step's K highest raw logits, checked against llama.cpp's
 * top-5 of the parity goldens (a Q8_0 model and a K-quant one), ids and logits.
 */
class TopLogitsCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"m1-llama-spm-q8_0, vector", "m7-llama-bpe-tied-q6_k, vector", "m7-llama-bpe-tied-q6_k, scalar"})
    void topLogitsAreLlamaCppsTop5(String name, String backend) throws IOException {
        Path model = SharedFixtures.require("parity/" + name + ".gguf");
        JsonNode golden = JSON.readTree(SharedFixtures.require("parity/goldens/" + name + ".golden.json").toFile());
        JsonNode shortCase = golden.get("cases").get(0);
        int n = 6;
        CliRun run = CliRun.of("generate", "--model", model.toString(), "--prompt", shortCase.get("text").asText(),
                "--max-tokens", String.valueOf(n), "--threads", "1", "--backend", backend, "--json", "--top-logits", "5");
        assertEquals(0, run.code(), run.toString());
        JsonNode result = JSON.readTree(run.out());
        JsonNode top = result.get("top_logits");
        assertEquals(n, top.size(), "one entry per generated id");
        for (int k = 0; k < n; k++) {
            JsonNode ours = top.get(k);
            JsonNode theirs = shortCase.get("steps").get(k).get("top5");
            assertEquals(5, ours.size());
            assertEquals(result.get("ids").get(k).asInt(), ours.get(0).get(0).asInt(), "step " + k + " top-1 is the id");
            assertEquals(theirs.get(0).get(0).asInt(), ours.get(0).get(0).asInt(), "step " + k + " top-1");
            for (int j = 1; j < 5; j++) {
                assertTrue(ours.get(j - 1).get(1).asDouble() >= ours.get(j).get(1).asDouble(), "descending at step " + k);
            }
            for (JsonNode pair : theirs) {
                int id = pair.get(0).asInt();
                double logit = pair.get(1).asDouble();
                JsonNode match = null;
                for (JsonNode p : ours) {
                    if (p.get(0).asInt() == id) {
                        match = p;
                    }
                }
                // Ranks 2-5 may swap where logits nearly tie: a missing id must then be near the fifth logit.
                if (match == null) {
                    assertTrue(logit <= ours.get(4).get(1).asDouble() + 0.3,
                            "step " + k + ": llama.cpp's " + id + " (" + logit + ") is missing from " + ours);
                } else {
                    assertEquals(logit, match.get(1).asDouble(), 0.3, "step " + k + " logit of " + id);
                }
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"-1", "3"})
    void badUsesAreUsageErrors(String k) throws IOException {
        Path model = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        CliRun run = k.equals("3")
                ? CliRun.of("generate", "--model", model.toString(), "--prompt", "Hi", "--top-logits", k)
                : CliRun.of("generate", "--model", model.toString(), "--prompt", "Hi", "--json", "--top-logits", k);
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("--top-logits"), run.toString());
    }
}
