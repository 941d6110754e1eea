package dev.parley.engine.backend.cuda;

/** Launches a kernel: {@link CudaContext} on the GPU; tests record the launches instead. */
interface KernelLauncher {
    void launch(Kernel kernel, LaunchGrid grid, KernelArgs args);
}
