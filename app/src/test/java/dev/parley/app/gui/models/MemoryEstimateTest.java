package dev.parley.app.gui.models;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.app.TestModels;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.MemoryReport;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.Weights;
import dev.parley.models.store.ModelInfo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manager's KV figures agree with the engine's own memory report for every KV precision. */
class MemoryEstimateTest {
    @TempDir
    Path dir;

    @Test
    void kvBytesPerTokenMatchTheEnginesCaches() throws Exception {
        Path model = TestModels.slow(dir);
        ModelInfo info = ModelInfo.read(model);
        MemoryEstimate estimate = new MemoryEstimate(info.blockCount(), info.headCountKv(), info.headDim());
        try (GgufFile gguf = GgufFile.open(model)) {
            Configuration config = Configuration.fromGguf(gguf);
            Weights weights = Weights.load(gguf, config);
            for (KvFormat kv : KvFormat.values()) {
                MemoryReport r = MemoryReport.estimate(config, weights, ModelOptions.defaults().withKv(kv), 256, 64, 1);
                assertEquals(r.kvBytesPerToken(), estimate.kvBytesPerToken(kv), kv.name());
                assertEquals(info.fileSize() + r.kvBytes(), estimate.bytes(info.fileSize(), 256, kv), kv.name());
            }
        }
    }
}
