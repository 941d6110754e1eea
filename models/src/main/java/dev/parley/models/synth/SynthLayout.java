package dev.parley.models.synth;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.models.gguf.QuantMix;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tensors and {@code {arch}.*} / {@code general.*} metadata of a llama, qwen2, qwen3, gemma3 or phi3 GGUF, named,
 * shaped and keyed as llama.cpp's {@code convert_hf_to_gguf.py} writes them. Dims are in ggml
 * order: {@code dims[0]} is the input (row) length, so {@code attn_q} is {@code [dim, heads*headDim]}.
 */
final class SynthLayout {

    /** How a tensor's values are made. */
    enum Kind { MATRIX, NORM, BIAS, ROPE_FREQS, PHI3_FACTORS_SHORT, PHI3_FACTORS_LONG }

    /** One tensor to write; {@code std} is the spread of its random values. */
    record Planned(String name, long[] dims, GgmlType type, Kind kind, double std) {
        long elements() {
            long n = 1;
            for (long d : dims) {
                n *= d;
            }
            return n;
        }
    }

    private SynthLayout() {
    }

    /** {@link #tensors(String, ModelShape, GgmlType, int)} with each matrix of the type {@code mix} gives it. */
    static List<Planned> tensors(String arch, ModelShape s, QuantMix mix, int vocab) {
        List<Planned> base = tensors(arch, s, mix.base(), vocab);
        boolean hasOutput = base.stream().anyMatch(p -> p.name().equals("output.weight"));
        List<Planned> out = new ArrayList<>(base.size());
        for (Planned p : base) {
            GgmlType t = p.kind() == Kind.MATRIX ? mix.typeFor(p.name(), p.dims().length, p.dims()[0], s.layers(), hasOutput) : null;
            out.add(t == null ? p : new Planned(p.name(), p.dims(), t, p.kind(), p.std()));
        }
        return out;
    }

