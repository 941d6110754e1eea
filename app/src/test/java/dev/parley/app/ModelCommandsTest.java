package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.SharedFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** generate, tokenize, chat and bench on the parity model m1, against llama.cpp's goldens. */
class ModelCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path model;
    private static JsonNode shortCase;
    private static JsonNode emptyCase;

    @BeforeAll
    static void fixtures() throws IOException {
        model = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        JsonNode golden = JSON.readTree(SharedFixtures.require("parity/goldens/m1-llama-spm-q8_0.golden.json").toFile());
        for (JsonNode c : golden.get("cases")) {
            switch (c.get("name").asText()) {
                case "short" -> shortCase = c;
                case "empty" -> emptyCase = c;
                default -> { }
            }
        }
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asInt()));
        return out;
    }

    @Test
    void generateJsonGivesTheGoldenPromptAndGreedyIds() throws IOException {
        CliRun run = CliRun.of("generate", "--model", model.toString(), "--prompt", shortCase.get("text").asText(),
                "--max-tokens", "8", "--threads", "1", "--json");
        assertEquals(0, run.code(), run.toString());
        JsonNode result = JSON.readTree(run.out());
        assertEquals(ints(shortCase.get("prompt_ids")), ints(result.get("prompt_ids")));
        assertEquals(ints(shortCase.get("generated_ids")).subList(0, 8), ints(result.get("ids")));
        assertTrue(result.get("text").isTextual());
        assertEquals(1, run.out().strip().lines().count(), "one JSON object on one line");
        assertTrue(run.err().contains("tok/s"), run.toString());
    }

    @Test
    void generateStreamsTheSameTextAsTheJson() throws IOException {
        String[] args = {"generate", "--model", model.toString(), "--prompt", shortCase.get("text").asText(),
                "--max-tokens", "8", "--backend", "scalar"};
        CliRun streamed = CliRun.of(args);
        assertEquals(0, streamed.code(), streamed.toString());
        List<String> withJson = new ArrayList<>(List.of(args));
        withJson.add("--json");
        JsonNode json = JSON.readTree(CliRun.of(withJson.toArray(String[]::new)).out());
        assertEquals(json.get("text").asText() + System.lineSeparator(), streamed.out());
    }

    @Test
    void anEmptyPromptIsJustBosWhereTheModelAddsOneAndAClearErrorWhereItDoesNot() throws IOException {
        CliRun bos = CliRun.of("generate", "--model", model.toString(), "--prompt", "", "--max-tokens", "4",
                "--threads", "1", "--json");
        assertEquals(0, bos.code(), bos.toString());
        JsonNode result = JSON.readTree(bos.out());
        assertEquals(List.of(1), ints(result.get("prompt_ids")));
        assertEquals(ints(emptyCase.get("generated_ids")).subList(0, 4), ints(result.get("ids")));

        Path gpt2 = SharedFixtures.require("parity/m3-llama-gpt2-tied-q8_0.gguf");
        CliRun none = CliRun.of("generate", "--model", gpt2.toString(), "--prompt", "");
        assertEquals(2, none.code(), none.toString());
        assertEquals(List.of("parley: error: the prompt is empty and this model adds no BOS token: nothing to continue"),
                none.errLines());
    }

    @Test
    void chatSaysWhenTheConversationFillsTheContextAndResetRecovers() {
        CliRun run = CliRun.withInput("Hello there!\nAgain please, and more.\n/reset\nHi\n", "chat", "--model",
                model.toString(), "--context", "48", "--max-tokens", "16", "--temperature", "0", "--threads", "1");
        assertEquals(0, run.code(), run.toString());
        List<String> stops = run.errLines().stream().filter(l -> l.contains("| stop: ")).toList();
        assertEquals(3, stops.size(), run.toString());
        assertTrue(stops.get(1).endsWith("stop: context_full"), run.toString());
        assertTrue(run.err().contains("/reset starts over"), run.toString());
        assertTrue(stops.get(2).endsWith("stop: max_tokens"), run.toString());
    }

    @Test
    void tokenizeMatchesTheGoldenPromptIds() throws IOException {
        List<Integer> golden = ints(shortCase.get("prompt_ids"));
        CliRun plain = CliRun.withInput(shortCase.get("text").asText(), "tokenize", "--model", model.toString());
        assertEquals(0, plain.code(), plain.toString());
        assertEquals(golden.subList(1, golden.size()), ints(JSON.readTree(plain.out())));
        CliRun bos = CliRun.withInput(shortCase.get("text").asText(), "tokenize", "--model", model.toString(), "--bos");
        assertEquals(golden, ints(JSON.readTree(bos.out())));
        CliRun special = CliRun.withInput("<s>", "tokenize", "--model", model.toString(), "--special");
        assertEquals(List.of(1), ints(JSON.readTree(special.out())));
        CliRun literal = CliRun.withInput("<s>", "tokenize", "--model", model.toString());
        assertTrue(ints(JSON.readTree(literal.out())).size() > 1, literal.out());
    }

    @Test
    void chatAnswersTwiceAndReusesTheCache() {
        CliRun run = CliRun.withInput("Hello there!\nTell me more.\n", "chat", "--model", model.toString(),
                "--max-tokens", "6", "--temperature", "0", "--verbose", "--threads", "1");
        assertEquals(0, run.code(), run.toString());
        assertEquals(2, run.out().lines().filter(l -> !l.isBlank()).count(), run.toString());
        Pattern reuse = Pattern.compile("reused (\\d+) of (\\d+) prompt tokens");
        List<int[]> turns = new ArrayList<>();
        for (String line : run.errLines()) {
            Matcher m = reuse.matcher(line);
            if (m.find()) {
                turns.add(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))});
            }
        }
        assertEquals(2, turns.size(), run.toString());
        assertEquals(0, turns.get(0)[0], "nothing to reuse on the first turn");
        assertTrue(turns.get(1)[0] >= turns.get(0)[1],
                "the second turn reuses at least the whole first prompt: " + run.err());
        assertTrue(turns.get(1)[1] > turns.get(1)[0]);
        assertEquals(2, run.errLines().stream().filter(l -> l.contains("tok/s")).count(), run.toString());
    }
}
