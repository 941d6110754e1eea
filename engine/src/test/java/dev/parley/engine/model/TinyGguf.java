package dev.parley.engine.model;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.RandomTensors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes small random-weight GGUF v3 models for tests: 64-dim, 2 layers, 4 heads over 2 KV heads,
 * vocabulary 96, with the matrices in a chosen type. Options break it on purpose to test errors.
 */
final class TinyGguf {
    static final int DIM = 64;
    static final int LAYERS = 2;
    static final int HEADS = 4;
    static final int KV_HEADS = 2;
    static final int HEAD = 16;
    static final int FFN = 96;
    static final int VOCAB = 96;
    static final int CONTEXT = 128;

    /** Model dimensions. */
    record Shape(int dim, int layers, int heads, int kvHeads, int ffn, int vocab, int context) {
        int head() { return dim / heads; }
    }

    static final Shape TINY = new Shape(DIM, LAYERS, HEADS, KV_HEADS, FFN, VOCAB, CONTEXT);
    /** The shape of SmolLM2-135M, for benchmarks. */
    static final Shape SMOLLM2_135M = new Shape(576, 30, 9, 3, 1536, 49152, 2048);

    private final Map<String, Object> metadata = new LinkedHashMap<>();
    private final List<Object[]> tensors = new ArrayList<>(); // name, type, long[] dims, byte[] data
    private final Random rnd = new Random(7);

    /** A complete model of {@code arch} ("llama" or "qwen2") with matrices of {@code type}. */
    static TinyGguf model(String arch, GgmlType type, boolean tied) {
        return model(arch, type, tied, TINY);
    }

    /** A complete model of {@code shape}. */
    static TinyGguf model(String arch, GgmlType type, boolean tied, Shape shape) {
        int dim = shape.dim();
        int qDim = shape.heads() * shape.head();
        int kvDim = shape.kvHeads() * shape.head();
        int ffn = shape.ffn();
        TinyGguf g = new TinyGguf();
        g.metadata.put("general.architecture", arch);
        g.metadata.put(arch + ".embedding_length", dim);
        g.metadata.put(arch + ".block_count", shape.layers());
        g.metadata.put(arch + ".attention.head_count", shape.heads());
        g.metadata.put(arch + ".attention.head_count_kv", shape.kvHeads());
        g.metadata.put(arch + ".feed_forward_length", ffn);
        g.metadata.put(arch + ".context_length", shape.context());
        g.metadata.put(arch + ".attention.layer_norm_rms_epsilon", 1e-5f);
        g.metadata.put(arch + ".rope.freq_base", 10000f);
        g.matrix("token_embd.weight", type, dim, shape.vocab());
        for (int l = 0; l < shape.layers(); l++) {
            String b = "blk." + l + ".";
            g.norm(b + "attn_norm.weight", dim);
            g.matrix(b + "attn_q.weight", type, dim, qDim);
            g.matrix(b + "attn_k.weight", type, dim, kvDim);
            g.matrix(b + "attn_v.weight", type, dim, kvDim);
            if (arch.equals("qwen2")) {
                g.norm(b + "attn_q.bias", qDim);
                g.norm(b + "attn_k.bias", kvDim);
                g.norm(b + "attn_v.bias", kvDim);
            }
            g.matrix(b + "attn_output.weight", type, qDim, dim);
            g.norm(b + "ffn_norm.weight", dim);
            g.matrix(b + "ffn_gate.weight", type, dim, ffn);
            g.matrix(b + "ffn_up.weight", type, dim, ffn);
            g.matrix(b + "ffn_down.weight", type, ffn, dim);
        }
        g.norm("output_norm.weight", dim);
        if (!tied) {
            g.matrix("output.weight", type, dim, shape.vocab());
        }
        return g;
    }

    /**
     * Adds a SentencePiece-style vocabulary of {@code vocab} pieces: {@code <unk>}, {@code <s>}, {@code </s>}, then
     * distinct lower-case pieces, every other one starting with the word marker, so that any id decodes to text.
     */
    TinyGguf withVocab(int vocab) {
        String[] tokens = new String[vocab];
        float[] scores = new float[vocab];
        int[] types = new int[vocab];
        tokens[0] = "<unk>";
        tokens[1] = "<s>";
        tokens[2] = "</s>";
        types[0] = 2;
        types[1] = 3;
        types[2] = 3;
        for (int i = 3; i < vocab; i++) {
            StringBuilder piece = new StringBuilder(i % 2 == 0 ? "\u2581" : "");
            for (int n = i - 3; ; n = n / 26 - 1) {
                piece.append((char) ('a' + n % 26));
                if (n < 26) {
                    break;
                }
            }
            tokens[i] = piece.toString();
            scores[i] = -i;
            types[i] = 1;
        }
        put("tokenizer.ggml.model", "llama");
        put("tokenizer.ggml.tokens", tokens);
        put("tokenizer.ggml.scores", scores);
        put("tokenizer.ggml.token_type", types);
        put("tokenizer.ggml.bos_token_id", 1);
        put("tokenizer.ggml.eos_token_id", 2);
        put("tokenizer.ggml.unknown_token_id", 0);
        return this;
    }