    static List<Planned> tensors(String arch, ModelShape s, GgmlType type, int vocab) {
        long dim = s.dim();
        long q = (long) s.heads() * s.headDim();
        long kv = (long) s.kvHeads() * s.headDim();
        long ffn = s.ffn();
        double embStd = 1.0 / Math.sqrt(dim);
        List<Planned> out = new ArrayList<>();
        out.add(new Planned("token_embd.weight", new long[] {dim, vocab}, type, Kind.MATRIX, embStd));
        if (s.ropeScaling() != null) {
            out.add(new Planned("rope_freqs.weight", new long[] {s.headDim() / 2}, GgmlType.F32, Kind.ROPE_FREQS, 0));
        }
        if (arch.equals("phi3")) {
            // LongRoPE's two factor sets; llama.cpp uses the short one while the context is within the original.
            out.add(new Planned("rope_factors_long.weight", new long[] {s.headDim() / 2}, GgmlType.F32,
                    Kind.PHI3_FACTORS_LONG, 0));
            out.add(new Planned("rope_factors_short.weight", new long[] {s.headDim() / 2}, GgmlType.F32,
                    Kind.PHI3_FACTORS_SHORT, 0));
        }
        boolean biases = arch.equals("qwen2");
        boolean qkNorm = arch.equals("qwen3") || arch.equals("gemma3");
        boolean postNorms = arch.equals("gemma3");
        boolean fused = arch.equals("phi3");
        double inStd = 1 / Math.sqrt(dim);
        for (int l = 0; l < s.layers(); l++) {
            String p = "blk." + l + ".";
            out.add(new Planned(p + "attn_norm.weight", new long[] {dim}, GgmlType.F32, Kind.NORM, 0.1));
            if (fused) {
                out.add(new Planned(p + "attn_qkv.weight", new long[] {dim, q + 2 * kv}, type, Kind.MATRIX, inStd));
            } else {
                out.add(new Planned(p + "attn_q.weight", new long[] {dim, q}, type, Kind.MATRIX, inStd));
                if (biases) {
                    out.add(new Planned(p + "attn_q.bias", new long[] {q}, GgmlType.F32, Kind.BIAS, 0.1));
                }
                out.add(new Planned(p + "attn_k.weight", new long[] {dim, kv}, type, Kind.MATRIX, inStd));
                if (biases) {
                    out.add(new Planned(p + "attn_k.bias", new long[] {kv}, GgmlType.F32, Kind.BIAS, 0.1));
                }
                out.add(new Planned(p + "attn_v.weight", new long[] {dim, kv}, type, Kind.MATRIX, inStd));
                if (biases) {
                    out.add(new Planned(p + "attn_v.bias", new long[] {kv}, GgmlType.F32, Kind.BIAS, 0.1));
                }
            }
            if (qkNorm) {
                out.add(new Planned(p + "attn_q_norm.weight", new long[] {s.headDim()}, GgmlType.F32, Kind.NORM, 0.1));
                out.add(new Planned(p + "attn_k_norm.weight", new long[] {s.headDim()}, GgmlType.F32, Kind.NORM, 0.1));
            }
            out.add(new Planned(p + "attn_output.weight", new long[] {q, dim}, type, Kind.MATRIX, 1 / Math.sqrt(q)));
            if (postNorms) {
                out.add(new Planned(p + "post_attention_norm.weight", new long[] {dim}, GgmlType.F32, Kind.NORM, 0.1));
            }
            out.add(new Planned(p + "ffn_norm.weight", new long[] {dim}, GgmlType.F32, Kind.NORM, 0.1));
            if (fused) {
                out.add(new Planned(p + "ffn_up.weight", new long[] {dim, 2 * ffn}, type, Kind.MATRIX, inStd));
            } else {
                out.add(new Planned(p + "ffn_gate.weight", new long[] {dim, ffn}, type, Kind.MATRIX, inStd));
                out.add(new Planned(p + "ffn_up.weight", new long[] {dim, ffn}, type, Kind.MATRIX, inStd));
            }
            out.add(new Planned(p + "ffn_down.weight", new long[] {ffn, dim}, type, Kind.MATRIX, 1 / Math.sqrt(ffn)));
            if (postNorms) {
                out.add(new Planned(p + "post_ffw_norm.weight", new long[] {dim}, GgmlType.F32, Kind.NORM, 0.1));
            }
        }
        out.add(new Planned("output_norm.weight", new long[] {dim}, GgmlType.F32, Kind.NORM, 0.1));
        if (!s.tied()) {
            out.add(new Planned("output.weight", new long[] {dim, vocab}, type, Kind.MATRIX, 2 / Math.sqrt(dim)));
        }
        return out;
    }

    /** {@code general.*} and {@code {arch}.*} keys. */
    static Map<String, GgufMetadataValue> metadata(String arch, ModelShape s, GgmlType type, int vocab, long seed) {
        Map<String, GgufMetadataValue> m = new LinkedHashMap<>();
        m.put("general.architecture", GgufMetadataValue.of(arch));
        m.put("general.name", GgufMetadataValue.of("parley-synth " + s.name() + " (random weights)"));
        m.put("general.file_type", GgufMetadataValue.ofUint32(fileType(type)));
        m.put("general.quantization_version", GgufMetadataValue.ofUint32(2));
        m.put("parley.synth", GgufMetadataValue.ofBool(true));
        m.put("parley.synth.shape", GgufMetadataValue.of(s.name()));
        m.put("parley.synth.seed", GgufMetadataValue.ofUint64(seed));
        m.put(arch + ".context_length", GgufMetadataValue.ofUint32(s.context()));
        m.put(arch + ".embedding_length", GgufMetadataValue.ofUint32(s.dim()));
        m.put(arch + ".block_count", GgufMetadataValue.ofUint32(s.layers()));
        m.put(arch + ".feed_forward_length", GgufMetadataValue.ofUint32(s.ffn()));
        m.put(arch + ".attention.head_count", GgufMetadataValue.ofUint32(s.heads()));
        m.put(arch + ".attention.head_count_kv", GgufMetadataValue.ofUint32(s.kvHeads()));
        m.put(arch + ".rope.freq_base", GgufMetadataValue.ofFloat32((float) s.ropeBase()));
        m.put(arch + ".attention.layer_norm_rms_epsilon", GgufMetadataValue.ofFloat32((float) s.rmsEps()));
        if (s.headDim() * s.heads() != s.dim() || arch.equals("qwen3") || arch.equals("gemma3")) {
            m.put(arch + ".attention.key_length", GgufMetadataValue.ofUint32(s.headDim()));
            m.put(arch + ".attention.value_length", GgufMetadataValue.ofUint32(s.headDim()));
        }
        if (arch.equals("gemma3")) {
            // As Google's files: the window, no sliding_window_pattern key (llama.cpp's default 6 applies), no
            // freq_base_swa (10000).
            if (s.window() > 0) {
                m.put("gemma3.attention.sliding_window", GgufMetadataValue.ofUint32(s.window()));
            }
            if (s.windowPattern() > 0) {
                m.put("gemma3.attention.sliding_window_pattern", GgufMetadataValue.ofUint32(s.windowPattern()));
            }
            if (s.ropeLinear() > 0) {
                m.put("gemma3.rope.scaling.type", GgufMetadataValue.of("linear"));
                m.put("gemma3.rope.scaling.factor", GgufMetadataValue.ofFloat32((float) s.ropeLinear()));
            }
        }
        if (arch.equals("phi3")) {
            m.put("phi3.rope.dimension_count", GgufMetadataValue.ofUint32(s.headDim()));
            m.put("phi3.rope.scaling.original_context_length", GgufMetadataValue.ofUint32(s.context()));
            // As Phi-3.5's LongRoPE files: sqrt(1 + ln(32) / ln(4096)), which llama.cpp multiplies the rotation by.
            m.put("phi3.rope.scaling.attn_factor", GgufMetadataValue.ofFloat32(1.19f));
        }
        if (arch.equals("llama")) {
            m.put("llama.vocab_size", GgufMetadataValue.ofUint32(vocab));
            m.put("llama.rope.dimension_count", GgufMetadataValue.ofUint32(s.headDim()));
        }
        return m;
    }

