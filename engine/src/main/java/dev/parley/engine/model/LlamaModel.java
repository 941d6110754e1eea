package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * A loaded model: its GGUF file (memory-mapped, owned), configuration, checked weights and the
 * backend that computes with them. Sessions created from it share the weights and the backend;
 * each holds its own state and KV cache. Closing stops the backend's threads and unmaps the file,
 * after which no session may be used.
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

    private LlamaModel(GgufFile gguf, Configuration config, Weights stored, Weights weights, ModelOptions options,
                       Backend backend, Arena arena) {
        this.gguf = gguf;
        this.stored = stored;
        this.arena = arena;
        this.config = config;
        this.weights = weights;
        this.options = options;
        this.backend = backend;
        this.transformer = new Transformer(config, weights, backend);
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
        GgufFile gguf = GgufFile.open(path);
        Arena arena = Arena.ofShared();
        try {
            Configuration config = Configuration.fromGguf(gguf);
            Weights stored = Weights.load(gguf, config);
            Weights weights = WeightQuantizer.quantize(stored, options, arena, progress);
            return new LlamaModel(gguf, config, stored, weights, options,
                    Backend.create(options.backend(), options.threads()), arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            gguf.close();
            throw e;
        }
    }

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
                Math.min(DEFAULT_CHUNK, contextLength), backend.threads());
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
        backend.close();
        arena.close();
        gguf.close();
    }

    @Override
    public String toString() {
        return "LlamaModel " + gguf.path().getFileName() + " " + config + " on " + backend;
    }
}
