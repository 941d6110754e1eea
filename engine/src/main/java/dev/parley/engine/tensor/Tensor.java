package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * A 2-D weight matrix of {@code rows} x {@code cols} stored in one ggml format inside a
 * {@link MemorySegment} (usually a slice of the memory-mapped GGUF file; nothing is copied).
 * Row {@code r} occupies bytes {@code [r * rowBytes, (r + 1) * rowBytes)}.
 *
 * <p>Each subclass knows its storage format: how to dequantize a row and how to compute the
 * reference dot product of a row with an activation row prepared the way llama.cpp prepares it
 * for that weight type (see {@link Activations}). The backends use these scalar methods as their
 * oracle.
 */
public abstract sealed class Tensor permits F32Tensor, F16Tensor, BF16Tensor, Q8_0Tensor, Q4_0Tensor, Q5_0Tensor, Q5_1Tensor,
        Q4_KTensor, Q5_KTensor, Q6_KTensor {

    private final String name;
    private final MemorySegment data;
    private final int rows;
    private final int cols;
    private final long rowBytes;

    Tensor(String name, MemorySegment data, int rows, int cols) {
        GgmlType type = type();
        if (rows <= 0 || cols <= 0) {
            throw new IllegalArgumentException(name + ": expected positive dimensions but found " + cols + " x " + rows);
        }
        this.rowBytes = type.byteSizeFor(cols);
        long need = Math.multiplyExact(rowBytes, (long) rows);
        if (data.byteSize() != need) {
            throw new IllegalArgumentException(name + ": expected " + need + " bytes for " + type + " [" + cols + ", " + rows
                    + "] but found " + data.byteSize());
        }
        this.name = name;
        this.data = data;
        this.rows = rows;
        this.cols = cols;
    }

    /**
     * Wraps {@code data} as a tensor of {@code type}.
     *
     * @throws IllegalArgumentException when the type cannot be computed with or the size is wrong
     */
    public static Tensor of(String name, GgmlType type, MemorySegment data, int rows, int cols) {
        return switch (type) {
            case F32 -> new F32Tensor(name, data, rows, cols);
            case F16 -> new F16Tensor(name, data, rows, cols);
            case BF16 -> new BF16Tensor(name, data, rows, cols);
            case Q8_0 -> new Q8_0Tensor(name, data, rows, cols);
            case Q4_0 -> new Q4_0Tensor(name, data, rows, cols);
            case Q5_0 -> new Q5_0Tensor(name, data, rows, cols);
            case Q5_1 -> new Q5_1Tensor(name, data, rows, cols);
            case Q4_K -> new Q4_KTensor(name, data, rows, cols);
            case Q5_K -> new Q5_KTensor(name, data, rows, cols);
            case Q6_K -> new Q6_KTensor(name, data, rows, cols);
            default -> throw new IllegalArgumentException(name + ": expected a tensor of type "
                    + GgmlType.supportedNames() + " but found " + type);
        };
    }

    public abstract GgmlType type();

    /** How llama.cpp rounds the activations that meet this weight type in a matmul. */
    public abstract ActivationFormat activationFormat();

    public final String name() { return name; }

    public final MemorySegment data() { return data; }

    public final int rows() { return rows; }

    public final int cols() { return cols; }

    public final long rowBytes() { return rowBytes; }

    public final long byteSize() { return data.byteSize(); }

    /** Writes the {@code cols} values of row {@code row} to {@code out[offset...]} as float. */
    public abstract void dequantizeRow(int row, float[] out, int offset);

    /** The reference (scalar) dot product of row {@code row} with activation row {@code t} of {@code x}. */
    public abstract float dot(int row, Activations x, int t);

    @Override
    public String toString() {
        return name + " " + type() + " [" + cols + ", " + rows + "]";
    }
}
