package dev.parley.app.gui.models;

import dev.parley.engine.model.KvFormat;
import java.io.IOException;
import java.nio.file.Path;

/** What "use this model" does: make {@code file} the model the window loads, at this context and KV precision. */
@FunctionalInterface
public interface ModelChoice {
    /** Called on the FX thread; the load itself runs in the background. */
    void use(Path file, int contextSize, KvFormat kv) throws IOException;
}