    TinyGguf put(String key, Object value) {
        metadata.put(key, value);
        return this;
    }

    TinyGguf remove(String tensor) {
        tensors.removeIf(t -> t[0].equals(tensor));
        return this;
    }

    /** Replaces {@code tensor} by an F32 one of shape {@code dims}. */
    TinyGguf reshape(String tensor, long... dims) {
        remove(tensor);
        int n = 1;
        for (long d : dims) {
            n *= (int) d;
        }
        tensors.add(new Object[] {tensor, GgmlType.F32, dims, RandomTensors.bytes(GgmlType.F32, 1, n, rnd)});
        return this;
    }

    private void matrix(String name, GgmlType type, int cols, int rows) {
        tensors.add(new Object[] {name, type, new long[] {cols, rows}, scaled(type, rows, cols)});
    }

    /** Random values of moderate size, so that activations stay well-conditioned through the layers. */
    private byte[] scaled(GgmlType type, int rows, int cols) {
        if (type == GgmlType.Q8_0 || type == GgmlType.Q4_0) {
            return RandomTensors.bytes(type, rows, cols, rnd);
        }
        byte[] f32 = RandomTensors.bytes(GgmlType.F32, rows, cols, rnd);
        ByteBuffer in = ByteBuffer.wrap(f32).order(ByteOrder.LITTLE_ENDIAN);
        int n = rows * cols;
        ByteBuffer out = ByteBuffer.allocate((int) type.byteSizeFor(n)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            float v = in.getFloat(4 * i) * 0.15f;
            switch (type) {
                case F32 -> out.putFloat(v);
                case F16 -> out.putShort(Float.floatToFloat16(v));
                case BF16 -> out.putShort(dev.parley.engine.tensor.Bf16.fromFloat(v));
                default -> throw new IllegalArgumentException(type.toString());
            }
        }
        return out.array();
    }

    private void norm(String name, int n) {
        ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            b.putFloat(0.5f + rnd.nextFloat());
        }
        tensors.add(new Object[] {name, GgmlType.F32, new long[] {n}, b.array()});
    }

    Path write(Path file) throws IOException {
        java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
        head.writeBytes("GGUF".getBytes(StandardCharsets.US_ASCII));
        u32(head, 3);
        u64(head, tensors.size());
        u64(head, metadata.size());
        for (Map.Entry<String, Object> e : metadata.entrySet()) {
            string(head, e.getKey());
            switch (e.getValue()) {
                case Integer i -> { u32(head, 4); u32(head, i); }
                case Float f -> { u32(head, 6); u32(head, Float.floatToIntBits(f)); }
                case String s -> { u32(head, 8); string(head, s); }
                case String[] a -> {
                    u32(head, 9);
                    u32(head, 8);
                    u64(head, a.length);
                    for (String x : a) {
                        string(head, x);
                    }
                }
                case float[] a -> {
                    u32(head, 9);
                    u32(head, 6);
                    u64(head, a.length);
                    for (float x : a) {
                        u32(head, Float.floatToIntBits(x));
                    }
                }
                case int[] a -> {
                    u32(head, 9);
                    u32(head, 5);
                    u64(head, a.length);
                    for (int x : a) {
                        u32(head, x);
                    }
                }
                default -> throw new IllegalArgumentException("unsupported metadata " + e);
            }
        }
        long offset = 0;
        List<Long> offsets = new ArrayList<>();
        for (Object[] t : tensors) {
            string(head, (String) t[0]);
            long[] dims = (long[]) t[2];
            u32(head, dims.length);
            for (long d : dims) {
                u64(head, d);
            }
            u32(head, ((GgmlType) t[1]).id());
            u64(head, offset);
            offsets.add(offset);
            offset = align(offset + ((byte[]) t[3]).length);
        }
        while (head.size() % 32 != 0) {
            head.write(0);
        }
        ByteArrayOutputStream all = head;
        long base = all.size();
        for (int i = 0; i < tensors.size(); i++) {
            while (all.size() < base + offsets.get(i)) {
                all.write(0);
            }
            all.writeBytes((byte[]) tensors.get(i)[3]);
        }
        try (var out = Files.newOutputStream(file)) {
            all.writeTo(out);
        }
        return file;
    }

    private static long align(long v) {
        return (v + 31) / 32 * 32;
    }

    private static void string(ByteArrayOutputStream o, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        u64(o, b.length);
        o.writeBytes(b);
    }

    private static void u32(ByteArrayOutputStream o, int v) {
        o.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
    }

    private static void u64(ByteArrayOutputStream o, long v) {
        o.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
    }
}
