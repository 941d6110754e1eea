package dev.parley.engine.model;

/** A contiguous float32 KV cache: {@code keys[layer][position * kvDim + i]}, same for values. */
public final class F32KvCache implements KvCache {

    private final int capacity;
    private final int kvDim;
    private final float[][] keys;   // (layer, position, kvDim)
    private final float[][] values; // (layer, position, kvDim)

    public F32KvCache(int layers, int capacity, int kvDim) {
        this.capacity = capacity;
        this.kvDim = kvDim;
        this.keys = new float[layers][Math.multiplyExact(capacity, kvDim)];
        this.values = new float[layers][Math.multiplyExact(capacity, kvDim)];
    }

    @Override
    public int layers() { return keys.length; }

    @Override
    public int capacity() { return capacity; }

    @Override
    public int kvDim() { return kvDim; }

    @Override
    public void store(int layer, int position, float[] k, int kOffset, float[] v, int vOffset) {
        System.arraycopy(k, kOffset, keys[layer], position * kvDim, kvDim);
        System.arraycopy(v, vOffset, values[layer], position * kvDim, kvDim);
    }

    @Override
    public float keyDot(int layer, int position, int offset, float[] q, int qOffset, int length) {
        float[] k = keys[layer];
        int base = position * kvDim + offset;
        float sum = 0f;
        for (int i = 0; i < length; i++) {
            sum += k[base + i] * q[qOffset + i];
        }
        return sum;
    }

    @Override
    public void addValue(int layer, int position, int offset, float weight, float[] out, int outOffset, int length) {
        float[] v = values[layer];
        int base = position * kvDim + offset;
        for (int i = 0; i < length; i++) {
            out[outOffset + i] += weight * v[base + i];
        }
    }
}
