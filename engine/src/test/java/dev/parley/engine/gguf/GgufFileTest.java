package dev.parley.engine.gguf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class GgufFileTest {

    @Test
    void readsParityModelHeaderAndTensors() throws Exception {
        Path p = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertEquals("llama", f.getString("general.architecture"));
            assertEquals(256, f.getInt("llama.embedding_length"));
            assertEquals(4, f.getInt("llama.block_count"));
            assertEquals(32000, f.getStrings("tokenizer.ggml.tokens").length);
            assertEquals(39, f.tensors().size());
            GgufTensorInfo emb = f.tensor("token_embd.weight");
            assertEquals(GgmlType.Q8_0, emb.type());
            assertEquals(256, emb.dim(0));
            assertEquals(32000, emb.dim(1));
            assertEquals(emb.byteSize(), f.tensorData(emb).byteSize());
            // The last tensor ends inside the file.
            long end = 0;
            for (GgufTensorInfo t : f.tensors()) {
                end = Math.max(end, f.dataOffset() + t.offset() + t.byteSize());
            }
            assertTrue(end <= f.fileSize());
        }
    }
}
