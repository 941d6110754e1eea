package dev.parley.engine.backend.cuda;

import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.LayerWeights;
import dev.parley.engine.model.Weights;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A model's weights on the device, uploaded once: every matrix as Q8_0 in {@link Q8DeviceLayout} (Q/K/V fused into
 * one matrix per layer, gate and up into another, so that each takes one product), the norm weights, biases and RoPE
 * tables as floats. Rows are converted on the host in chunks through one staging buffer, so the host holds at most
 * {@link #STAGING_BYTES} beyond the mapped file.
 */
final class CudaWeights {

    /** Host staging per copy. */
    static final long STAGING_BYTES = 64L << 20;

    /** One layer's device weights. */
    record Layer(DeviceBuffer attnNorm, DeviceMatrix qkv, DeviceBuffer qkvBias, DeviceMatrix wo, DeviceBuffer ffnNorm,
                 DeviceMatrix gateUp, DeviceMatrix down) {
    }

    final DeviceMatrix embedding;
    final DeviceMatrix output;
    final DeviceBuffer outputNorm;
    final List<Layer> layers;
    final DeviceBuffer ropePowers;
    final DeviceBuffer ropeFactors; // null without rope_freqs
    private final long matrixBytes;

    private CudaWeights(DeviceMatrix embedding, DeviceMatrix output, DeviceBuffer outputNorm, List<Layer> layers,
                        DeviceBuffer ropePowers, DeviceBuffer ropeFactors) {
        this.embedding = embedding;
        this.output = output;
        this.outputNorm = outputNorm;
        this.layers = layers;
        this.ropePowers = ropePowers;
        this.ropeFactors = ropeFactors;
        long sum = output.bytes() + (output == embedding ? 0 : embedding.bytes());
        for (Layer l : layers) {
            sum += l.qkv.bytes() + l.wo.bytes() + l.gateUp.bytes() + l.down.bytes();
        }
        this.matrixBytes = sum;
    }

    /** Bytes of the device matrices. */
    long matrixBytes() {
        return matrixBytes;
    }

    /**
     * Uploads {@code w}; {@code progress} receives the bytes of device matrices written so far.
     *
     * @throws IllegalArgumentException when a matrix's rows are not a multiple of 32 values
     */
    static CudaWeights upload(CudaContext ctx, Configuration c, Weights w, LongConsumer progress) {
        try (Arena arena = Arena.ofConfined()) {
            Uploader up = new Uploader(ctx, arena, progress, Math.max(c.dim(), Math.max(c.qDim(), c.ffnDim())));
            DeviceMatrix embedding = up.matrix("token_embd", w.tokenEmbedding());
            DeviceMatrix output = w.output() == w.tokenEmbedding() ? embedding : up.matrix("output", w.output());
            List<Layer> layers = new ArrayList<>();
            for (int i = 0; i < w.layers().size(); i++) {
                LayerWeights l = w.layers().get(i);
                String b = "blk." + i + ".";
                DeviceBuffer bias = null;
                if (l.bq() != null) {
                    float[] all = new float[c.qDim() + 2 * c.kvDim()];
                    System.arraycopy(l.bq(), 0, all, 0, c.qDim());
                    System.arraycopy(l.bk(), 0, all, c.qDim(), c.kvDim());
                    System.arraycopy(l.bv(), 0, all, c.qDim() + c.kvDim(), c.kvDim());
                    bias = ctx.upload(b + "qkv.bias", all);
                }
                layers.add(new Layer(ctx.upload(b + "attn_norm", l.attnNorm()),
                        up.matrix(b + "attn_qkv", l.wq(), l.wk(), l.wv()), bias,
                        up.matrix(b + "attn_output", l.wo()),
                        ctx.upload(b + "ffn_norm", l.ffnNorm()),
                        up.matrix(b + "ffn_gate_up", l.wGate(), l.wUp()),
                        up.matrix(b + "ffn_down", l.wDown())));
            }
            DeviceBuffer norm = ctx.upload("output_norm", w.outputNorm());
            DeviceBuffer powers = ctx.upload("rope.powers", ropePowers(c));
            DeviceBuffer factors = w.ropeFreqFactors() == null ? null : ctx.upload("rope_freqs", w.ropeFreqFactors());
            return new CudaWeights(embedding, output, norm, List.copyOf(layers), powers, factors);
        }
    }

    /**
     * {@code base^(-2i / ropeDims)} for each pair i, by repeated multiplication in float as the CPU's RoPE builds
     * its angles.
     */
    static float[] ropePowers(Configuration c) {
        float scale = (float) Math.pow(c.ropeFreqBase(), -2.0 / c.ropeDims());
        float[] out = new float[c.ropeDims() / 2];
        float p = 1f;
        for (int i = 0; i < out.length; i++) {
            out[i] = p;
            p *= scale;
        }
        return out;
    }

    /** Converts and copies matrices through one staging buffer. */
    private static final class Uploader {
        private final CudaContext ctx;
        private final LongConsumer progress;
        private final MemorySegment quants;
        private final MemorySegment scales;
        private final float[] scratch;
        private long done;

        Uploader(CudaContext ctx, Arena arena, LongConsumer progress, int maxCols) {
            this.ctx = ctx;
            this.progress = progress;
            this.quants = arena.allocate(STAGING_BYTES, 64);
            this.scales = arena.allocate(STAGING_BYTES / 16, 64);
            this.scratch = new float[maxCols];
        }

        /** The parts stacked row-wise into one device matrix (all with the same row length). */
        DeviceMatrix matrix(String name, Tensor... parts) {
            int cols = parts[0].cols();
            int rows = 0;
            for (Tensor t : parts) {
                if (t.cols() != cols) {
                    throw new IllegalArgumentException(name + ": expected parts of " + cols + " columns but found "
                            + t.name() + " with " + t.cols());
                }
                rows += t.rows();
            }
            DeviceBuffer q = ctx.allocate(name + ".quants", Q8DeviceLayout.quantBytes(rows, cols));
            DeviceBuffer s = ctx.allocate(name + ".scales", Q8DeviceLayout.scaleBytes(rows, cols));
            int rowsPerChunk = (int) Math.max(1, STAGING_BYTES / cols);
            int base = 0;
            for (Tensor t : parts) {
                for (int from = 0; from < t.rows(); from += rowsPerChunk) {
                    int to = Math.min(t.rows(), from + rowsPerChunk);
                    MemorySegment qs = quants.asSlice(0, Q8DeviceLayout.quantBytes(to - from, cols));
                    MemorySegment ss = scales.asSlice(0, Q8DeviceLayout.scaleBytes(to - from, cols));
                    Q8DeviceLayout.split(t, from, to, qs, ss, scratch);
                    ctx.copy(qs, q, Q8DeviceLayout.quantBytes(base + from, cols));
                    ctx.copy(ss, s, Q8DeviceLayout.scaleBytes(base + from, cols));
                    done += qs.byteSize() + ss.byteSize();
                    progress.accept(done);
                }
                base += t.rows();
            }
            return new DeviceMatrix(name, q, s, rows, cols);
        }
    }
}
