package dev.parley.engine.model;

/** Which elements of a head RoPE rotates together (ggml's rope modes). */
public enum RopeStyle {
    /** ggml mode 0: adjacent pairs (2i, 2i + 1). */
    NORM,
    /** ggml mode 2 (GPT-NeoX): pairs (i, i + n_rot / 2). */
    NEOX
}
