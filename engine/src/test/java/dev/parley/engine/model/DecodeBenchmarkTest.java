package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark entry point runs and reports consistent figures (no speed is asserted). */
class DecodeBenchmarkTest {

    @TempDir
    Path dir;

    @Test
    void reportsPromptAndDecodeRates() throws Exception {
        Path p = TinyGguf.model("llama", GgmlType.Q8_0, false).write(dir.resolve("b.gguf"));
        try (LlamaModel m = LlamaModel.load(p, new ModelOptions(BackendKind.VECTOR, 2))) {
            DecodeBenchmark.Result r = DecodeBenchmark.run(m, 9, 5);
            assertEquals(9, r.promptTokens());
            assertEquals(5, r.decodeTokens());
            assertTrue(r.promptTokensPerSecond() > 0 && r.decodeTokensPerSecond() > 0, r.toString());
            assertEquals(r.decodeTokensPerSecond() * m.weightBytes() / 1e9, r.decodeGigabytesPerSecond(), 1e-9);
            assertThrows(IllegalArgumentException.class, () -> DecodeBenchmark.run(m, TinyGguf.CONTEXT, 1));
        }
    }
}
