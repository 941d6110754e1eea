package dev.parley.engine.model;

/**
 * The keys and values of one sequence, per layer and position. Implementations choose the storage
 * (F32 now; F16, int8 or paged later); attention only goes through these methods.
 * Positions at or beyond a rewind point are simply overwritten by later stores.
 */
public interface KvCache {

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
}
