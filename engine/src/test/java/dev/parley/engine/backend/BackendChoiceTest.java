package dev.parley.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.cuda.CudaStatus;
import org.junit.jupiter.api.Test;

/** {@code --backend auto|cpu|cuda|scalar|vector}: parsing, and what runs with and without a GPU. */
class BackendChoiceTest {

    private static final CudaStatus NONE = CudaStatus.unavailable(CudaStatus.NO_DRIVER);
    private static final CudaStatus GPU = new CudaStatus(true, "", "NVIDIA H200", 150_000_000_000L, 9, 0, 12080);

    @Test
    void parsesEveryNameInAnyCaseAndCpuAsTheVectorBackend() {
        assertEquals(BackendKind.VECTOR, BackendKind.parse("cpu"));
        assertEquals(BackendKind.VECTOR, BackendKind.parse(" Vector "));
        assertEquals(BackendKind.SCALAR, BackendKind.parse("SCALAR"));
        assertEquals(BackendKind.CUDA, BackendKind.parse("cuda"));
        assertEquals(BackendKind.AUTO, BackendKind.parse("Auto"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BackendKind.parse("gpu"));
        assertEquals("expected a backend of auto, cpu, cuda, scalar or vector but found gpu", e.getMessage());
    }

    @Test
    void autoWithoutADriverUsesTheVectorBackendAndSaysWhy() throws Exception {
        BackendChoice c = BackendChoice.resolve(BackendKind.AUTO, NONE);
        assertEquals(BackendKind.VECTOR, c.kind());
        assertEquals("no CUDA driver: using the CPU (vector)", c.message());
    }

    @Test
    void autoWithAGpuUsesIt() throws Exception {
        BackendChoice c = BackendChoice.resolve(BackendKind.AUTO, GPU);
        assertEquals(BackendKind.CUDA, c.kind());
        assertTrue(c.message().contains("NVIDIA H200") && c.message().contains("compute 9.0"), c.message());
    }

    @Test
    void cudaWithoutADriverFailsWithWhatToDoInstead() {
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class,
                () -> BackendChoice.resolve(BackendKind.CUDA, NONE));
        assertEquals("backend cuda: expected a CUDA driver and GPU but found no CUDA driver; use --backend auto or cpu",
                e.getMessage());
    }

    @Test
    void cpuKindsStayAsAskedWhateverTheGpu() throws Exception {
        for (BackendKind k : new BackendKind[] {BackendKind.SCALAR, BackendKind.VECTOR}) {
            assertEquals(new BackendChoice(k, ""), BackendChoice.resolve(k, GPU));
            assertEquals(new BackendChoice(k, ""), BackendChoice.resolve(k, NONE));
        }
    }

    @Test
    void theCpuBackendFactoryRefusesGpuKinds() {
        for (BackendKind k : new BackendKind[] {BackendKind.CUDA, BackendKind.AUTO}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backend.create(k, 1));
            assertTrue(e.getMessage().startsWith("expected a CPU backend (scalar or vector) but found " + k.label()),
                    e.getMessage());
        }
    }
}
