package dev.parley.app.cli;

import dev.parley.engine.backend.BackendKind;
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
            description = "Matrix backend: scalar (the reference) or vector (default: ${DEFAULT-VALUE}).")
    BackendKind backend;

    @Option(names = {"-c", "--context"}, paramLabel = "N", defaultValue = "2048",
            description = "Context window in tokens, at most the model's own (default: ${DEFAULT-VALUE}).")
    int context;

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
