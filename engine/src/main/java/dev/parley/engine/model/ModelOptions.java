package dev.parley.engine.model;

import dev.parley.engine.backend.BackendKind;
import java.util.Objects;

/**
 * How a model is run.
 *
 * @param backend        which backend computes the matrix products
 * @param threads        worker threads of the vector backend and of quantization on load (at least 1)
 * @param weights        weights as stored or quantized to int8 (Q8_0) on load
 * @param keepEmbeddings with {@link WeightFormat#INT8}: keep the token embeddings and the output matrix at their
 *                       stored precision (the default) instead of quantizing them too
 * @param kv             storage of the KV cache of new sessions
 */
public record ModelOptions(BackendKind backend, int threads, WeightFormat weights, boolean keepEmbeddings,
                           KvFormat kv) {

    public ModelOptions {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(kv, "kv");
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
    }

    /** Weights as stored and an F32 KV cache. */
    public ModelOptions(BackendKind backend, int threads) {
        this(backend, threads, WeightFormat.STORED, true, KvFormat.F32);
    }

    /** The vector backend on every available processor. */
    public static ModelOptions defaults() {
        return new ModelOptions(BackendKind.VECTOR, Runtime.getRuntime().availableProcessors());
    }

    /** These options with weights in {@code format}. */
    public ModelOptions withWeights(WeightFormat format) {
        return new ModelOptions(backend, threads, format, keepEmbeddings, kv);
    }

    /** These options with a KV cache in {@code format}. */
    public ModelOptions withKv(KvFormat format) {
        return new ModelOptions(backend, threads, weights, keepEmbeddings, format);
    }

    /** These options keeping (or not) the embeddings and output matrix at stored precision. */
    public ModelOptions withKeepEmbeddings(boolean keep) {
        return new ModelOptions(backend, threads, weights, keep, kv);
    }
}
