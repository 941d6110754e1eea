package dev.parley.engine.model;

import dev.parley.engine.gguf.GgmlType;
import java.nio.file.Path;

/** Writes a random SmolLM2-135M-shaped model for benchmarks: {@code SynthBenchModel OUT.gguf [TYPE=Q8_0]}. */
final class SynthBenchModel {
    private SynthBenchModel() {
    }

    public static void main(String[] args) throws Exception {
        GgmlType type = args.length > 1 ? GgmlType.valueOf(args[1]) : GgmlType.Q8_0;
        TinyGguf.model("llama", type, true, TinyGguf.SMOLLM2_135M).write(Path.of(args[0]));
    }
}
