package dev.parley.models.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.models.gguf.GgufTensorSink;
import dev.parley.models.gguf.GgufWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ModelInfo on written GGUF files: an architecture the engine does not run, and garbage. */
class ModelInfoTest {
    @TempDir
    Path dir;

    @Test
    void unsupportedArchitectureStillGetsItsFiguresAndSaysWhy() throws IOException {
        GgufWriter w = new GgufWriter()
                .put("general.architecture", GgufMetadataValue.of("phi3"))
                .put("general.name", GgufMetadataValue.of("tiny phi"))
                .put("phi3.embedding_length", GgufMetadataValue.ofUint32(64))
                .put("phi3.block_count", GgufMetadataValue.ofUint32(2))
                .put("phi3.attention.head_count", GgufMetadataValue.ofUint32(4))
                .put("phi3.attention.head_count_kv", GgufMetadataValue.ofUint32(2))
                .put("phi3.context_length", GgufMetadataValue.ofUint32(128))
                .put("phi3.feed_forward_length", GgufMetadataValue.ofUint32(96))
                .put("tokenizer.chat_template", GgufMetadataValue.of("{{'<|user|>' + m}}"))
                .addTensor("token_embd.weight", new long[] {64, 10}, GgmlType.F32);
        Path file = dir.resolve("phi.gguf");
        try (GgufTensorSink sink = w.open(file)) {
            sink.write("token_embd.weight", new byte[64 * 10 * 4], 0, 64 * 10 * 4);
            sink.commit();
        }

        ModelInfo info = ModelInfo.read(file);

        assertEquals("phi3", info.architecture());
        assertEquals("tiny phi", info.name());
        assertNotNull(info.engineSupport());
        assertTrue(info.engineSupport().contains("phi3"), info.engineSupport());
        assertEquals(640, info.parameterCount());
        assertEquals("F32 x1", info.tensorTypesSummary());
        assertEquals("64/2/4/2/16/96", info.shapeSummary());
        assertEquals(2L * 2 * 2 * 16 * 4, info.kvBytesPerToken());
        assertEquals(ChatTemplateFamily.PHI3, info.chatTemplateFamily());
        assertEquals(Files.size(file), info.fileSize());
    }

    @Test
    void parityModelsRunInTheEngine() throws IOException {
        ModelInfo m1 = ModelInfo.read(SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf"));
        assertNull(m1.engineSupport());
        assertTrue(m1.contextLength() > 0);
    }

    @Test
    void garbageIsAClearError() throws IOException {
        Path junk = Files.writeString(dir.resolve("junk.gguf"), "definitely not a GGUF file");
        IOException e = assertThrows(IOException.class, () -> ModelInfo.read(junk));
        assertNotNull(e.getMessage());
    }
}
