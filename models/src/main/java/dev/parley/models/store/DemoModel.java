package dev.parley.models.store;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The demo model: a SmolLM2-135M-shaped model with RANDOM weights made by {@code synth}, so that a user
 * without any real model (offline on first run) can still try the voice pipeline, the dashboards and the
 * batcher. It talks nonsense and is labelled so everywhere. It lives in the store's {@code demo/} folder,
 * apart from installed models, so it is never mistaken for one.
 */
public final class DemoModel {
    /** The shape of the demo: small enough to make in seconds, big enough to show real speeds. */
    public static final String SHAPE = "smollm2-135m";
    private static final long SEED = 135;

    private DemoModel() {
    }

    /** Where the demo model lives in {@code store}. */
    public static Path path(ModelStore store) {
        return store.root().resolve("demo").resolve("parley-demo-" + SHAPE + "-random-q8_0.gguf");
    }

    /** The demo model's file, made now (a few seconds) when it does not exist yet. */
    public static Path ensure(ModelStore store, Consumer<Double> progress) throws IOException {
        Path file = path(store);
        if (Files.isRegularFile(file)) {
            return file;
        }
        Files.createDirectories(file.getParent());
        Synth.generate(new SynthSpec("llama", ModelShape.builtIn(SHAPE), GgmlType.Q8_0, null, SEED, progress), file);
        return file;
    }
}
