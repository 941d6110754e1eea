package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.backend.BackendUnavailableException;
import dev.parley.engine.backend.cuda.CudaProbe;
import dev.parley.engine.gguf.GgmlType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading with {@code auto} and {@code cuda} on a machine without a GPU (CI, these machines): auto runs on the CPU
 * and says why; cuda fails with a message, not a crash, and leaves nothing open.
 */
class CudaSelectionTest {

    @Test
    void autoWithoutAGpuRunsOnTheVectorBackendLikeCpu(@TempDir Path dir) throws Exception {
        assumeFalse(CudaProbe.status().available(), "a GPU is present: CudaParityTest covers this machine");
        Path file = TinyGguf.model("llama", GgmlType.Q8_0, true).write(dir.resolve("tiny.gguf"));
        try (LlamaModel auto = LlamaModel.load(file, new ModelOptions(BackendKind.AUTO, 1));
             LlamaModel cpu = LlamaModel.load(file, new ModelOptions(BackendKind.parse("cpu"), 1))) {
            assertEquals(BackendKind.VECTOR, auto.backendChoice().kind());
            assertEquals(CudaProbe.status().reason() + ": using the CPU (vector)", auto.backendChoice().message());
            assertEquals(-1, auto.gpuBytes());
            assertTrue(auto.cudaModel().isEmpty() && auto.gpuMemory().isEmpty());
            int[] prompt = {1, 5, 9, 14};
            try (InferenceSession a = auto.newSession(32); InferenceSession c = cpu.newSession(32)) {
                assertArrayEquals(c.ingest(prompt), a.ingest(prompt), "auto on the CPU is the vector backend");
            }
        }
    }

    @Test
    void cudaWithoutAGpuFailsWithAClearMessage(@TempDir Path dir) throws Exception {
        assumeFalse(CudaProbe.status().available(), "a GPU is present: CudaParityTest covers this machine");
        Path file = TinyGguf.model("llama", GgmlType.Q8_0, true).write(dir.resolve("tiny.gguf"));
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class,
                () -> LlamaModel.load(file, new ModelOptions(BackendKind.CUDA, 1)));
        assertEquals("backend cuda: expected a CUDA driver and GPU but found " + CudaProbe.status().reason()
                + "; use --backend auto or cpu", e.getMessage());
    }
}
