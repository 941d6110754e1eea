package dev.parley.engine.model;

/**
 * A KV cache of IEEE half values ({@code Float.floatToFloat16}, round to nearest even), converted back to float as
 * attention reads them. Allocated whole by the constructor: {@code 2 * 2 * layers * capacity * kvDim} bytes.
 */
public final class F16KvCache implements KvCache {

    private final int capacity;
    private final int kvDim;
    private final short[][] keys;   // (layer, position, kvDim)
    private final short[][] values; // (layer, position, kvDim)

    public F16KvCache(int layers, int capacity, int kvDim) {
        this.capacity = capacity;
        this.kvDim = kvDim;
        keys = new short[layers][Math.multiplyExact(capacity, kvDim)];
        values = new short[layers][Math.multiplyExact(capacity, kvDim)];
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
            sum += 2L * (keys[l].length + values[l].length);
        }
        return sum;
    }

    @Override
    public void store(int layer, int position, float[] k, int kOffset, float[] v, int vOffset) {
        short[] kd = keys[layer];
        short[] vd = values[layer];
        int o = position * kvDim;
        for (int i = 0; i < kvDim; i++) {
            kd[o + i] = Float.floatToFloat16(k[kOffset + i]);
            vd[o + i] = Float.floatToFloat16(v[vOffset + i]);
        }
    }

    @Override
    public float keyDot(int layer, int position, int offset, float[] q, int qOffset, int length) {
        short[] kd = keys[layer];
        int o = position * kvDim + offset;
        float sum = 0f;
        for (int i = 0; i < length; i++) {
            sum += Float.float16ToFloat(kd[o + i]) * q[qOffset + i];
        }
        return sum;
    }

    @Override
    public void read(int layer, int position, int n, int offset, int length, float[] keysT, int stride,
                     float[] out, int at) {
        short[] kd = keys[layer];
        short[] vd = values[layer];
        for (int j = 0; j < n; j++) {
            int base = (position + j) * kvDim + offset;
            int o = (at + j) * length;
            for (int i = 0; i < length; i++) {
                keysT[i * stride + at + j] = Float.float16ToFloat(kd[base + i]);
                out[o + i] = Float.float16ToFloat(vd[base + i]);
            }
        }
    }

    @Override
    public void addValue(int layer, int position, int offset, float weight, float[] out, int outOffset, int length) {
        short[] vd = values[layer];
        int o = position * kvDim + offset;
        for (int i = 0; i < length; i++) {
            out[outOffset + i] += weight * Float.float16ToFloat(vd[o + i]);
        }
    }
}
