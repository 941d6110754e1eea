package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code models synth} writes a tiny random model that {@code bench decode} and {@code generate} then run. */
class SynthAndBenchTest {

    @Test
    void synthATinyModelThenBenchAndGenerateOnIt(@TempDir Path dir) throws IOException {
        Path model = dir.resolve("tiny.gguf");
        CliRun synth = CliRun.of("models", "synth", "--shape", "tiny", "--type", "q8_0", "--seed", "7",
                "--out", model.toString());
        assertEquals(0, synth.code(), synth.toString());
        assertTrue(Files.size(model) > 0);
        assertTrue(synth.out().startsWith("wrote "), synth.toString());

        CliRun bench = CliRun.of("bench", "decode", "--model", model.toString(), "--threads", "1",
                "--prompt-tokens", "16", "--new-tokens", "8", "--runs", "3");
        assertEquals(0, bench.code(), bench.toString());
        List<String> lines = bench.out().lines().toList();
        assertEquals(2, lines.size(), bench.toString());
        assertTrue(lines.get(0).matches("prompt: \\d+\\.\\d tok/s"), lines.get(0));
        assertTrue(lines.get(1).matches("decode: \\d+\\.\\d tok/s"), lines.get(1));
        assertTrue(bench.err().contains("run 3"), bench.toString());

        String[] generate = {"generate", "--model", model.toString(), "--prompt", "Hello", "--max-tokens", "6",
                "--temperature", "0.9", "--seed", "5", "--json"};
        JsonNode first = new ObjectMapper().readTree(CliRun.of(generate).out());
        JsonNode second = new ObjectMapper().readTree(CliRun.of(generate).out());
        assertEquals(first, second, "a fixed seed gives the same sample");
        assertEquals(6, first.get("ids").size());
    }

    @Test
    void badSynthArgumentsAreOneLine(@TempDir Path dir) {
        CliRun shape = CliRun.of("models", "synth", "--shape", "gpt-17", "--out", dir.resolve("x.gguf").toString());
        assertEquals(2, shape.code());
        assertEquals(1, shape.errLines().size(), shape.toString());
        assertTrue(shape.errLines().getFirst().contains("smollm2-135m"), shape.toString());
        CliRun type = CliRun.of("models", "synth", "--shape", "tiny", "--type", "q3_k", "--out",
                dir.resolve("x.gguf").toString());
        assertEquals(List.of("parley: error: expected a type of f32, f16, bf16, q4_0, q8_0, q4_k, q5_k, q6_k, q4_k_m, "
                        + "q5_k_m but found 'q3_k'"), type.errLines());
        assertTrue(!Files.exists(dir.resolve("x.gguf")));
    }
}
