package dev.parley.app.cli;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.WeightFormat;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options shared by the commands that run a model: which file, backend, threads and context. */
public final class ModelArgs {
    @Option(names = {"-m", "--model"}, paramLabel = "FILE", description = "The GGUF model file.")
    Path model;

    @Option(names = {"-t", "--threads"}, paramLabel = "N",
            description = "Worker threads (default: the number of processors).")
    Integer threads;

    @Option(names = "--backend", paramLabel = "KIND", defaultValue = "vector",
            description = "Backend: auto (the GPU when a CUDA driver answers, else the CPU), cpu (= vector), cuda, "
                    + "scalar (the reference) or vector (default: ${DEFAULT-VALUE}).")
    BackendKind backend;

    @Option(names = {"-c", "--context", "--ctx"}, paramLabel = "N", defaultValue = "2048",
            description = "Context window in tokens, at most the model's own (default: ${DEFAULT-VALUE}).")
    int context;

    @Option(names = "--weights", paramLabel = "FORMAT", defaultValue = "stored",
            description = "Weights as stored in the file, or int8: F32/F16/BF16 matrices quantized to Q8_0 on load "
                    + "(default: ${DEFAULT-VALUE}).")
    WeightFormat weights;

    @Option(names = "--keep-embeddings", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "With --weights int8, keep the token embeddings and output matrix at their stored "
                    + "precision (default: on; --no-keep-embeddings quantizes them too).")
    boolean keepEmbeddings;

    @Option(names = "--kv", paramLabel = "FORMAT", defaultValue = "f32",
            description = "KV cache storage: f32, f16 or int8 (a scale per position and head) (default: ${DEFAULT-VALUE}).")
    KvFormat kv;

    /** The engine options these arguments ask for. */
    public ModelOptions options() {
        return new ModelOptions(backend(), threads(), weights, keepEmbeddings, kv);
    }

    /** The model file; a usage error when none was given. */
    public Path model() {
        if (model == null) {
            throw new UsageException("Missing required option: '--model=FILE'");
        }
        return model;
    }

    /** The model file, or null when none was given (commands that can choose one themselves). */
    public Path modelOrNull() {
        return model;
    }

    /** Threads to use: the option, or every processor. */
    public int threads() {
        if (threads != null && threads < 1) {
            throw new UsageException("--threads must be at least 1, found " + threads);
        }
        return threads != null ? threads : Runtime.getRuntime().availableProcessors();
    }

    /** The backend. */
    public BackendKind backend() {
        return backend;
    }

    /** The requested context window. */
    public int context() {
        if (context < 1) {
            throw new UsageException("--context must be at least 1, found " + context);
        }
        return context;
    }
}
