package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.parley.engine.backend.cuda.CudaProbe;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --backend auto|cpu|cuda} on the command line of a machine without a GPU (CI, these machines). */
class BackendOptionTest {

    @Test
    void cudaWithoutADriverIsAUsageErrorThatSaysWhatToUseInstead(@TempDir Path dir) throws Exception {
        assumeFalse(CudaProbe.status().available(), "a GPU is present");
        Path model = TestModels.tiny(dir);
        CliRun run = CliRun.of("generate", "--model", model.toString(), "--prompt", "Hi", "--max-tokens", "2",
                "--backend", "cuda");
        assertEquals(2, run.code(), run.toString());
        assertEquals("parley: error: backend cuda: expected a CUDA driver and GPU but found "
                + CudaProbe.status().reason() + "; use --backend auto or cpu", run.errLines().getLast(), run.toString());
    }

    @Test
    void autoAndCpuRunOnTheCpuWithTheSameText(@TempDir Path dir) throws Exception {
        assumeFalse(CudaProbe.status().available(), "a GPU is present");
        Path model = TestModels.tiny(dir);
        CliRun auto = CliRun.of("generate", "--model", model.toString(), "--prompt", "Hi", "--max-tokens", "4",
                "--threads", "1", "--backend", "auto");
        CliRun cpu = CliRun.of("generate", "--model", model.toString(), "--prompt", "Hi", "--max-tokens", "4",
                "--threads", "1", "--backend", "cpu");
        assertEquals(0, auto.code(), auto.toString());
        assertEquals(0, cpu.code(), cpu.toString());
        assertEquals(cpu.out(), auto.out());
    }

    @Test
    void benchBatchOnCudaWithoutADriverIsAUsageError(@TempDir Path dir) throws Exception {
        assumeFalse(CudaProbe.status().available(), "a GPU is present");
        Path model = TestModels.tiny(dir);
        CliRun run = CliRun.of("bench", "batch", "--model", model.toString(), "--backend", "cuda", "--no-baseline",
                "--poisson-requests", "0", "--report", dir.resolve("report").toString());
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.errLines().getLast().startsWith("parley: error: backend cuda: expected a CUDA driver"),
                run.toString());
    }

    @Test
    void anUnknownBackendNamesTheAcceptedOnes() {
        CliRun run = CliRun.of("generate", "--model", "x.gguf", "--prompt", "Hi", "--backend", "gpu");
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("expected a backend of auto, cpu, cuda, scalar or vector but found gpu"),
                run.toString());
    }
}
