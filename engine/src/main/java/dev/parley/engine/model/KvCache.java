package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendKind;

/**
 * The keys and values of one sequence, per layer and position. Implementations choose the storage
 * (F32 now; F16, int8 or paged later); attention only goes through these methods.
 * Positions at or beyond a rewind point are simply overwritten by later stores.
 */
public interface KvCache {

    /** Bytes a cache of {@code format} allocates for {@code contextLength} positions of a model of {@code config}. */
    static long bytesFor(Configuration config, int contextLength, KvFormat format) {
        long values = 2L * config.layers() * contextLength * config.kvDim();
        return switch (format) {
            case F32 -> 4 * values;
            case F16 -> 2 * values;
            case INT8 -> Int8KvCache.bytesFor(config.layers(), contextLength, config.kvDim(), config.headSize());
        };
    }

    /** Bytes per position ({@link #bytesFor} of one position). */
    static long bytesPerToken(Configuration config, KvFormat format) {
        return bytesFor(config, 1, format);
    }

    /** A new cache of {@code format} for {@code contextLength} positions, allocated whole. */
    static KvCache create(Configuration config, int contextLength, KvFormat format, Backend math) {
        return switch (format) {
            case F32 -> new F32KvCache(config.layers(), contextLength, config.kvDim(), math);
            case F16 -> new F16KvCache(config.layers(), contextLength, config.kvDim());
            case INT8 -> new Int8KvCache(config.layers(), contextLength, config.kvDim(), config.headSize(),
                    math.kind() == BackendKind.VECTOR);
        };
    }

    /** Bytes of keys and values this cache holds (all allocated up front). */
    long bytes();

    int layers();

    /** Positions it can hold. */
    int capacity();

    /** Values per position and layer ({@code kvHeads * headSize}) for keys and for values. */
    int kvDim();

    /** Stores the key {@code k[kOffset .. +kvDim)} and value {@code v[vOffset .. +kvDim)} of {@code position}. */
    void store(int layer, int position, float[] k, int kOffset, float[] v, int vOffset);

    /** Dot product of the stored key slice {@code [offset, offset + length)} at {@code position} with {@code q[qOffset..]}. */
    float keyDot(int layer, int position, int offset, float[] q, int qOffset, int length);

    /** {@code out[outOffset + i] += weight * value[offset + i]} for i below {@code length}. */
    void addValue(int layer, int position, int offset, float weight, float[] out, int outOffset, int length);

    /**
     * Reads positions {@code [position, position + n)} of the slice {@code [offset, offset + length)} as floats, for
     * blocked attention: component i of the key of position {@code position + j} goes to
     * {@code keysT[i * stride + at + j]} (transposed: one row per component), of its value to
     * {@code values[(at + j) * length + i]}. The floats are what {@link #keyDot} and {@link #addValue} multiply by
     * (int8: quant times scale).
     */
    void read(int layer, int position, int n, int offset, int length, float[] keysT, int stride, float[] values,
              int at);
}
