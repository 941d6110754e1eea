package dev.parley.models.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.models.catalog.ModelShape;
import dev.parley.models.download.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ModelInfo on the parity fixtures gives the figures of their MANIFEST.md. */
class ModelInfoFixtureTest {

    @Test
    void figuresMatchTheManifest() throws Exception {
        Path manifest = SharedFixtures.require("parity/MANIFEST.md");
        List<ParityManifest> rows = ParityManifest.read(manifest);
        assertEquals(4, rows.size(), "four models in the manifest");
        for (ParityManifest row : rows) {
            Path file = manifest.resolveSibling(row.file());
            ModelInfo info = ModelInfo.read(file);
            assertEquals(row.arch(), info.architecture(), row.file());
            assertEquals(row.shape(), info.shapeSummary(), row.file());
            assertEquals(row.tensorTypes(), info.tensorTypesSummary(), row.file());
            assertEquals(row.mib(), Bytes.mib(info.fileSize()), row.file());
            assertEquals(Files.size(file), info.fileSize());
            assertEquals(2L * info.blockCount() * info.headCountKv() * info.headDim() * 4, info.kvBytesPerToken());
            assertEquals(info.fileSize() + 512 * info.kvBytesPerToken(), info.memoryBytes(512));
        }
    }

    @Test
    void parametersAreTheTensorElementsAndAgreeWithTheShape() throws Exception {
        ModelInfo m1 = ModelInfo.read(SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf"));
        assertEquals(new ModelShape(256, 4, 8, 4, 32, 704, 32000, false, false).parameterCount(), m1.parameterCount());
        assertEquals(32000, m1.vocabSize());
        ModelInfo m3 = ModelInfo.read(SharedFixtures.require("parity/m3-llama-gpt2-tied-q8_0.gguf"));
        assertEquals(new ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false).parameterCount(), m3.parameterCount());
        assertTrue(m3.allTypesSupported());
    }
}
