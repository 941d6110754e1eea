package dev.parley.engine.backend.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * Typed launches of the {@link Kernel}s: each method packs the arguments in the order of the CUDA signature and picks
 * the grid from {@link KernelGrids}. Sizes are in values and rows, not bytes.
 */
final class CudaKernels {

    private static final Pointer NULL = Pointer.to(new CUdeviceptr());

    private final CudaContext ctx;

    CudaKernels(CudaContext ctx) {
        this.ctx = ctx;
    }

    private static Pointer p(DeviceBuffer b) {
        return Pointer.to(b.pointer());
    }

    private static Pointer p(CUdeviceptr b) {
        return Pointer.to(b);
    }

    private static Pointer i(int v) {
        return Pointer.to(new int[] {v});
    }

    private static Pointer f(float v) {
        return Pointer.to(new float[] {v});
    }

    /** {@code out[t * rows + r] = w row r . x row t} for {@code count} quantized activation rows. */
    void matmul(DeviceMatrix w, DeviceBuffer xq, DeviceBuffer xd, DeviceBuffer out, int count) {
        ctx.launch(KernelGrids.matmulKernel(count), KernelGrids.matmul(w.rows(), count), p(w.quants()), p(w.scales()),
                p(xq), p(xd), p(out), i(w.rows()), i(w.cols()), i(count));
    }

    /** Quantizes {@code values} floats of {@code x} to Q8_0 quants {@code q} and scales {@code d}. */
    void quantize(DeviceBuffer x, DeviceBuffer q, DeviceBuffer d, int values) {
        ctx.launch(Kernel.QUANTIZE_Q8, KernelGrids.quantize(values), p(x), p(q), p(d), i(values / KernelGrids.QK));
    }

    void embed(DeviceMatrix table, DeviceBuffer tokens, DeviceBuffer x, int count) {
        ctx.launch(Kernel.EMBED_Q8, KernelGrids.perRow(count), p(table.quants()), p(table.scales()), p(tokens), p(x),
                i(table.cols()));
    }

    void rmsNorm(DeviceBuffer x, DeviceBuffer weight, DeviceBuffer out, int count, int dim, float eps) {
        ctx.launch(Kernel.RMS_NORM, KernelGrids.perRow(count), p(x), p(weight), p(out), i(dim), f(eps));
    }

    void addInPlace(DeviceBuffer x, DeviceBuffer y, int n) {
        ctx.launch(Kernel.ADD_INPLACE, KernelGrids.perValue(n), p(x), p(y), i(n));
    }

    void addBias(DeviceBuffer y, DeviceBuffer bias, int width, int stride, int count) {
        ctx.launch(Kernel.ADD_BIAS, KernelGrids.perValueOfRows(width, count), p(y), p(bias), i(width), i(stride));
    }

    void siluMul(DeviceBuffer gateUp, DeviceBuffer out, int ffn, int count) {
        ctx.launch(Kernel.SILU_MUL, KernelGrids.perValueOfRows(ffn, count), p(gateUp), p(out), i(ffn));
    }

    void gatherRows(DeviceBuffer x, DeviceBuffer rows, DeviceBuffer out, int dim, int count) {
        ctx.launch(Kernel.GATHER_ROWS, KernelGrids.perRow(count), p(x), p(rows), p(out), i(dim));
    }

    void rope(DeviceBuffer qkv, DeviceBuffer positions, DeviceBuffer powers, DeviceBuffer factors, int stride,
              int heads, int headSize, int pairs, boolean neox, float scale, int count) {
        ctx.launch(Kernel.ROPE, KernelGrids.rope(count, heads, pairs), p(qkv), p(positions), p(powers),
                factors == null ? NULL : p(factors), i(stride), i(headSize), i(pairs), i(neox ? 1 : 0), f(scale));
    }

    void kvStore(DeviceBuffer qkv, CUdeviceptr kCache, CUdeviceptr vCache, DeviceBuffer kvRows, int stride, int kOff,
                 int vOff, int kvDim, int count) {
        ctx.launch(Kernel.KV_STORE, KernelGrids.perRow(count), p(qkv), p(kCache), p(vCache), p(kvRows), i(stride),
                i(kOff), i(vOff), i(kvDim));
    }

    void attention(DeviceBuffer qkv, CUdeviceptr kCache, CUdeviceptr vCache, DeviceBuffer out, DeviceBuffer positions,
                   DeviceBuffer tableStarts, DeviceBuffer tables, int stride, int heads, int headSize, int kvDim,
                   int group, int blockSize, int outStride, float scale, int count) {
        ctx.launch(Kernel.ATTENTION, KernelGrids.attention(count, heads, headSize), p(qkv), p(kCache), p(vCache),
                p(out), p(positions), p(tableStarts), p(tables), i(stride), i(headSize), i(kvDim), i(group),
                i(blockSize), i(outStride), f(scale));
    }

    void argmax(DeviceBuffer logits, DeviceBuffer out, int vocab, int rows) {
        ctx.launch(Kernel.ARGMAX_ROWS, KernelGrids.sampling(rows), p(logits), p(out), i(vocab));
    }

    void softmax(DeviceBuffer logits, int vocab, float invTemperature, int rows) {
        ctx.launch(Kernel.SOFTMAX_ROWS, KernelGrids.sampling(rows), p(logits), i(vocab), f(invTemperature));
    }
}
