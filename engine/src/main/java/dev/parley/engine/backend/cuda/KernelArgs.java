package dev.parley.engine.backend.cuda;

import java.util.ArrayList;
import java.util.List;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * The arguments of one kernel launch, in order, each with the name and kind of the CUDA parameter it fills, so that
 * tests can check every launch against the kernels' C signatures without a GPU.
 */
final class KernelArgs {

    /** What a parameter holds. */
    enum Kind { POINTER, INT, FLOAT }

    private final List<String> names = new ArrayList<>();
    private final List<Kind> kinds = new ArrayList<>();
    private final List<NativePointerObject> values = new ArrayList<>();

    private KernelArgs add(String name, Kind kind, NativePointerObject value) {
        names.add(name);
        kinds.add(kind);
        values.add(value);
        return this;
    }

    KernelArgs ptr(String name, DeviceBuffer b) {
        return add(name, Kind.POINTER, Pointer.to(b.pointer()));
    }

    KernelArgs ptr(String name, CUdeviceptr p) {
        return add(name, Kind.POINTER, Pointer.to(p));
    }

    /** A null device pointer (an optional input that is absent). */
    KernelArgs nullPtr(String name) {
        return add(name, Kind.POINTER, Pointer.to(new CUdeviceptr()));
    }

    KernelArgs i(String name, int v) {
        return add(name, Kind.INT, Pointer.to(new int[] {v}));
    }

    KernelArgs f(String name, float v) {
        return add(name, Kind.FLOAT, Pointer.to(new float[] {v}));
    }

    List<String> names() { return List.copyOf(names); }

    List<Kind> kinds() { return List.copyOf(kinds); }

    /** {@code kernelParams} for {@code cuLaunchKernel}: a pointer to each argument's value. */
    Pointer kernelParams() {
        return Pointer.to(values.toArray(NativePointerObject[]::new));
    }
}
