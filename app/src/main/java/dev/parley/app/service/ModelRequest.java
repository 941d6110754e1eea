package dev.parley.app.service;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.WeightFormat;
import java.nio.file.Path;
import java.util.Objects;

/** Which model to load and how: file, backend, worker threads, KV cache positions, weight and KV precision. */
public record ModelRequest(Path path, BackendKind backend, int threads, int contextSize, WeightFormat weights,
                           KvFormat kvCache) {
    public ModelRequest {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(kvCache, "kvCache");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(backend, "backend");
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
        if (contextSize < 1) {
            throw new IllegalArgumentException("expected a context size of at least 1 but found " + contextSize);
        }
    }

    /** Weights as stored in the file and an F32 KV cache. */
    public ModelRequest(Path path, BackendKind backend, int threads, int contextSize) {
        this(path, backend, threads, contextSize, WeightFormat.STORED, KvFormat.F32);
    }
}
