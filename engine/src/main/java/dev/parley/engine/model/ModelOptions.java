package dev.parley.engine.model;

import dev.parley.engine.backend.BackendKind;
import java.util.Objects;

/**
 * How a model is run.
 *
 * @param backend which backend computes the matrix products
 * @param threads worker threads of the vector backend (at least 1)
 */
public record ModelOptions(BackendKind backend, int threads) {

    public ModelOptions {
        Objects.requireNonNull(backend, "backend");
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
    }

    /** The vector backend on every available processor. */
    public static ModelOptions defaults() {
        return new ModelOptions(BackendKind.VECTOR, Runtime.getRuntime().availableProcessors());
    }
}
