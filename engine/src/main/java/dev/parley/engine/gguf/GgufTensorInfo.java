package dev.parley.engine.gguf;

import java.util.Arrays;

/**
 * A tensor's entry in the GGUF header ({@code gguf_tensor_info_t}).
 *
 * @param name   the tensor's name, for example {@code blk.0.attn_q.weight}
 * @param dims   dimensions in ggml order: {@code dims[0]} is the contiguous (row) length
 * @param type   storage type
 * @param offset offset of the data from the start of the tensor data section
 */
public record GgufTensorInfo(String name, long[] dims, GgmlType type, long offset) {

    public GgufTensorInfo {
        dims = dims.clone();
    }

    @Override
    public long[] dims() {
        return dims.clone();
    }

    public int rank() {
        return dims.length;
    }

    public long dim(int i) {
        return i < dims.length ? dims[i] : 1;
    }

    /** Number of elements: the product of the dimensions. */
    public long elementCount() {
        long n = 1;
        for (long d : dims) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /** Bytes of data. */
    public long byteSize() {
        return type.byteSizeFor(elementCount());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GgufTensorInfo t && t.name.equals(name) && Arrays.equals(t.dims, dims)
                && t.type == type && t.offset == offset;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(dims);
    }

    @Override
    public String toString() {
        return name + " " + type + " " + Arrays.toString(dims) + " @" + offset;
    }
}
