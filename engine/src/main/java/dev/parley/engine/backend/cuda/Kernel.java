package dev.parley.engine.backend.cuda;

/** Every CUDA kernel the backend launches, with the module that defines it and its PTX entry name. */
public enum Kernel {
    MMV_Q8(KernelModule.Q8_MATMUL, "mmv_q8"),
    MMQ_Q8(KernelModule.Q8_MATMUL, "mmq_q8"),
    EMBED_Q8(KernelModule.ELEMENTWISE, "embed_q8"),
    QUANTIZE_Q8(KernelModule.ELEMENTWISE, "quantize_q8"),
    RMS_NORM(KernelModule.ELEMENTWISE, "rms_norm"),
    ADD_INPLACE(KernelModule.ELEMENTWISE, "add_inplace"),
    ADD_BIAS(KernelModule.ELEMENTWISE, "add_bias"),
    SILU_MUL(KernelModule.ELEMENTWISE, "silu_mul"),
    GATHER_ROWS(KernelModule.ELEMENTWISE, "gather_rows"),
    ROPE(KernelModule.ROPE, "rope"),
    KV_STORE(KernelModule.ATTENTION, "kv_store"),
    ATTENTION(KernelModule.ATTENTION, "attention"),
    ARGMAX_ROWS(KernelModule.SAMPLING, "argmax_rows"),
    SOFTMAX_ROWS(KernelModule.SAMPLING, "softmax_rows");

    private final KernelModule module;
    private final String entry;

    Kernel(KernelModule module, String entry) {
        this.module = module;
        this.entry = entry;
    }

    public KernelModule module() { return module; }

    /** The {@code extern "C"} name in the PTX. */
    public String entry() { return entry; }
}
