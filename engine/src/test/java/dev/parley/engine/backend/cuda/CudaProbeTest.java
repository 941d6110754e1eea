package dev.parley.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The probe on this machine: without a driver it says "no CUDA driver" (JCuda's {@code UnsatisfiedLinkError} caught)
 * and keeps saying so, every later call answering from the cached result instead of hitting JCuda's failed class
 * initialisation; with a GPU it names the device.
 */
class CudaProbeTest {

    @Test
    void answersOnceAndTheSameEveryTime() {
        CudaStatus first = CudaProbe.status();
        assertSame(first, CudaProbe.status());
        if (first.available()) {
            assertFalse(first.deviceName().isEmpty());
            assertTrue(first.totalBytes() > 0);
            assertTrue(CudaProbe.memoryInfo().isPresent());
        } else {
            assertTrue(first.reason().equals(CudaStatus.NO_DRIVER) || first.reason().startsWith("no CUDA device")
                    || first.reason().startsWith("CUDA driver error") || first.reason().contains("compute capability"),
                    first.reason());
            assertEquals(first.reason(), first.describe());
            assertTrue(CudaProbe.memoryInfo().isEmpty());
        }
    }

    @Test
    void aSecondProbeAfterAFailedOneStillAnswersCleanly() {
        // JCuda's driver class failed to initialise in the first probe when there is no driver; a fresh probe now
        // meets NoClassDefFoundError, which must be reported the same way, not thrown.
        CudaStatus again = CudaProbe.probe();
        assertEquals(CudaProbe.status().available(), again.available());
        if (!again.available()) {
            assertEquals(CudaProbe.status().reason(), again.reason());
        }
    }

    @Test
    void openingAContextWithoutAGpuFailsWithTheReason() {
        CudaStatus none = CudaStatus.unavailable(CudaStatus.NO_DRIVER);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CudaContext.open(none));
        assertEquals("expected a CUDA GPU but found no CUDA driver", e.getMessage());
    }

    @Test
    void statusRecordsAReasonExactlyWhenUnavailable() {
        assertThrows(IllegalArgumentException.class, () -> new CudaStatus(true, "why", "x", 1, 8, 0, 12000));
        assertThrows(IllegalArgumentException.class, () -> new CudaStatus(false, "", "", 0, 0, 0, 0));
        assertEquals("NVIDIA A100-SXM4-40GB, 40.0 GiB, compute 8.0, CUDA 12.2",
                new CudaStatus(true, "", "NVIDIA A100-SXM4-40GB", 40L << 30, 8, 0, 12020).describe());
    }
}
