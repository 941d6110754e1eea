package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendChoice;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.backend.cuda.CudaBatchForward;
import dev.parley.engine.backend.cuda.CudaModel;
import dev.parley.engine.backend.cuda.CudaOptions;
import dev.parley.engine.backend.cuda.CudaProbe;
import dev.parley.engine.backend.cuda.CudaSequence;
import dev.parley.engine.backend.cuda.CudaStatus;
import dev.parley.engine.backend.cuda.GpuMemory;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A loaded model: its GGUF file (memory-mapped, owned), configuration, checked weights and the
 * backend that computes with them. Sessions created from it share the weights and the backend;
 * each holds its own state and KV cache. Closing stops the backend's threads and unmaps the file,
 * after which no session may be used.
 *
 * <p>With the CUDA backend ({@link BackendKind#CUDA}, or {@link BackendKind#AUTO} when a GPU answers) the weights
 * are uploaded once to a {@link CudaModel} (as Q8_0) and sessions run there, each with blocks of its device KV cache.
 */
public final class LlamaModel implements AutoCloseable {

    /** Tokens per prefill chunk unless a session asks otherwise. */
    public static final int DEFAULT_CHUNK = 64;

    private final GgufFile gguf;
    private final Configuration config;
    private final Weights weights;
    private final ModelOptions options;
    private final Backend backend;
    private final Transformer transformer;
    private final Arena arena;
    private final Weights stored;
    private final BackendChoice choice;
    private final CudaModel cuda; // null on the CPU

    private LlamaModel(GgufFile gguf, Configuration config, Weights stored, Weights weights, ModelOptions options,
                       Backend backend, Arena arena, BackendChoice choice, CudaModel cuda) {
        this.gguf = gguf;
        this.stored = stored;
        this.arena = arena;
        this.config = config;
        this.weights = weights;
        this.options = options;
        this.backend = backend;
        this.choice = choice;
        this.cuda = cuda;
        this.transformer = backend == null ? null : new Transformer(config, weights, backend);
    }

    /**
     * Opens {@code path} and checks its configuration and every weight tensor.
     *
     * @throws dev.parley.engine.gguf.GgufException when the model cannot be run (the message says why)
     * @throws IOException                          when the file cannot be read
     */
    public static LlamaModel load(Path path, ModelOptions options) throws IOException {
        return load(path, options, LoadProgress.NONE);
    }

    /**
     * Like {@link #load(Path, ModelOptions)}, reporting the progress of quantizing on load (with
     * {@link WeightFormat#INT8}) to {@code progress}. The quantized weights live in an arena owned by the model.
     */
    public static LlamaModel load(Path path, ModelOptions options, LoadProgress progress) throws IOException {
        // The CUDA driver is probed (once per process) only when the GPU is asked for or may be used.
        CudaStatus gpu = options.backend().cpu() ? CudaStatus.unavailable("not probed") : CudaProbe.status();
        BackendChoice resolved = BackendChoice.resolve(options.backend(), gpu);
        GgufFile gguf = GgufFile.open(path);
        Arena arena = Arena.ofShared();
        CudaModel cuda = null;
        try {
            Configuration config = Configuration.fromGguf(gguf);
            BackendChoice choice = onCpuUnlessCudaRuns(resolved, options.backend(), config);
            Weights stored = Weights.load(gguf, config);
            if (choice.kind() == BackendKind.CUDA) {
                // The GPU quantizes every matrix to Q8_0 itself while uploading; nothing is converted on the host.
                cuda = CudaModel.load(gpu, config, stored, CudaOptions.defaults(),
                        done -> progress.update(Math.min(done, stored.bytesPerToken()), stored.bytesPerToken()));
                return new LlamaModel(gguf, config, stored, stored, options, null, arena, choice, cuda);
            }
            Weights weights = WeightQuantizer.quantize(stored, options, arena, progress);
            return new LlamaModel(gguf, config, stored, weights, options,
                    Backend.create(choice.kind(), options.threads()), arena, choice, null);
        } catch (IOException | RuntimeException e) {
            if (cuda != null) {
                cuda.close();
            }
            arena.close();
            gguf.close();
            throw e;
        }
    }

    /** {@code choice}, or the vector backend when the GPU's forward pass does not compute {@code arch}. */
    private static BackendChoice onCpuUnlessCudaRuns(BackendChoice choice, BackendKind requested, Configuration config)
            throws dev.parley.engine.gguf.GgufException {
        Architecture arch = config.architecture();
        // The GPU's RoPE has no attn_factor (mscale) either.
        boolean runs = arch.runsOnCuda() && config.variant().ropeAttnFactor() == 1f;
        if (choice.kind() != BackendKind.CUDA || runs) {
            return choice;
        }
        if (requested == BackendKind.CUDA) {
            throw new dev.parley.engine.gguf.GgufException("backend cuda: expected a llama or qwen2 model but found "
                    + arch.ggufName() + ", which the GPU backend does not run yet; use --backend auto or cpu");
        }
        return new BackendChoice(BackendKind.VECTOR, "the GPU backend does not run " + arch.ggufName()
                + " yet: using the CPU (vector)");
    }

    /** The backend that runs this model and why (e.g. auto without a GPU: "no CUDA driver: using the CPU (vector)"). */
    public BackendChoice backendChoice() { return choice; }

    /** The GPU model, when this model runs on CUDA. */
    public Optional<CudaModel> cudaModel() { return Optional.ofNullable(cuda); }

    /** Bytes this model holds in GPU memory, or -1 when it runs on the CPU. */
    public long gpuBytes() { return cuda == null ? -1 : cuda.allocatedBytes(); }

    /** The GPU's memory now, when this model runs on CUDA. */
    public Optional<GpuMemory> gpuMemory() { return cuda == null ? Optional.empty() : Optional.of(cuda.memory()); }

    public Configuration config() { return config; }

    public GgufFile gguf() { return gguf; }

    public ModelOptions options() { return options; }

    public Weights weights() { return weights; }

    /** Bytes of tensor data read per generated token (for bandwidth figures). */
    public long weightBytes() {
        return weights.bytesPerToken();
    }

    /**
     * A new sequence with room for {@code contextLength} positions, prefilling in chunks of
     * {@link #DEFAULT_CHUNK} tokens.
     *
     * @throws IllegalArgumentException when {@code contextLength} exceeds the model's context
     */
    public InferenceSession newSession(int contextLength) {
        return newSession(contextLength, DEFAULT_CHUNK);
    }

    /** Like {@link #newSession(int)} with prompt chunks of at most {@code chunkSize} tokens. */
    public InferenceSession newSession(int contextLength, int chunkSize) {
        if (contextLength < 1 || contextLength > config.contextLength()) {
            throw new IllegalArgumentException("expected a context length from 1 to the model's "
                    + config.contextLength() + " but found " + contextLength);
        }
        if (chunkSize < 1) {
            throw new IllegalArgumentException("expected a chunk size of at least 1 but found " + chunkSize);
        }
        int chunk = Math.min(chunkSize, contextLength);
        if (cuda != null) {
            return new InferenceSession(new CudaSequence(cuda, chunk), null, new float[config.vocabSize()],
                    contextLength);
        }
        KvCache cache = KvCache.create(config, contextLength, options.kv(), backend);
        SessionState state = new SessionState(config, chunk, contextLength, backend.threads());
        return new InferenceSession(transformer, state, cache, contextLength);
    }

    /**
     * A batched stepper for a scheduler: steps of up to {@code maxRows} rows from up to {@code slots} sequences of
     * at most {@code maxContext} positions each, over a pool of {@code blocks} KV blocks of {@code blockSize}
     * positions in the model's KV format.
     *
     * @throws IllegalArgumentException when a size is not positive, {@code maxContext} exceeds the model's context,
     *                                  or the pool is too large to address
     */
    public BatchForward newBatchForward(int maxRows, int slots, int maxContext, int blockSize, int blocks) {
        if (maxRows < 1 || slots < 1 || blockSize < 1 || blocks < 1) {
            throw new IllegalArgumentException("expected positive sizes but found " + maxRows + " rows, " + slots
                    + " slots, blocks of " + blockSize + " and " + blocks + " blocks");
        }
        if (maxContext < 1 || maxContext > config.contextLength()) {
            throw new IllegalArgumentException("expected a context length from 1 to the model's "
                    + config.contextLength() + " but found " + maxContext);
        }
        if (cuda != null) {
            if (slots > cuda.plan().maxRows()) {
                throw new IllegalArgumentException("expected at most " + cuda.plan().maxRows()
                        + " running sequences on the GPU (its rows per step) but found " + slots);
            }
            return new CudaBatchForward(cuda, maxRows, blockSize, blocks);
        }
        long positions = (long) blocks * blockSize;
        if (positions * config.kvDim() > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a KV pool of " + blocks + " blocks of " + blockSize
                    + " positions is too large: at most " + (Integer.MAX_VALUE - 16) / ((long) config.kvDim() * blockSize)
                    + " blocks fit in one pool for this model");
        }
        KvCache pool = KvCache.create(config, (int) positions, options.kv(), backend);
        SessionState state = new SessionState(config, maxRows, maxContext, backend.threads());
        long perBlock = KvCache.bytesFor(config, blockSize, options.kv());
        return new CpuBatchForward(transformer, state, pool, blockSize, blocks, slots, perBlock, config.vocabSize());
    }

    /**
     * The memory this model uses as loaded, plus a KV cache of {@code kv} and the scratch buffers of one session
     * of {@code contextLength} positions and prefill chunks of {@link #DEFAULT_CHUNK}.
     */
    public MemoryReport memoryReport(int contextLength, KvFormat kv) {
        return MemoryReport.estimate(config, stored, options.withKv(kv), contextLength,
                Math.min(DEFAULT_CHUNK, contextLength), backend == null ? 1 : backend.threads());
    }

    /** Bytes of off-heap memory holding weights quantized on load (0 when nothing was quantized). */
    public long quantizedBytes() {
        var mapped = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<Object, Boolean>());
        mapped.addAll(stored.distinctMatrices());
        long sum = 0;
        for (var t : weights.distinctMatrices()) {
            if (!mapped.contains(t)) {
                sum += t.byteSize();
            }
        }
        return sum;
    }

    @Override
    public void close() {
        if (backend != null) {
            backend.close();
        }
        if (cuda != null) {
            cuda.close();
        }
        arena.close();
        gguf.close();
    }

    @Override
    public String toString() {
        return "LlamaModel " + gguf.path().getFileName() + " " + config + " on " + (cuda != null ? cuda : backend);
    }
}
