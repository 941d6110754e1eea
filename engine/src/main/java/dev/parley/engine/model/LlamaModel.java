package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
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

    private LlamaModel(GgufFile gguf, Configuration config, Weights weights, ModelOptions options, Backend backend) {
        this.gguf = gguf;
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
        GgufFile gguf = GgufFile.open(path);
        try {
            Configuration config = Configuration.fromGguf(gguf);
            Weights weights = Weights.load(gguf, config);
            return new LlamaModel(gguf, config, weights, options, Backend.create(options.backend(), options.threads()));
        } catch (IOException | RuntimeException e) {
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
        KvCache cache = new F32KvCache(config.layers(), contextLength, config.kvDim(), backend);
        SessionState state = new SessionState(config, chunk, contextLength, backend.threads());
        return new InferenceSession(transformer, state, cache, contextLength);
    }

    @Override
    public void close() {
        backend.close();
        gguf.close();
    }

    @Override
    public String toString() {
        return "LlamaModel " + gguf.path().getFileName() + " " + config + " on " + backend;
    }
}
