package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * llama.cpp's own tokenizer test cases (../shared/fixtures/tokenizer): every input must give
 * exactly the expected ids (no BOS, parse_special off) and decode back to the input.
 */
class LlamaCppVocabFixturesTest {

    private static final String SEPARATOR = "\n__ggml_vocab_test__\n";
    private static final List<String> VOCABS = List.of("ggml-vocab-llama-spm.gguf", "ggml-vocab-phi-3.gguf",
            "ggml-vocab-gpt-2.gguf", "ggml-vocab-mpt.gguf");

    @TestFactory
    Stream<DynamicNode> everyFixtureCaseMatchesLlamaCpp() {
        return VOCABS.stream().map(name -> DynamicContainer.dynamicContainer(name, cases(name)));
    }

    private static Stream<DynamicNode> cases(String vocab) {
        Path gguf = SharedFixtures.require("tokenizer/" + vocab);
        Tokenizer tokenizer;
        List<String> inputs;
        List<int[]> expected;
        try (GgufFile file = GgufFile.open(gguf)) {
            tokenizer = Tokenizer.fromGguf(file);
            inputs = readInputs(Path.of(gguf + ".inp"));
            expected = readExpected(Path.of(gguf + ".out"));
        } catch (IOException e) {
            throw new AssertionError("cannot read fixture " + vocab, e);
        }
        List<DynamicNode> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("input and output counts agree",
                () -> assertEquals(inputs.size(), expected.size(), "inputs vs expected lines")));
        int n = Math.min(inputs.size(), expected.size());
        for (int i = 0; i < n; i++) {
            String input = inputs.get(i);
            int[] ids = expected.get(i);
            tests.add(DynamicTest.dynamicTest("#" + i + " " + printable(input), () -> {
                assertArrayEquals(ids, tokenizer.encode(input, false, false),
                        () -> "encode(" + printable(input) + ") got " + Arrays.toString(tokenizer.encode(input, false, false)));
                assertEquals(input, tokenizer.decode(ids), "decode of the expected ids");
            }));
        }
        return tests.stream();
    }

    static List<String> readInputs(Path inp) throws IOException {
        String all = Files.readString(inp, StandardCharsets.UTF_8);
        List<String> parts = new ArrayList<>(Arrays.asList(all.split(SEPARATOR, -1)));
        if (!parts.isEmpty() && parts.getLast().isEmpty()) {
            parts.removeLast();
        }
        return parts;
    }

    static List<int[]> readExpected(Path out) throws IOException {
        String all = Files.readString(out, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(Arrays.asList(all.split("\n", -1)));
        if (!lines.isEmpty() && lines.getLast().isEmpty()) {
            lines.removeLast();
        }
        List<int[]> result = new ArrayList<>();
        for (String line : lines) {
            String trimmed = line.strip();
            result.add(trimmed.isEmpty() ? new int[0]
                    : Arrays.stream(trimmed.split(" +")).mapToInt(Integer::parseInt).toArray());
        }
        return result;
    }

    private static String printable(String s) {
        String shown = s.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r");
        return "'" + (shown.length() > 40 ? shown.substring(0, 40) + "…" : shown) + "'";
    }
}
