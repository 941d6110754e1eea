package dev.parley.engine.backend.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD8;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * Device 0's primary context with Parley's kernels loaded: allocation, copies and launches. Every method makes the
 * context current on the calling thread first, so a model may be driven from any one thread at a time. Closing frees
 * every allocation and unloads the modules. Not thread-safe.
 */
final class CudaContext implements AutoCloseable, KernelLauncher {

    private final CUdevice device;
    private final CUcontext context;
    private final String deviceName;
    private final List<CUmodule> modules = new ArrayList<>();
    private final Map<Kernel, CUfunction> functions = new EnumMap<>(Kernel.class);
    private final List<DeviceBuffer> buffers = new ArrayList<>();
    private long allocated;
    private boolean closed;

    private CudaContext(CUdevice device, CUcontext context, String deviceName) {
        this.device = device;
        this.context = context;
        this.deviceName = deviceName;
    }

    /**
     * Opens device 0 and loads every {@link KernelModule}.
     *
     * @throws IllegalStateException when there is no usable GPU (saying why) or a module does not load
     */
    static CudaContext open(CudaStatus status) {
        if (!status.available()) {
            throw new IllegalStateException("expected a CUDA GPU but found " + status.reason());
        }
        JCudaDriver.setExceptionsEnabled(true);
        cuInit(0);
        CUdevice device = new CUdevice();
        cuDeviceGet(device, 0);
        CUcontext context = new CUcontext();
        cuDevicePrimaryCtxRetain(context, device);
        CudaContext ctx = new CudaContext(device, context, status.deviceName());
        try {
            ctx.current();
            for (KernelModule m : KernelModule.values()) {
                CUmodule module = new CUmodule();
                cuModuleLoadData(module, (m.ptx() + '\0').getBytes(StandardCharsets.US_ASCII));
                ctx.modules.add(module);
                for (Kernel k : Kernel.values()) {
                    if (k.module() == m) {
                        CUfunction f = new CUfunction();
                        cuModuleGetFunction(f, module, k.entry());
                        ctx.functions.put(k, f);
                    }
                }
            }
            return ctx;
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** Makes this context current on the calling thread. */
    void current() {
        if (closed) {
            throw new IllegalStateException("expected an open CUDA context but it was closed");
        }
        cuCtxSetCurrent(context);
    }

    String deviceName() { return deviceName; }

    /** Bytes allocated through this context and not freed. */
    long allocatedBytes() { return allocated; }

    /** The device's memory as the driver reports it now. */
    GpuMemory memory() {
        current();
        long[] free = new long[1];
        long[] total = new long[1];
        cuMemGetInfo(free, total);
        return new GpuMemory(deviceName, total[0], free[0]);
    }

    /** A zeroed allocation of {@code bytes} (at least 1) named {@code name}. */
    DeviceBuffer allocate(String name, long bytes) {
        current();
        long size = Math.max(1, bytes);
        CUdeviceptr p = new CUdeviceptr();
        try {
            cuMemAlloc(p, size);
        } catch (jcuda.CudaException e) {
            throw new IllegalStateException("GPU memory: expected " + size + " more bytes for " + name + " but found "
                    + memory().freeBytes() + " free (" + allocated + " allocated by Parley): " + e.getMessage(), e);
        }
        cuMemsetD8(p, (byte) 0, size);
        DeviceBuffer b = new DeviceBuffer(name, p, size);
        buffers.add(b);
        allocated += size;
        return b;
    }

    /** A new allocation holding {@code values}. */
    DeviceBuffer upload(String name, float[] values) {
        DeviceBuffer b = allocate(name, 4L * values.length);
        cuMemcpyHtoD(b.pointer(), Pointer.to(values), 4L * values.length);
        return b;
    }

    /** Copies {@code count} ints of {@code values} to the start of {@code dst}. */
    void copy(int[] values, int count, DeviceBuffer dst) {
        checkFits(dst, 4L * count);
        current();
        if (count > 0) {
            cuMemcpyHtoD(dst.pointer(), Pointer.to(values), 4L * count);
        }
    }

    /** Copies the native segment {@code src} to {@code dst} at {@code offset}. */
    void copy(MemorySegment src, DeviceBuffer dst, long offset) {
        checkFits(dst, offset + src.byteSize());
        current();
        cuMemcpyHtoD(dst.at(offset), Pointer.to(src.asByteBuffer()), src.byteSize());
    }

    /** Copies {@code count} floats from the start of {@code src} to {@code out} (waits for the device). */
    void copy(DeviceBuffer src, float[] out, int count) {
        checkFits(src, 4L * count);
        current();
        cuMemcpyDtoH(Pointer.to(out), src.pointer(), 4L * count);
    }

    /** Copies {@code count} ints from the start of {@code src} to {@code out} (waits for the device). */
    void copy(DeviceBuffer src, int[] out, int count) {
        checkFits(src, 4L * count);
        current();
        cuMemcpyDtoH(Pointer.to(out), src.pointer(), 4L * count);
    }

    /** Launches {@code kernel} on {@code grid} with {@code args} (asynchronously, on the default stream). */
    @Override
    public void launch(Kernel kernel, LaunchGrid grid, KernelArgs args) {
        current();
        cuLaunchKernel(functions.get(kernel), grid.gridX(), grid.gridY(), 1, grid.blockX(), 1, 1, grid.sharedBytes(),
                null, args.kernelParams(), null);
    }

    /** Waits for every launched kernel. */
    void synchronize() {
        current();
        cuCtxSynchronize();
    }

    private static void checkFits(DeviceBuffer b, long bytes) {
        if (bytes > b.bytes()) {
            throw new IllegalArgumentException(b.name() + ": expected at most " + b.bytes() + " bytes but found " + bytes);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            cuCtxSetCurrent(context);
            for (DeviceBuffer b : buffers) {
                cuMemFree(b.pointer());
            }
            for (CUmodule m : modules) {
                cuModuleUnload(m);
            }
        } finally {
            buffers.clear();
            allocated = 0;
            closed = true;
            cuDevicePrimaryCtxRelease(device);
        }
    }
}
