package dev.parley.engine.backend.cuda;

import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.RopeStyle;
import dev.parley.engine.model.Weights;
import java.util.Objects;
import java.util.function.LongConsumer;
import jcuda.CudaException;
import jcuda.driver.CUdeviceptr;

/**
 * A model on the GPU: weights uploaded once, a paged KV cache on the device and the activation buffers of a step,
 * running the same forward pass as the CPU's {@code Transformer} over a batch of rows (tokens of any sequences, each
 * at its own position, with its own block table). Per step the host sends the row arrays and copies back either the
 * logits of the rows that want them or just their greedy tokens. Not thread-safe: one step at a time, from one
 * thread at a time.
 */
public final class CudaModel implements AutoCloseable {

    private final CudaContext ctx;
    private final CudaKernels k;
    private final Configuration c;
    private final DevicePlan plan;
    private final CudaWeights w;
    private final KvBlockPool pool;
    private final DeviceBuffer kCache;
    private final DeviceBuffer vCache;
    private final Buffers b;
    private final float attentionScale;
    private final boolean neox;

    /** The activation and index buffers of one step. */
    private record Buffers(DeviceBuffer tokens, DeviceBuffer positions, DeviceBuffer kvRows, DeviceBuffer tableStarts,
                           DeviceBuffer tables, DeviceBuffer logitRows, DeviceBuffer x, DeviceBuffer xb,
                           DeviceBuffer proj, DeviceBuffer gathered, DeviceBuffer qkv, DeviceBuffer att,
                           DeviceBuffer gateUp, DeviceBuffer hidden, DeviceBuffer xq, DeviceBuffer xd,
                           DeviceBuffer logits, DeviceBuffer argmax) {

        static Buffers allocate(CudaContext ctx, DevicePlan p) {
            Configuration c = p.config();
            int n = p.maxRows();
            return new Buffers(ctx.allocate("tokens", 4L * n), ctx.allocate("positions", 4L * n),
                    ctx.allocate("kv rows", 4L * n), ctx.allocate("table starts", 4L * n),
                    ctx.allocate("block tables", 4L * (p.kvBlocks() + 1)), ctx.allocate("logit rows", 4L * n),
                    ctx.allocate("x", p.rowsBytes(c.dim())), ctx.allocate("xb", p.rowsBytes(c.dim())),
                    ctx.allocate("proj", p.rowsBytes(c.dim())), ctx.allocate("gathered", p.rowsBytes(c.dim())),
                    ctx.allocate("qkv", p.rowsBytes(p.qkvWidth())), ctx.allocate("att", p.rowsBytes(c.qDim())),
                    ctx.allocate("gate/up", p.rowsBytes(p.gateUpWidth())), ctx.allocate("hidden", p.rowsBytes(c.ffnDim())),
                    ctx.allocate("quants", (long) n * p.maxInput()),
                    ctx.allocate("quant scales", 4L * n * (p.maxInput() / KernelGrids.QK)),
                    ctx.allocate("logits", p.rowsBytes(c.vocabSize())), ctx.allocate("argmax", 4L * n));
        }
    }

    private CudaModel(CudaContext ctx, Configuration c, DevicePlan plan, CudaWeights w, DeviceBuffer kCache,
                      DeviceBuffer vCache, Buffers b) {
        this.ctx = ctx;
        this.k = new CudaKernels(ctx);
        this.c = c;
        this.plan = plan;
        this.w = w;
        this.pool = new KvBlockPool(plan.kvBlocks());
        this.kCache = kCache;
        this.vCache = vCache;
        this.b = b;
        this.attentionScale = (float) (1.0 / Math.sqrt(c.headSize()));
        this.neox = c.architecture().ropeStyle() == RopeStyle.NEOX;
    }

