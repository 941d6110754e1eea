package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;

/**
 * A contiguous float32 KV cache: {@code keys[layer][position * kvDim + i]}, same for values; its
 * dot products and accumulations run on the model's backend.
 */
public final class F32KvCache implements KvCache {

    private final int capacity;
    private final int kvDim;
    private final float[][] keys;   // (layer, position, kvDim)
    private final float[][] values; // (layer, position, kvDim)
    private final Backend math;

    public F32KvCache(int layers, int capacity, int kvDim, Backend math) {
        this.math = math;
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
    public long bytes() {
        long sum = 0;
        for (int l = 0; l < keys.length; l++) {
            sum += 4L * (keys[l].length + values[l].length);
        }
        return sum;
    }

    @Override
    public void store(int layer, int position, float[] k, int kOffset, float[] v, int vOffset) {
        System.arraycopy(k, kOffset, keys[layer], position * kvDim, kvDim);
        System.arraycopy(v, vOffset, values[layer], position * kvDim, kvDim);
    }

    @Override
    public float keyDot(int layer, int position, int offset, float[] q, int qOffset, int length) {
        return math.dot(keys[layer], position * kvDim + offset, q, qOffset, length);
    }

    @Override
    public void read(int layer, int position, int n, int offset, int length, float[] keysT, int stride,
                     float[] out, int at) {
        float[] k = keys[layer];
        float[] v = values[layer];
        for (int j = 0; j < n; j++) {
            int base = (position + j) * kvDim + offset;
            System.arraycopy(v, base, out, (at + j) * length, length);
            for (int i = 0; i < length; i++) {
                keysT[i * stride + at + j] = k[base + i];
            }
        }
    }

    @Override
    public void addValue(int layer, int position, int offset, float weight, float[] out, int outOffset, int length) {
        math.axpy(weight, values[layer], position * kvDim + offset, out, outOffset, length);
    }
}
