package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The prompts of the parity goldens (../shared/fixtures/parity/goldens) tokenize to exactly the ids
 * llama.cpp fed: {@code prompt_ids} with BOS per the vocabulary, turn-2 text without BOS.
 */
class ParityGoldenTokenizationTest {

    private static final List<String> MODELS = List.of("m1-llama-spm-q8_0", "m2-llama-spm-f16", "m2-llama-spm-f32",
            "m3-llama-gpt2-tied-q8_0", "m6-qwen3-qwen2-q4_k_m", "m7-llama-bpe-tied-q6_k", "m8-gemma3-spm-swa-q5_k");

    @TestFactory
    Stream<DynamicNode> promptIdsMatchGoldens() {
        return MODELS.stream().map(model -> DynamicContainer.dynamicContainer(model, cases(model)));
    }

    private static Stream<DynamicNode> cases(String model) {
        Path gguf = SharedFixtures.require("parity/" + model + ".gguf");
        Path golden = SharedFixtures.require("parity/goldens/" + model + ".golden.json");
        Tokenizer tokenizer;
        JsonNode root;
        try (GgufFile file = GgufFile.open(gguf)) {
            tokenizer = Tokenizer.fromGguf(file);
            root = new ObjectMapper().readTree(golden.toFile());
        } catch (IOException e) {
            throw new AssertionError("cannot read " + model, e);
        }
        List<DynamicNode> tests = new ArrayList<>();
        JsonNode tok = root.get("tokenizer");
        tests.add(DynamicTest.dynamicTest("vocabulary flags", () -> {
            Vocabulary v = tokenizer.vocabulary();
            assertEquals(tok.get("add_bos").asBoolean(), v.addBos(), "add_bos");
            assertEquals(tok.get("add_eos").asBoolean(), v.addEos(), "add_eos");
            assertEquals(tok.get("bos_id").asInt(), v.bos(), "bos");
            assertEquals(tok.get("eos_id").asInt(), v.eos(), "eos");
            assertEquals(tok.get("n_vocab").asInt(), v.size(), "n_vocab");
        }));
        for (JsonNode c : root.get("cases")) {
            String text = c.get("text").asText();
            int[] expected = ids(c.get("prompt_ids"));
            boolean tokenized = c.get("prompt_source").asText().startsWith("llama_tokenize(");
            tests.add(DynamicTest.dynamicTest("case " + c.get("name").asText(), () -> {
                if (tokenized) {
                    assertArrayEquals(expected, tokenizer.encode(text, true, false));
                } else {
                    // the vocabulary adds no BOS: llama.cpp could not evaluate "", the golden fed [bos]
                    assertArrayEquals(new int[0], tokenizer.encode(text, true, false));
                    assertArrayEquals(new int[] {tokenizer.vocabulary().bos()}, expected);
                }
            }));
        }
        JsonNode turn2 = root.get("batch").get("turn2");
        tests.add(DynamicTest.dynamicTest("batch turn 2 (no BOS)", () ->
                assertArrayEquals(ids(turn2.get("prompt2_ids")), tokenizer.encode(turn2.get("text2").asText(), false, false))));
        return tests.stream();
    }

    private static int[] ids(JsonNode array) {
        int[] ids = new int[array.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = array.get(i).asInt();
        }
        return ids;
    }
}
