package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code models synth --type q4_k_m} and {@code models quantize}: both make K-quant files that {@code generate} runs
 * on both backends with the same greedy ids, and the quantizer reports its progress and refuses bad input in one
 * line.
 */
class QuantizeCommandTest {
    private static final String SHAPE = "tiny:dim=256,heads=4,kv=2,ffn=512,layers=4";

    @Test
    void synthAndQuantizeMakeKQuantFilesThatGenerate(@TempDir Path dir) throws IOException {
        Path mix = dir.resolve("mix.gguf");
        CliRun synth = CliRun.of("models", "synth", "--shape", SHAPE, "--type", "q4_k_m", "--out", mix.toString());
        assertEquals(0, synth.code(), synth.toString());
        Path f32 = dir.resolve("f32.gguf");
        assertEquals(0, CliRun.of("models", "synth", "--shape", SHAPE, "--type", "f32", "--out", f32.toString()).code());
        Path q = dir.resolve("q5km.gguf");
        CliRun quantize = CliRun.of("models", "quantize", f32.toString(), q.toString(), "--type", "q5_k_m", "--threads", "2");
        assertEquals(0, quantize.code(), quantize.toString());
        assertTrue(quantize.out().startsWith("wrote " + q) && quantize.out().contains("Q5_K_M")
                && quantize.out().contains("Q6_K x"), quantize.toString());
        assertTrue(quantize.err().contains("quantizing q5km.gguf: 100%"), quantize.toString());
        try (GgufFile a = GgufFile.open(mix); GgufFile b = GgufFile.open(q)) {
            assertEquals(GgmlType.Q4_K, a.tensor("blk.0.attn_q.weight").type());
            assertEquals(GgmlType.Q6_K, a.tensor("blk.3.ffn_down.weight").type());
            assertEquals(GgmlType.Q5_K, b.tensor("blk.1.ffn_up.weight").type());
            assertEquals(GgmlType.Q6_K, b.tensor("output.weight").type());
        }
        for (Path model : new Path[] {mix, q}) {
            JsonNode scalar = generate(model, "scalar");
            JsonNode vector = generate(model, "vector");
            assertEquals(8, scalar.get("ids").size(), scalar.toString());
            assertEquals(scalar.get("ids"), vector.get("ids"), model.getFileName() + ": both backends, same greedy ids");
        }
    }

    private static JsonNode generate(Path model, String backend) throws IOException {
        CliRun run = CliRun.of("generate", "--model", model.toString(), "--prompt", "Hello there", "--max-tokens", "8",
                "--threads", "1", "--backend", backend, "--json");
        assertEquals(0, run.code(), run.toString());
        return new ObjectMapper().readTree(run.out());
    }

    @Test
    void badQuantizeArgumentsAreOneLine(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out.gguf");
        CliRun missing = CliRun.of("models", "quantize", dir.resolve("none.gguf").toString(), out.toString(), "--type", "q6_k");
        assertEquals(2, missing.code());
        assertEquals(1, missing.errLines().size(), missing.toString());
        assertTrue(missing.errLines().getFirst().contains("input file not found"), missing.toString());
        Path q8 = dir.resolve("q8.gguf");
        assertEquals(0, CliRun.of("models", "synth", "--shape", SHAPE, "--type", "q8_0", "--out", q8.toString()).code());
        CliRun type = CliRun.of("models", "quantize", q8.toString(), out.toString(), "--type", "q3_k_m");
        assertEquals(2, type.code());
        assertTrue(type.err().contains("expected --type q4_k_m, q5_k_m, q6_k or q8_0 but found 'q3_k_m'"), type.toString());
        CliRun quantized = CliRun.of("models", "quantize", q8.toString(), out.toString(), "--type", "q4_k_m");
        assertEquals(2, quantized.code(), quantized.toString());
        assertTrue(quantized.err().contains("in F32, F16 or BF16"), quantized.toString());
        assertTrue(!Files.exists(out));
    }
}
