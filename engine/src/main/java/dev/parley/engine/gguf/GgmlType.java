package dev.parley.engine.gguf;

/**
 * ggml tensor storage types as numbered in the GGUF spec ({@code enum ggml_type}).
 * {@code blockSize} elements are stored in {@code typeSize} bytes. Only the types marked
 * {@code supported} can be computed with; the others are known so that errors can name them.
 */
public enum GgmlType {
    F32(0, 1, 4, true),
    F16(1, 1, 2, true),
    Q4_0(2, 32, 2 + 16, true),
    Q4_1(3, 32, 2 + 2 + 16, false),
    Q5_0(6, 32, 2 + 4 + 16, true),
    Q5_1(7, 32, 2 + 2 + 4 + 16, true),
    Q8_0(8, 32, 2 + 32, true),
    Q8_1(9, 32, 4 + 4 + 32, false),
    Q2_K(10, 256, 84, false),
    Q3_K(11, 256, 110, false),
    Q4_K(12, 256, 144, true),
    Q5_K(13, 256, 176, true),
    Q6_K(14, 256, 210, true),
    Q8_K(15, 256, 292, false),
    IQ2_XXS(16, 256, 66, false),
    IQ2_XS(17, 256, 74, false),
    IQ3_XXS(18, 256, 98, false),
    IQ1_S(19, 256, 50, false),
    IQ4_NL(20, 32, 18, false),
    IQ3_S(21, 256, 110, false),
    IQ2_S(22, 256, 82, false),
    IQ4_XS(23, 256, 136, false),
    I8(24, 1, 1, false),
    I16(25, 1, 2, false),
    I32(26, 1, 4, false),
    I64(27, 1, 8, false),
    F64(28, 1, 8, false),
    IQ1_M(29, 256, 56, false),
    BF16(30, 1, 2, true),
    TQ1_0(34, 256, 54, false),
    TQ2_0(35, 256, 66, false),
    MXFP4(39, 32, 17, false);

    private final int id;
    private final int blockSize;
    private final int typeSize;
    private final boolean supported;

    GgmlType(int id, int blockSize, int typeSize, boolean supported) {
        this.id = id;
        this.blockSize = blockSize;
        this.typeSize = typeSize;
        this.supported = supported;
    }

    public int id() { return id; }

    /** Elements per block (1 for plain float types). */
    public int blockSize() { return blockSize; }

    /** Bytes per block. */
    public int typeSize() { return typeSize; }

    /** Whether Parley can compute with tensors of this type. */
    public boolean supported() { return supported; }

    /**
     * Bytes needed for {@code elements} values; {@code elements} must be a multiple of the block size.
     *
     * @throws IllegalArgumentException when it is not
     */
    public long byteSizeFor(long elements) {
        if (elements % blockSize != 0) {
            throw new IllegalArgumentException("expected a multiple of " + blockSize + " elements for "
                    + this + " but found " + elements);
        }
        return Math.multiplyExact(elements / blockSize, (long) typeSize);
    }

    /** The names of the types Parley computes with, for error messages: "F32, F16, ...". */
    public static String supportedNames() {
        StringBuilder b = new StringBuilder();
        for (GgmlType t : values()) {
            if (t.supported) {
                b.append(b.isEmpty() ? "" : ", ").append(t);
            }
        }
        return b.toString();
    }

    /** The type with GGUF id {@code id}, or null when the id is unknown. */
    public static GgmlType byId(int id) {
        for (GgmlType t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        return null;
    }
}