    /**
     * Opens the GPU that {@code status} describes and uploads {@code weights} (quantizing non-Q8_0 matrices to Q8_0
     * as the CPU's int8 loading does); {@code progress} receives the bytes uploaded so far.
     *
     * @throws IllegalStateException    when there is no usable GPU, or not enough device memory (saying how much)
     * @throws IllegalArgumentException when the model's shapes do not suit the kernels (head size over 256, widths
     *                                  not multiples of 32)
     */
    public static CudaModel load(CudaStatus status, Configuration config, Weights weights, CudaOptions options,
                                 LongConsumer progress) {
        Objects.requireNonNull(options, "options");
        new DevicePlan(config, options.maxRows(), 1, DevicePlan.BLOCK_SIZE); // checks the shapes before any upload
        CudaContext ctx = CudaContext.open(status);
        try {
            CudaWeights w = CudaWeights.upload(ctx, config, weights, progress);
            long activations = new DevicePlan(config, options.maxRows(), 1, DevicePlan.BLOCK_SIZE).activationBytes();
            int blocks = options.kvBlocks(config, ctx.memory().freeBytes() - activations);
            DevicePlan plan = new DevicePlan(config, options.maxRows(), blocks, DevicePlan.BLOCK_SIZE);
            DeviceBuffer kc = ctx.allocate("K cache", plan.kvLayerBytes() * config.layers());
            DeviceBuffer vc = ctx.allocate("V cache", plan.kvLayerBytes() * config.layers());
            return new CudaModel(ctx, config, plan, w, kc, vc, Buffers.allocate(ctx, plan));
        } catch (CudaException e) {
            ctx.close();
            throw new IllegalStateException("CUDA: loading the model failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    public Configuration config() { return c; }

    /** The sizes of the device buffers. */
    public DevicePlan plan() { return plan; }

    /** The name of the GPU. */
    public String deviceName() { return ctx.deviceName(); }

    /** Bytes this model holds on the device (weights, KV cache, buffers). */
    public long allocatedBytes() { return ctx.allocatedBytes(); }

    /** Bytes of weight matrices read per generated token (for bandwidth figures). */
    public long weightBytes() { return w.matrixBytes(); }

    /** The device's memory now. */
    public GpuMemory memory() { return ctx.memory(); }

    /** A new, empty block table drawing on this model's KV pool. */
    public BlockTable newBlockTable() {
        return new BlockTable(pool, plan.blockSize());
    }

    /** The KV pool's bookkeeping. */
    public KvBlockPool blocks() { return pool; }

    /**
     * Runs one step: stores the keys and values of every row in its sequence's blocks, then, for the rows of
     * {@code step.logitRows()}, writes their logits to {@code logits} (row j at {@code j * vocab}) when it is not
     * null, and their greedy (argmax) tokens to {@code greedy} when it is not null.
     *
     * @throws IllegalArgumentException when the step has more rows than {@link DevicePlan#maxRows()} or an output is
     *                                  too small
     * @throws IllegalStateException    when the device fails (the message names the CUDA error)
     */
    public void step(StepPlan step, float[] logits, int[] greedy) {
        int n = step.rows();
        int m = step.logitRows().length;
        if (n > plan.maxRows()) {
            throw new IllegalArgumentException("expected at most " + plan.maxRows() + " rows per step but found " + n);
        }
        if (logits != null && logits.length < (long) m * c.vocabSize()) {
            throw new IllegalArgumentException("expected room for " + m + " rows of logits but found " + logits.length
                    + " floats");
        }
        if (greedy != null && greedy.length < m) {
            throw new IllegalArgumentException("expected room for " + m + " greedy tokens but found " + greedy.length);
        }
        try {
            upload(step);
            layers(n);
            if (m > 0) {
                head(m, logits, greedy);
            } else {
                ctx.synchronize();
            }
        } catch (CudaException e) {
            throw new IllegalStateException("CUDA: a step of " + n + " rows failed: " + e.getMessage(), e);
        }
    }

    private void upload(StepPlan s) {
        int n = s.rows();
        ctx.copy(s.tokens(), n, b.tokens());
        ctx.copy(s.positions(), n, b.positions());
        ctx.copy(s.kvRows(), n, b.kvRows());
        ctx.copy(s.tableStarts(), n, b.tableStarts());
        ctx.copy(s.tables(), s.tables().length, b.tables());
        ctx.copy(s.logitRows(), s.logitRows().length, b.logitRows());
    }

    /** The blocks of the transformer over {@code n} rows, leaving the residual stream in {@code x}. */
    private void layers(int n) {
        int dim = c.dim();
        k.embed(w.embedding, b.tokens(), b.x(), n);
        for (int l = 0; l < c.layers(); l++) {
            CudaWeights.Layer lw = w.layers.get(l);
            // Attention block.
            k.rmsNorm(b.x(), lw.attnNorm(), b.xb(), n, dim, c.rmsEps());
            k.quantize(b.xb(), b.xq(), b.xd(), n * dim);
            k.matmul(lw.qkv(), b.xq(), b.xd(), b.qkv(), n);
            int stride = plan.qkvWidth();
            if (lw.qkvBias() != null) {
                k.addBias(b.qkv(), lw.qkvBias(), stride, stride, n);
            }
            k.rope(b.qkv(), b.positions(), w.ropePowers, w.ropeFactors, stride, c.heads() + c.kvHeads(), c.headSize(),
                    c.ropeDims() / 2, neox, c.ropeFreqScale(), n);
            CUdeviceptr kl = kCache.at(plan.kvLayerBytes() * l);
            CUdeviceptr vl = vCache.at(plan.kvLayerBytes() * l);
            k.kvStore(b.qkv(), kl, vl, b.kvRows(), stride, c.qDim(), c.qDim() + c.kvDim(), c.kvDim(), n);
            k.attention(b.qkv(), kl, vl, b.att(), b.positions(), b.tableStarts(), b.tables(), stride, c.heads(),
                    c.headSize(), c.kvDim(), c.groupSize(), plan.blockSize(), c.qDim(), attentionScale, n);
            k.quantize(b.att(), b.xq(), b.xd(), n * c.qDim());
            k.matmul(lw.wo(), b.xq(), b.xd(), b.proj(), n);
            k.addInPlace(b.x(), b.proj(), n * dim);
            // Feed-forward block.
            k.rmsNorm(b.x(), lw.ffnNorm(), b.xb(), n, dim, c.rmsEps());
            k.quantize(b.xb(), b.xq(), b.xd(), n * dim);
            k.matmul(lw.gateUp(), b.xq(), b.xd(), b.gateUp(), n);
            k.siluMul(b.gateUp(), b.hidden(), c.ffnDim(), n);
            k.quantize(b.hidden(), b.xq(), b.xd(), n * c.ffnDim());
            k.matmul(lw.down(), b.xq(), b.xd(), b.proj(), n);
            k.addInPlace(b.x(), b.proj(), n * dim);
        }
    }

    /** Final norm and output projection of the {@code m} logit rows; copies back what is asked. */
    private void head(int m, float[] logits, int[] greedy) {
        int dim = c.dim();
        k.gatherRows(b.x(), b.logitRows(), b.gathered(), dim, m);
        k.rmsNorm(b.gathered(), w.outputNorm, b.xb(), m, dim, c.rmsEps());
        k.quantize(b.xb(), b.xq(), b.xd(), m * dim);
        k.matmul(w.output, b.xq(), b.xd(), b.logits(), m);
        if (greedy != null) {
            k.argmax(b.logits(), b.argmax(), c.vocabSize(), m);
            ctx.copy(b.argmax(), greedy, m);
        }
        if (logits != null) {
            ctx.copy(b.logits(), logits, m * c.vocabSize());
        }
        if (greedy == null && logits == null) {
            ctx.synchronize();
        }
    }

    /** Frees all device memory of this model. */
    @Override
    public void close() {
        ctx.close();
    }

    @Override
    public String toString() {
        return "CudaModel on " + ctx.deviceName() + " " + c + ", " + plan.maxRows() + " rows per step, "
                + plan.kvPositions() + " KV positions";
    }
}
