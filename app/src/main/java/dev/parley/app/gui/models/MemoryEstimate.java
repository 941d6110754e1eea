package dev.parley.app.gui.models;

import dev.parley.engine.model.KvFormat;

/**
 * The memory a model needs to run, as the manager lists it: the weights file (memory-mapped, as stored) plus the KV
 * cache of {@code context} positions in the chosen precision. The KV figures follow the engine's caches: F32 4 bytes
 * and F16 2 bytes per value, INT8 one byte per value plus a 4-byte scale per (layer, position, KV head).
 *
 * @param layers  transformer blocks
 * @param kvHeads key/value heads
 * @param headDim width of one head
 */
public record MemoryEstimate(int layers, int kvHeads, int headDim) {

    public MemoryEstimate {
        if (layers <= 0 || kvHeads <= 0 || headDim <= 0) {
            throw new IllegalArgumentException("expected positive layers, KV heads and head width but found "
                    + layers + ", " + kvHeads + ", " + headDim);
        }
    }

    /** KV cache bytes per position (keys and values of every layer). */
    public long kvBytesPerToken(KvFormat format) {
        long values = 2L * layers * kvHeads * headDim;
        return switch (format) {
            case F32 -> 4 * values;
            case F16 -> 2 * values;
            case INT8 -> values + 2L * layers * kvHeads * Float.BYTES;
        };
    }

    /** The weights file plus the KV cache of {@code context} positions. */
    public long bytes(long fileBytes, int context, KvFormat format) {
        return fileBytes + kvBytesPerToken(format) * context;
    }
}
