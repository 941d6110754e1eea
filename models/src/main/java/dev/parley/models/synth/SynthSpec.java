package dev.parley.models.synth;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.models.gguf.QuantMix;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What {@link Synth#generate} makes.
 *
 * @param arch     {@code llama}, {@code qwen2} (q/k/v biases), {@code qwen3} (q/k norms), {@code gemma3} (q/k norms,
 *                 post-norms, sliding window) or {@code phi3} (fused attn_qkv and gate/up)
 * @param shape    the hyper-parameters
 * @param mix      storage of the 2-D weights: one type for all (F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K) or
 *                 a llama.cpp mix (Q4_K_M, Q5_K_M: {@link QuantMix}); norms, biases and RoPE factors are always F32
 * @param vocab    a GGUF file whose {@code tokenizer.*} keys are copied (its vocabulary size wins), or
 *                 null for the built-in byte-level BPE vocabulary ({@link SynthVocab})
 * @param seed     seed of the random weights: the same spec gives the same file
 * @param progress receives the fraction done (0 to 1) now and then, or null; an exception thrown
 *                 from it stops the generation, leaves no file behind, and comes out of
 *                 {@link Synth#generate}
 */
public record SynthSpec(String arch, ModelShape shape, QuantMix mix, Path vocab, long seed, Consumer<Double> progress) {

    public SynthSpec {
        Objects.requireNonNull(arch, "arch");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(mix, "mix");
        if (!java.util.Set.of("llama", "qwen2", "qwen3", "gemma3", "phi3").contains(arch)) {
            throw new IllegalArgumentException("expected arch llama, qwen2, qwen3, gemma3 or phi3 but found '" + arch + "'");
        }
    }

    /** Every 2-D weight in {@code type} (one of F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K). */
    public SynthSpec(String arch, ModelShape shape, GgmlType type, Path vocab, long seed, Consumer<Double> progress) {
        this(arch, shape, QuantMix.pure(Objects.requireNonNull(type, "type")), vocab, seed, progress);
    }

    /** The type of most 2-D weights (the mix's base type). */
    public GgmlType type() {
        return mix.base();
    }

    /** The shape's own architecture, no vocabulary file, no progress. */
    public static SynthSpec of(ModelShape shape, GgmlType type, long seed) {
        return new SynthSpec(shape.arch(), shape, type, null, seed, null);
    }
}
