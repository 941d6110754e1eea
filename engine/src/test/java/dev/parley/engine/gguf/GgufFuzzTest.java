package dev.parley.engine.gguf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.Weights;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of the GGUF reader and of everything that reads a model's header
 * (Jazzer; see docs/reliability.md). The input is written to a file and opened as a model would be:
 * every metadata value is read, every tensor's data is touched at both ends, and when the keys are
 * there the tokenizer, the configuration and the weights are built. The only accepted failure is a
 * {@link GgufException} (its message says what was expected); any other exception, a crash, a hang
 * or an out-of-memory is a finding. Seeds: {@link GgufSeeds}.
 */
class GgufFuzzTest {

    /** The tokenizer loader warns (on stderr) about odd vocabularies; at thousands of inputs a second that is noise. */
    private static final java.util.logging.Logger TOKENIZER_LOG = quiet("dev.parley.engine.tokenizer");

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(name);
        log.setLevel(java.util.logging.Level.OFF);
        return log;
    }

    @FuzzTest(maxDuration = "30s")
    void openAnyFile(byte[] bytes) throws IOException {
        Path file = Files.createTempFile("fuzz", ".gguf");
        try {
            Files.write(file, bytes);
            readEverything(file);
        } catch (GgufException expected) {
            // a hostile or broken file, refused with a message
        } finally {
            Files.delete(file);
        }
    }

    private static void readEverything(Path file) throws IOException {
        try (GgufFile gguf = GgufFile.open(file)) {
            for (var e : gguf.metadata().entrySet()) {
                e.getValue().describe();
            }
            for (GgufTensorInfo t : gguf.tensors()) {
                MemorySegment data = gguf.tensorData(t);
                if (data.byteSize() > 0) {
                    data.get(ValueLayout.JAVA_BYTE, 0);
                    data.get(ValueLayout.JAVA_BYTE, data.byteSize() - 1);
                }
            }
            if (gguf.has("tokenizer.ggml.model")) {
                Tokenizer t = Tokenizer.fromGguf(gguf);
                t.decode(t.encode("Hello world <s> 日本", true, true));
            }
            if (gguf.has("general.architecture")) {
                Weights.load(gguf, Configuration.fromGguf(gguf));
            }
        }
    }
}
