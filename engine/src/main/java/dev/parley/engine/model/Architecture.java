package dev.parley.engine.model;

import dev.parley.engine.gguf.GgufException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The model families Parley runs, as named by {@code general.architecture}, with what sets them
 * apart: the RoPE pairing and whether Q/K/V carry biases.
 */
public enum Architecture {
    /** Llama 2/3.x, SmolLM2, TinyLlama, Mistral: adjacent RoPE pairs, no biases. */
    LLAMA("llama", RopeStyle.NORM, false),
    /** Qwen2 / Qwen2.5: NEOX RoPE pairs (i, i + d/2) and Q/K/V biases. */
    QWEN2("qwen2", RopeStyle.NEOX, true);

    private final String ggufName;
    private final RopeStyle ropeStyle;
    private final boolean qkvBias;

    Architecture(String ggufName, RopeStyle ropeStyle, boolean qkvBias) {
        this.ggufName = ggufName;
        this.ropeStyle = ropeStyle;
        this.qkvBias = qkvBias;
    }

    /** The {@code general.architecture} value, also the prefix of the hyper-parameter keys. */
    public String ggufName() { return ggufName; }

    public RopeStyle ropeStyle() { return ropeStyle; }

    public boolean qkvBias() { return qkvBias; }

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
