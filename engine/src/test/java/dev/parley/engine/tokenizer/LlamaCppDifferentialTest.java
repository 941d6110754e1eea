package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Random texts against the ids llama.cpp itself produced (test resource
 * llamacpp/llamacpp-tokenize-corpus.json.gz, see its README): the four vocab fixtures with and
 * without special-token parsing, and the GPT-2 merges under nine other pre-tokenizers. Without
 * special-token parsing, decoding the ids must also give back the text.
 */
class LlamaCppDifferentialTest {

    @TestFactory
    Stream<DynamicTest> randomTextsTokenizeLikeLlamaCpp() throws IOException {
        JsonNode corpus;
        try (InputStream in = LlamaCppDifferentialTest.class.getResourceAsStream("llamacpp/llamacpp-tokenize-corpus.json.gz")) {
            if (in == null) {
                throw new IOException("missing test resource llamacpp/llamacpp-tokenize-corpus.json.gz");
            }
            corpus = new ObjectMapper().readTree(new GZIPInputStream(in));
        }
        List<String> inputs = new ArrayList<>();
        corpus.get("inputs").forEach(n -> inputs.add(n.asText()));
        List<DynamicTest> tests = new ArrayList<>();
        Map<String, Map<String, Object>> metadataByVocab = new HashMap<>();
        for (JsonNode c : corpus.get("cases")) {
            String vocab = c.get("vocab").asText();
            String pre = c.get("pre").isNull() ? null : c.get("pre").asText();
            boolean parseSpecial = c.get("parseSpecial").asBoolean();
            String name = vocab + (pre != null ? " as pre=" + pre : "") + (parseSpecial ? " parseSpecial" : "");
            tests.add(DynamicTest.dynamicTest(name, () -> {
                Tokenizer t = load(metadataByVocab.computeIfAbsent(vocab, LlamaCppDifferentialTest::metadata), vocab, pre);
                JsonNode expected = c.get("ids");
                assertEquals(inputs.size(), expected.size(), "one id list per input");
                for (int i = 0; i < inputs.size(); i++) {
                    String text = expected.get(i).asText().strip();
                    int[] ids = text.isEmpty() ? new int[0] : Arrays.stream(text.split(" ")).mapToInt(Integer::parseInt).toArray();
                    int index = i;
                    assertArrayEquals(ids, t.encode(inputs.get(i), false, parseSpecial), () -> "input #" + index + ": " + inputs.get(index));
                    if (!parseSpecial) {
                        assertEquals(inputs.get(i), t.decode(ids), () -> "decoding input #" + index);
                    }
                }
            }));
        }
        return tests.stream();
    }

    /** The metadata values of a vocab fixture, read once and shared by the cases that use it. */
    private static Map<String, Object> metadata(String vocab) {
        try (GgufFile gguf = GgufFile.open(SharedFixtures.require("tokenizer/" + vocab))) {
            Map<String, Object> values = new HashMap<>();
            gguf.metadata().forEach((key, value) -> values.put(key, value.value()));
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Tokenizer load(Map<String, Object> metadata, String vocab, String pre) throws IOException {
        return Tokenizers.fromMetadata(key -> pre != null && key.equals(VocabularyLoader.PRE) ? pre : metadata.get(key), vocab);
    }
}
