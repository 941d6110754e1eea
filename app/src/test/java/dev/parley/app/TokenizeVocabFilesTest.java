package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.SharedFixtures;
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
 * {@code parley tokenize --model F} on llama.cpp's vocabulary-only files (../shared/fixtures/tokenizer: no tensors,
 * architectures gpt2, llama, mpt and phi3): every case of the file's .inp gives the ids of its .out line
 * through the command itself.
 */
class TokenizeVocabFilesTest {
    private static final String SEPARATOR = "\n__ggml_vocab_test__\n";
    private static final List<String> VOCABS = List.of("ggml-vocab-llama-spm.gguf", "ggml-vocab-phi-3.gguf",
            "ggml-vocab-gpt-2.gguf", "ggml-vocab-mpt.gguf");

    @TestFactory
    Stream<DynamicNode> tokenizeGivesLlamaCppsIdsOnEveryVocabularyOnlyFile() {
        return VOCABS.stream().map(name -> DynamicContainer.dynamicContainer(name, cases(name)));
    }

    private static Stream<DynamicNode> cases(String vocab) {
        Path gguf = SharedFixtures.require("tokenizer/" + vocab);
        List<String> inputs;
        List<String> expected;
        try {
            inputs = inputs(Path.of(gguf + ".inp"));
            expected = lines(Path.of(gguf + ".out"));
        } catch (IOException e) {
            throw new AssertionError("cannot read fixture " + vocab, e);
        }
        List<DynamicNode> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("as many inputs as expected lines",
                () -> assertEquals(expected.size(), inputs.size(), "inputs vs expected lines of " + vocab)));
        for (int i = 0; i < Math.min(inputs.size(), expected.size()); i++) {
            String input = inputs.get(i);
            int[] ids = Arrays.stream(expected.get(i).trim().split(" ")).filter(s -> !s.isEmpty())
                    .mapToInt(Integer::parseInt).toArray();
            tests.add(DynamicTest.dynamicTest("#" + i, () -> {
                CliRun run = CliRun.withInput(input, "tokenize", "--model", gguf.toString());
                assertEquals(0, run.code(), run.toString());
                assertEquals(new ObjectMapper().writeValueAsString(ids), run.out().strip(),
                        () -> "tokenize of " + input.replace("\n", "\\n") + " with " + vocab);
            }));
        }
        return tests.stream();
    }

    private static List<String> inputs(Path inp) throws IOException {
        List<String> parts = new ArrayList<>(Arrays.asList(Files.readString(inp, StandardCharsets.UTF_8)
                .split(SEPARATOR, -1)));
        if (!parts.isEmpty() && parts.getLast().isEmpty()) {
            parts.removeLast();
        }
        return parts;
    }

    private static List<String> lines(Path out) throws IOException {
        List<String> lines = new ArrayList<>(Arrays.asList(Files.readString(out, StandardCharsets.UTF_8).split("\n", -1)));
        if (!lines.isEmpty() && lines.getLast().isEmpty()) {
            lines.removeLast();
        }
        return lines;
    }
}
