package dev.parley.engine.model;

import dev.parley.engine.gguf.GgmlType;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Small random-weight models with a vocabulary, for tests in other packages and modules that need a complete model
 * (weights and tokenizer) without the shared fixtures.
 */
public final class TestModels {

    private TestModels() {
    }

    /** A 2-layer, 64-dim llama model (vocabulary 96, context 128) in {@code type}, written to {@code file}. */
    public static Path tiny(Path file, GgmlType type) throws IOException {
        return TinyGguf.model("llama", type, false).withVocab(TinyGguf.VOCAB).write(file);
    }

    /**
     * A model of {@code layers} layers, {@code dim} dimensions (heads of 16, half as many KV heads), vocabulary
     * {@code vocab} and context {@code context}, in {@code type}, written to {@code file}.
     */
    public static Path sized(Path file, GgmlType type, int dim, int layers, int vocab, int context)
            throws IOException {
        int heads = dim / 16;
        var shape = new TinyGguf.Shape(dim, layers, heads, Math.max(1, heads / 2), dim * 3 / 2, vocab, context);
        return TinyGguf.model("llama", type, false, shape).withVocab(vocab).write(file);
    }
}
