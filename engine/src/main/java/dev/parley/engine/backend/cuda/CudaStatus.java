package dev.parley.engine.backend.cuda;

import java.util.Locale;
import java.util.Objects;

/**
 * What a probe of the CUDA driver found: a usable GPU (device 0) and its properties, or why there is none.
 *
 * @param available     whether a CUDA driver and at least one device answered
 * @param reason        why not, when not available (e.g. "no CUDA driver"); empty when available
 * @param deviceName    the GPU's name; empty when not available
 * @param totalBytes    the GPU's memory; 0 when not available
 * @param computeMajor  compute capability, major (0 when not available)
 * @param computeMinor  compute capability, minor
 * @param driverVersion the driver's CUDA version as {@code 1000 * major + 10 * minor} (0 when not known)
 */
public record CudaStatus(boolean available, String reason, String deviceName, long totalBytes, int computeMajor,
                         int computeMinor, int driverVersion) {

    /** The reason given when the driver library cannot be loaded. */
    public static final String NO_DRIVER = "no CUDA driver";

    public CudaStatus {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(deviceName, "deviceName");
        if (available == !reason.isEmpty()) {
            throw new IllegalArgumentException("expected a reason exactly when CUDA is unavailable but found available="
                    + available + ", reason '" + reason + "'");
        }
    }

    /** No usable GPU, because of {@code reason}. */
    public static CudaStatus unavailable(String reason) {
        return new CudaStatus(false, reason, "", 0, 0, 0, 0);
    }

    /** One line for logs and the CLI, e.g. "NVIDIA H200, 139.8 GiB, compute 9.0, CUDA 12.8" or the reason. */
    public String describe() {
        if (!available) {
            return reason;
        }
        return String.format(Locale.ROOT, "%s, %.1f GiB, compute %d.%d, CUDA %d.%d", deviceName,
                totalBytes / (double) (1L << 30), computeMajor, computeMinor, driverVersion / 1000,
                driverVersion % 1000 / 10);
    }
}
