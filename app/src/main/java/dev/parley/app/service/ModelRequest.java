package dev.parley.app.service;

import dev.parley.engine.backend.BackendKind;
import java.nio.file.Path;
import java.util.Objects;

/** Which model to load and how: file, backend, worker threads and KV cache positions. */
public record ModelRequest(Path path, BackendKind backend, int threads, int contextSize) {
    public ModelRequest {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(backend, "backend");
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
        if (contextSize < 1) {
            throw new IllegalArgumentException("expected a context size of at least 1 but found " + contextSize);
        }
    }
}
