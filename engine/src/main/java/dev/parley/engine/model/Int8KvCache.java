package dev.parley.engine.model;

/**
 * An int8 KV cache: every key and value head of every position is stored as {@code headSize} signed bytes with one
 * float scale ({@code amax / 127}, round to nearest), so {@code x ~ scale * q}.
 *
 * <p>Why one scale per (layer, position, head): a position's keys and values are written once, all together, by
 * {@link #store}, so its scale is final at once (a scale shared by a block of positions would have to be known
 * before the later positions arrive, or the block requantized); attention reads exactly one head of one position
 * per {@link #keyDot} and {@link #addValue} call, so each call applies one scale to an int8 x float loop; and
 * rewinding simply overwrites. The cost is {@code 4 / headSize} bytes per value: 0.266x the F32 bytes at head size
 * 64, 0.281x at 32.
 *
 * <p>Everything is allocated by the constructor for the whole capacity, {@link #bytesFor} bytes.
 */
public final class Int8KvCache implements KvCache {

    private final int capacity;
    private final int kvDim;
    private final int headSize;
    private final int heads;
    private final byte[][] keys;     // (layer, position, kvDim)
    private final byte[][] values;   // (layer, position, kvDim)
    private final float[][] keyScales;   // (layer, position, kvHead)
    private final float[][] valueScales; // (layer, position, kvHead)
    private final boolean vector;

    /**
     * @param vector whether to use the Vector API loops (else the scalar reference)
     * @throws IllegalArgumentException when {@code kvDim} is not a multiple of {@code headSize}
     */
    public Int8KvCache(int layers, int capacity, int kvDim, int headSize, boolean vector) {
        if (headSize < 1 || kvDim % headSize != 0) {
            throw new IllegalArgumentException("expected a KV dimension that is a multiple of the head size "
                    + headSize + " but found " + kvDim);
        }
        this.capacity = capacity;
        this.kvDim = kvDim;
        this.headSize = headSize;
        this.heads = kvDim / headSize;
        this.vector = vector;
        int n = Math.multiplyExact(capacity, kvDim);
        int s = Math.multiplyExact(capacity, heads);
        keys = new byte[layers][n];
        values = new byte[layers][n];
        keyScales = new float[layers][s];
        valueScales = new float[layers][s];
    }

    /** Bytes this cache allocates for {@code capacity} positions. */
    public static long bytesFor(int layers, int capacity, int kvDim, int headSize) {
        return 2L * layers * capacity * ((long) kvDim + 4L * (kvDim / headSize));
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
            sum += keys[l].length + values[l].length + 4L * (keyScales[l].length + valueScales[l].length);
        }
        return sum;
    }

    @Override
    public void store(int layer, int position, float[] k, int kOffset, float[] v, int vOffset) {
        quantize(k, kOffset, keys[layer], keyScales[layer], position);
        quantize(v, vOffset, values[layer], valueScales[layer], position);
    }

    private void quantize(float[] x, int xo, byte[] q, float[] scales, int position) {
        for (int h = 0; h < heads; h++) {
            int from = xo + h * headSize;
            float amax = 0f;
            for (int i = 0; i < headSize; i++) {
                amax = Math.max(amax, Math.abs(x[from + i]));
            }
            float d = amax / 127f;
            float id = d != 0f ? 1f / d : 0f;
            int qo = position * kvDim + h * headSize;
            for (int i = 0; i < headSize; i++) {
                q[qo + i] = (byte) Math.round(x[from + i] * id);
            }
            scales[position * heads + h] = d;
        }
    }

    @Override
    public float keyDot(int layer, int position, int offset, float[] q, int qOffset, int length) {
        byte[] k = keys[layer];
        float[] sc = keyScales[layer];
        float sum = 0f;
        int done = 0;
        while (done < length) {
            int at = offset + done;
            int h = at / headSize;
            int n = Math.min(length - done, (h + 1) * headSize - at);
            int ko = position * kvDim + at;
            float d = vector ? KvKernels.dotVector(k, ko, q, qOffset + done, n)
                    : KvKernels.dotScalar(k, ko, q, qOffset + done, n);
            sum += sc[position * heads + h] * d;
            done += n;
        }
        return sum;
    }

    @Override
    public void read(int layer, int position, int n, int offset, int length, float[] keysT, int stride,
                     float[] out, int at) {
        byte[] k = keys[layer];
        byte[] v = values[layer];
        float[] ks = keyScales[layer];
        float[] vs = valueScales[layer];
        for (int j = 0; j < n; j++) {
            int p = position + j;
            int o = (at + j) * length;
            int i = 0;
            while (i < length) {
                int c = offset + i;
                int h = c / headSize;
                int end = Math.min(length, i + (h + 1) * headSize - c); // the rest of head h
                float kd = ks[p * heads + h];
                float vd = vs[p * heads + h];
                int base = p * kvDim + offset;
                for (; i < end; i++) {
                    keysT[i * stride + at + j] = k[base + i] * kd;
                    out[o + i] = v[base + i] * vd;
                }
            }
        }
    }

    @Override
    public void addValue(int layer, int position, int offset, float weight, float[] out, int outOffset, int length) {
        byte[] v = values[layer];
        float[] sc = valueScales[layer];
        int done = 0;
        while (done < length) {
            int at = offset + done;
            int h = at / headSize;
            int n = Math.min(length - done, (h + 1) * headSize - at);
            float a = weight * sc[position * heads + h];
            int vo = position * kvDim + at;
            if (vector) {
                KvKernels.axpyVector(a, v, vo, out, outOffset + done, n);
            } else {
                KvKernels.axpyScalar(a, v, vo, out, outOffset + done, n);
            }
            done += n;
        }
    }
}
