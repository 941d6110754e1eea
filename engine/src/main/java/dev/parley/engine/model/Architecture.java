package dev.parley.engine.model;

import dev.parley.engine.gguf.GgufException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The model families Parley runs, as named by {@code general.architecture}, with what sets their blocks apart:
 * the RoPE pairing, Q/K/V biases, per-head q/k norms, norms after attention and feed-forward, the gate's
 * activation, fused projection tensors and the scaled embedding. Everything sized (windows, bases, scales) comes
 * from the file's metadata, in {@link Configuration}; this is only what the family's graph contains.
 */
public enum Architecture {
    /** Llama 2/3.x, SmolLM2, TinyLlama, Mistral: adjacent RoPE pairs, no biases. */
    LLAMA("llama", RopeStyle.NORM, false, false, false, Activation.SILU, false, false),
    /** Qwen2 / Qwen2.5: NEOX RoPE pairs (i, i + d/2) and Q/K/V biases. */
    QWEN2("qwen2", RopeStyle.NEOX, true, false, false, Activation.SILU, false, false),
    /** Qwen3: NEOX RoPE, no biases, per-head RMSNorm of q and k before RoPE. */
    QWEN3("qwen3", RopeStyle.NEOX, false, true, false, Activation.SILU, false, false),
    /**
     * Gemma 3: embeddings times sqrt(dim), per-head q/k norms, norms after attention and after the feed-forward,
     * GELU (tanh) gate, sliding-window attention on the local layers.
     */
    GEMMA3("gemma3", RopeStyle.NEOX, false, true, true, Activation.GELU_TANH, false, true),
    /** Phi-3 / Phi-3.5 / Phi-4 mini: NEOX RoPE, one fused {@code attn_qkv} and a gate/up {@code ffn_up} twice as wide. */
    PHI3("phi3", RopeStyle.NEOX, false, false, false, Activation.SILU, true, false);

    private final String ggufName;
    private final RopeStyle ropeStyle;
    private final boolean qkvBias;
    private final boolean qkNorm;
    private final boolean postNorms;
    private final Activation activation;
    private final boolean fused;
    private final boolean scaledEmbedding;

    Architecture(String ggufName, RopeStyle ropeStyle, boolean qkvBias, boolean qkNorm, boolean postNorms,
                 Activation activation, boolean fused, boolean scaledEmbedding) {
        this.ggufName = ggufName;
        this.ropeStyle = ropeStyle;
        this.qkvBias = qkvBias;
        this.qkNorm = qkNorm;
        this.postNorms = postNorms;
        this.activation = activation;
        this.fused = fused;
        this.scaledEmbedding = scaledEmbedding;
    }

    /** The {@code general.architecture} value, also the prefix of the hyper-parameter keys. */
    public String ggufName() { return ggufName; }

    public RopeStyle ropeStyle() { return ropeStyle; }

    public boolean qkvBias() { return qkvBias; }

    /** Whether q and k are RMS-normalised per head ({@code attn_q_norm}, {@code attn_k_norm}) before RoPE. */
    public boolean qkNorm() { return qkNorm; }

    /** Whether attention and feed-forward outputs pass a norm before the residual add (Gemma's post-norms). */
    public boolean postNorms() { return postNorms; }

    /** The activation of the feed-forward gate. */
    public Activation activation() { return activation; }

    /** Whether Q/K/V come as one {@code attn_qkv} and gate/up as one {@code ffn_up} of twice the width (Phi-3). */
    public boolean fusedProjections() { return fused; }

    /** Whether the embedding row is multiplied by sqrt(dim) before the first block (Gemma). */
    public boolean scaledEmbedding() { return scaledEmbedding; }

    /**
     * Whether the CUDA backend's forward pass (the Llama graph with optional biases) has been checked on this family;
     * the others run on the CPU.
     */
    public boolean runsOnCuda() { return this == LLAMA || this == QWEN2; }

    /**
     * The architecture called {@code name}.
     *
     * @throws GgufException naming it and the supported ones when it is unknown
     */
    public static Architecture fromGguf(String name) throws GgufException {
        for (Architecture a : values()) {
            if (a.ggufName.equals(name)) {
                return a;
            }
        }
        String supported = Arrays.stream(values()).map(Architecture::ggufName).collect(Collectors.joining(", "));
        throw new GgufException("unsupported model architecture '" + name + "': expected one of " + supported);
    }
}
