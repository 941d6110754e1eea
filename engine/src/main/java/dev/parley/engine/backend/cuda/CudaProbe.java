package dev.parley.engine.backend.cuda;

import static jcuda.driver.JCudaDriver.cuCtxPopCurrent;
import static jcuda.driver.JCudaDriver.cuCtxPushCurrent;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import jcuda.CudaException;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.JCudaDriver;

/**
 * Finds out once per process whether the CUDA driver and a GPU are there. JCuda's driver binding loads
 * {@code libcuda.so.1} in a static initialiser: without a driver the first call throws
 * {@link UnsatisfiedLinkError} and every later one {@link NoClassDefFoundError}, so the answer of the first probe is
 * kept (in a lazily initialised holder: immutable once computed) and nothing touches the binding again after a
 * failure.
 */
public final class CudaProbe {

    private CudaProbe() {
    }

    /** The answer of the one probe of this process (probing on first use). Never throws. */
    public static CudaStatus status() {
        return Holder.STATUS;
    }

    /**
     * The current memory reading of device 0 through its primary context, or empty when there is no GPU. Cheap
     * enough for a dashboard that samples every second or so while a GPU backend is loaded (which keeps the primary
     * context alive).
     */
    public static Optional<GpuMemory> memoryInfo() {
        CudaStatus s = status();
        if (!s.available()) {
            return Optional.empty();
        }
        try {
            CUdevice device = new CUdevice();
            cuDeviceGet(device, 0);
            CUcontext context = new CUcontext();
            cuDevicePrimaryCtxRetain(context, device);
            try {
                cuCtxPushCurrent(context);
                try {
                    long[] free = new long[1];
                    long[] total = new long[1];
                    cuMemGetInfo(free, total);
                    return Optional.of(new GpuMemory(s.deviceName(), total[0], free[0]));
                } finally {
                    cuCtxPopCurrent(new CUcontext());
                }
            } finally {
                cuDevicePrimaryCtxRelease(device);
            }
        } catch (CudaException e) {
            return Optional.empty();
        }
    }

    /**
     * Prints what the probe found (and the memory reading when there is a GPU); exits with 1 when there is none.
     * For scripts: {@code java -cp ... dev.parley.engine.backend.cuda.CudaProbe}.
     */
    public static void main(String[] args) {
        CudaStatus s = status();
        System.out.println(s.available() ? "CUDA: " + s.describe() : "CUDA: unavailable: " + s.reason());
        memoryInfo().ifPresent(m -> System.out.printf(java.util.Locale.ROOT, "CUDA: %.1f GiB free of %.1f GiB%n",
                m.freeBytes() / (double) (1L << 30), m.totalBytes() / (double) (1L << 30)));
        if (!s.available()) {
            System.exit(1);
        }
    }

    /** Probes the driver; package-private for tests. */
    static CudaStatus probe() {
        try {
            JCudaDriver.setExceptionsEnabled(true);
            cuInit(0);
            int[] count = new int[1];
            cuDeviceGetCount(count);
            if (count[0] < 1) {
                return CudaStatus.unavailable("no CUDA device (driver loaded, 0 devices)");
            }
            CUdevice device = new CUdevice();
            cuDeviceGet(device, 0);
            byte[] name = new byte[256];
            cuDeviceGetName(name, name.length, device);
            long[] total = new long[1];
            cuDeviceTotalMem(total, device);
            int[] major = new int[1];
            int[] minor = new int[1];
            cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
            cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
            int[] version = new int[1];
            cuDriverGetVersion(version);
            if (major[0] * 10 + minor[0] < 61) {
                return CudaStatus.unavailable("GPU " + cString(name) + " has compute capability " + major[0] + "."
                        + minor[0] + ": expected 6.1 or later (int8 dot products)");
            }
            return new CudaStatus(true, "", cString(name), total[0], major[0], minor[0], version[0]);
        } catch (LinkageError e) {
            return CudaStatus.unavailable(CudaStatus.NO_DRIVER);
        } catch (CudaException e) {
            return CudaStatus.unavailable("CUDA driver error: " + e.getMessage());
        }
    }

    private static String cString(byte[] bytes) {
        int n = 0;
        while (n < bytes.length && bytes[n] != 0) {
            n++;
        }
        return new String(bytes, 0, n, StandardCharsets.US_ASCII).strip();
    }

    /** Initialised on first use, once; the JVM's class initialisation makes it thread-safe. */
    private static final class Holder {
        static final CudaStatus STATUS = probe();
    }
}