    /** llama.cpp's {@code llama_ftype} for a file whose 2-D weights are {@code type}. */
    static int fileType(GgmlType type) {
        return switch (type) {
            case F32 -> 0;
            case F16 -> 1;
            case Q4_0 -> 2;
            case Q8_0 -> 7;
            case Q4_K -> 14; // llama-quantize --pure Q4_K_S
            case Q5_K -> 16; // --pure Q5_K_S
            case Q6_K -> 18;
            case BF16 -> 32;
            default -> throw new IllegalArgumentException("no file type for " + type);
        };
    }

    /**
     * Phi-3 LongRoPE-like factors: one divisor per frequency pair, rising from 1 at the highest frequency to
     * {@code 1.5} (short) or {@code 8} (long) at the lowest, so that a model that ignores them computes other logits.
     */
    static float[] phi3RopeFactors(ModelShape s, boolean longFactors) {
        int half = s.headDim() / 2;
        float[] out = new float[half];
        double top = longFactors ? 8 : 1.5;
        for (int i = 0; i < half; i++) {
            out[i] = (float) (1 + (top - 1) * i / Math.max(1, half - 1));
        }
        return out;
    }

    /**
     * Llama 3 RoPE factors as llama.cpp's converter stores them in {@code rope_freqs.weight}: one
     * divisor per frequency pair, 1 for short wavelengths, {@code factor} for long ones, and a
     * smooth blend in between.
     */
    static float[] llama3RopeFactors(ModelShape s) {
        ModelShape.RopeScaling r = s.ropeScaling();
        int half = s.headDim() / 2;
        float[] out = new float[half];
        double lowWavelen = r.originalContext() / r.lowFreqFactor();
        double highWavelen = r.originalContext() / r.highFreqFactor();
        for (int i = 0; i < half; i++) {
            double freq = 1.0 / Math.pow(s.ropeBase(), (2.0 * i) / s.headDim());
            double wavelen = 2 * Math.PI / freq;
            double f;
            if (wavelen < highWavelen) {
                f = 1;
            } else if (wavelen > lowWavelen) {
                f = r.factor();
            } else {
                double smooth = (r.originalContext() / wavelen - r.lowFreqFactor()) / (r.highFreqFactor() - r.lowFreqFactor());
                f = 1 / ((1 - smooth) / r.factor() + smooth);
            }
            out[i] = (float) f;
        }
        return out;
    }
}
