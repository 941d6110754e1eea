package dev.parley.engine.backend.cuda;

import jcuda.driver.CUdeviceptr;

/**
 * Typed launches of the {@link Kernel}s: each method names and packs the arguments in the order of the CUDA
 * signature (checked against the sources by a test) and picks the grid from {@link KernelGrids}. Sizes are in values
 * and rows, not bytes.
 */
final class CudaKernels {

    private final KernelLauncher launcher;

    CudaKernels(KernelLauncher launcher) {
        this.launcher = launcher;
    }

    private static KernelArgs args() {
        return new KernelArgs();
    }

    /** {@code out[t * rows + r] = w row r . x row t} for {@code count} quantized activation rows. */
    void matmul(DeviceMatrix w, DeviceBuffer xq, DeviceBuffer xd, DeviceBuffer out, int count) {
        launcher.launch(KernelGrids.matmulKernel(count), KernelGrids.matmul(w.rows(), count), args()
                .ptr("wq", w.quants()).ptr("wd", w.scales()).ptr("xq", xq).ptr("xd", xd).ptr("out", out)
                .i("rows", w.rows()).i("cols", w.cols()).i("count", count));
    }

    /** Quantizes {@code values} floats of {@code x} to Q8_0 quants {@code q} and scales {@code d}. */
    void quantize(DeviceBuffer x, DeviceBuffer q, DeviceBuffer d, int values) {
        launcher.launch(Kernel.QUANTIZE_Q8, KernelGrids.quantize(values), args()
                .ptr("x", x).ptr("q", q).ptr("d", d).i("blocks", values / KernelGrids.QK));
    }

    void embed(DeviceMatrix table, DeviceBuffer tokens, DeviceBuffer x, int count) {
        launcher.launch(Kernel.EMBED_Q8, KernelGrids.perRow(count), args()
                .ptr("qs", table.quants()).ptr("ds", table.scales()).ptr("tokens", tokens).ptr("x", x)
                .i("dim", table.cols()));
    }

    void rmsNorm(DeviceBuffer x, DeviceBuffer weight, DeviceBuffer out, int count, int dim, float eps) {
        launcher.launch(Kernel.RMS_NORM, KernelGrids.perRow(count), args()
                .ptr("x", x).ptr("w", weight).ptr("out", out).i("dim", dim).f("eps", eps));
    }

    void addInPlace(DeviceBuffer x, DeviceBuffer y, int n) {
        launcher.launch(Kernel.ADD_INPLACE, KernelGrids.perValue(n), args().ptr("x", x).ptr("y", y).i("n", n));
    }

    void addBias(DeviceBuffer y, DeviceBuffer bias, int width, int stride, int count) {
        launcher.launch(Kernel.ADD_BIAS, KernelGrids.perValueOfRows(width, count), args()
                .ptr("y", y).ptr("bias", bias).i("width", width).i("stride", stride));
    }

    void siluMul(DeviceBuffer gateUp, DeviceBuffer out, int ffn, int count) {
        launcher.launch(Kernel.SILU_MUL, KernelGrids.perValueOfRows(ffn, count), args()
                .ptr("gu", gateUp).ptr("h", out).i("ffn", ffn));
    }

    void gatherRows(DeviceBuffer x, DeviceBuffer rows, DeviceBuffer out, int dim, int count) {
        launcher.launch(Kernel.GATHER_ROWS, KernelGrids.perRow(count), args()
                .ptr("x", x).ptr("rows", rows).ptr("out", out).i("dim", dim));
    }

    void rope(DeviceBuffer qkv, DeviceBuffer positions, DeviceBuffer powers, DeviceBuffer factors, int stride,
              int heads, int headSize, int pairs, boolean neox, float scale, int count) {
        KernelArgs a = args().ptr("qkv", qkv).ptr("positions", positions).ptr("powers", powers);
        a = factors == null ? a.nullPtr("factors") : a.ptr("factors", factors);
        launcher.launch(Kernel.ROPE, KernelGrids.rope(count, heads, pairs), a
                .i("stride", stride).i("head_size", headSize).i("pairs", pairs).i("neox", neox ? 1 : 0)
                .f("scale", scale));
    }

    void kvStore(DeviceBuffer qkv, CUdeviceptr kCache, CUdeviceptr vCache, DeviceBuffer kvRows, int stride, int kOff,
                 int vOff, int kvDim, int count) {
        launcher.launch(Kernel.KV_STORE, KernelGrids.perRow(count), args()
                .ptr("qkv", qkv).ptr("k_cache", kCache).ptr("v_cache", vCache).ptr("slots", kvRows)
                .i("stride", stride).i("k_off", kOff).i("v_off", vOff).i("kv_dim", kvDim));
    }

    void attention(DeviceBuffer qkv, CUdeviceptr kCache, CUdeviceptr vCache, DeviceBuffer out, DeviceBuffer positions,
                   DeviceBuffer tableStarts, DeviceBuffer tables, int stride, int heads, int headSize, int kvDim,
                   int group, int blockSize, int outStride, float scale, int count) {
        launcher.launch(Kernel.ATTENTION, KernelGrids.attention(count, heads, headSize), args()
                .ptr("qkv", qkv).ptr("k_cache", kCache).ptr("v_cache", vCache).ptr("out", out)
                .ptr("positions", positions).ptr("table_starts", tableStarts).ptr("tables", tables)
                .i("stride", stride).i("head_size", headSize).i("kv_dim", kvDim).i("group", group)
                .i("block_size", blockSize).i("out_stride", outStride).f("scale", scale));
    }

    void argmax(DeviceBuffer logits, DeviceBuffer out, int vocab, int rows) {
        launcher.launch(Kernel.ARGMAX_ROWS, KernelGrids.sampling(rows), args()
                .ptr("logits", logits).ptr("out", out).i("vocab", vocab));
    }

    void softmax(DeviceBuffer logits, int vocab, float invTemperature, int rows) {
        launcher.launch(Kernel.SOFTMAX_ROWS, KernelGrids.sampling(rows), args()
                .ptr("logits", logits).i("vocab", vocab).f("inv_temperature", invTemperature));
    }
}
