package dev.parley.app;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.io.IOException;
import java.nio.file.Path;

/** Real (random-weight) GGUF models for app tests, written by the synthesizer in well under a second. */
public final class TestModels {
    private TestModels() {
    }

    /** The built-in "tiny" llama shape with a ChatML template, Q8_0. */
    public static Path tiny(Path dir) throws IOException {
        Path out = dir.resolve("tiny.gguf");
        Synth.generate(SynthSpec.of(ModelShape.builtIn("tiny"), GgmlType.Q8_0, 1), out);
        return out;
    }

    /** A wider, deeper tiny model whose replies take long enough to stop or watch mid-stream. */
    public static Path slow(Path dir) throws IOException {
        Path out = dir.resolve("slow.gguf");
        Synth.generate(SynthSpec.of(ModelShape.parse("tiny:dim=384,layers=12,heads=8,kv=4,ffn=1536"), GgmlType.Q8_0, 3),
                out);
        return out;
    }
}
