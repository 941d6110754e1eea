package dev.parley.models.gguf;

import dev.parley.engine.gguf.GgmlType;
import java.util.Locale;

/**
 * A file type as {@code llama-quantize} makes it ({@code llama_ftype}): the base type of the weight matrices and,
 * for the K-quant mixes, llama.cpp's per-tensor choices ({@code llama_tensor_get_type} in {@code llama-quant.cpp}):
 * <ul>
 *   <li>Q4_K_M / Q5_K_M: base Q4_K / Q5_K; {@code output.weight} Q6_K, and {@code token_embd.weight} too when the
 *       file has no {@code output.weight} (tied); {@code attn_v} (and a fused {@code attn_qkv}) and {@code ffn_down}
 *       Q6_K in the layers where {@code i < n/8 || i >= 7n/8 || (i - n/8) % 3 == 2}.</li>
 *   <li>Q6_K: every matrix Q6_K (the output stays Q6_K).</li>
 *   <li>Q8_0: every matrix Q8_0.</li>
 *   <li>The pure types (F32, F16, BF16, Q4_0, and Q4_K / Q5_K as {@code llama-quantize --pure Q4_K_S / Q5_K_S}):
 *       every matrix of the base type.</li>
 * </ul>
 * Only what llama.cpp quantizes changes type: tensors of two or more dimensions whose name ends in {@code weight},
 * except norms. A row length the type's block does not divide falls back as llama.cpp does (Q4_K to Q5_0, Q5_K to
 * Q5_1, Q6_K to Q8_0); rows not a multiple of 32 stay F16.
 */
public enum QuantMix {
    F32(GgmlType.F32, 0, true),
    F16(GgmlType.F16, 1, true),
    BF16(GgmlType.BF16, 32, true),
    Q4_0(GgmlType.Q4_0, 2, true),
    Q8_0(GgmlType.Q8_0, 7, false),
    Q4_K(GgmlType.Q4_K, 14, true),
    Q5_K(GgmlType.Q5_K, 16, true),
    Q6_K(GgmlType.Q6_K, 18, false),
    Q4_K_M(GgmlType.Q4_K, 15, false),
    Q5_K_M(GgmlType.Q5_K, 17, false);

    private final GgmlType base;
    private final int fileType;
    private final boolean pure;

    QuantMix(GgmlType base, int fileType, boolean pure) {
        this.base = base;
        this.fileType = fileType;
        this.pure = pure;
    }

    /** The type most matrices get. */
    public GgmlType base() { return base; }

    /** The value of {@code general.file_type}. */
    public int fileType() { return fileType; }

    /** The mix whose name is {@code name} (case-insensitive: {@code q4_k_m}). */
    public static QuantMix parse(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        for (QuantMix m : values()) {
            if (m.name().equals(n)) {
                return m;
            }
        }
        throw new IllegalArgumentException("expected a type of " + names() + " but found '" + name + "'");
    }

    /** Every name, lower case, comma-separated. */
    public static String names() {
        StringBuilder b = new StringBuilder();
        for (QuantMix m : values()) {
            b.append(b.isEmpty() ? "" : ", ").append(m.name().toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }

    /** The pure mix of {@code type}. */
    public static QuantMix pure(GgmlType type) {
        for (QuantMix m : values()) {
            if (m.base == type && m.pure) {
                return m;
            }
        }
        if (type == GgmlType.Q8_0 || type == GgmlType.Q6_K) {
            return type == GgmlType.Q8_0 ? Q8_0 : Q6_K;
        }
        throw new IllegalArgumentException("expected a weight type of " + names() + " but found " + type);
    }

    /** Whether llama.cpp would quantize a tensor of this name and rank. */
    public static boolean quantizable(String name, int rank) {
        return rank >= 2 && name.endsWith("weight") && !name.contains("_norm.weight");
    }

    /**
     * The type of tensor {@code name} with rows of {@code rowLength} values in a file of {@code layers} blocks;
     * {@code hasOutput} says whether the file has an {@code output.weight}. Null for a tensor that keeps its type.
     */
    public GgmlType typeFor(String name, int rank, long rowLength, int layers, boolean hasOutput) {
        if (!quantizable(name, rank)) {
            return null;
        }
        GgmlType t = pure ? base : mixed(name, rowLength, layers, hasOutput);
        return fallback(t, rowLength);
    }

    private GgmlType mixed(String name, long rowLength, int layers, boolean hasOutput) {
        boolean kMix = this == Q4_K_M || this == Q5_K_M;
        if (name.equals("output.weight") || (!hasOutput && name.equals("token_embd.weight"))) {
            if (rowLength % 256 != 0) {
                return GgmlType.Q8_0;
            }
            return base == GgmlType.Q8_0 ? GgmlType.Q8_0 : GgmlType.Q6_K;
        }
        if (kMix && (name.contains("attn_v.weight") || name.contains("attn_qkv.weight") || name.contains("ffn_down"))) {
            int layer = layerOf(name);
            if (layer >= 0 && moreBits(layer, layers)) {
                return GgmlType.Q6_K;
            }
        }
        return base;
    }

    /** llama.cpp's {@code use_more_bits}. */
    static boolean moreBits(int layer, int layers) {
        return layer < layers / 8 || layer >= 7 * layers / 8 || (layer - layers / 8) % 3 == 2;
    }

    private static int layerOf(String name) {
        if (!name.startsWith("blk.")) {
            return -1;
        }
        int dot = name.indexOf('.', 4);
        try {
            return dot < 0 ? -1 : Integer.parseInt(name.substring(4, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static GgmlType fallback(GgmlType t, long rowLength) {
        if (rowLength % t.blockSize() == 0) {
            return t;
        }
        if (rowLength % 32 != 0) {
            return GgmlType.F16;
        }
        return switch (t) {
            case Q4_K -> GgmlType.Q5_0;
            case Q5_K -> GgmlType.Q5_1;
            default -> GgmlType.Q8_0;
        };
    }
}
