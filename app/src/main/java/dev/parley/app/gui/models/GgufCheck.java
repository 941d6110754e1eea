package dev.parley.app.gui.models;

import dev.parley.models.store.ModelInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks that a file the user opened or dropped is a GGUF model Parley can run, with the GGUF reader itself, and
 * says in one sentence what was expected and what was found when it is not.
 */
final class GgufCheck {
    private GgufCheck() {
    }

    /** The file's figures, or an {@link IOException} whose message can be shown as it is. */
    static ModelInfo check(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new IOException("expected a GGUF model file but found the folder " + file);
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException("expected a GGUF model file but found nothing at " + file);
        }
        ModelInfo info;
        try {
            info = ModelInfo.read(file);
        } catch (IOException | RuntimeException e) {
            throw new IOException("expected a complete GGUF model file, but " + file.getFileName() + " is not one: "
                    + e.getMessage(), e);
        }
        if (info.engineSupport() != null) {
            throw new IOException(file.getFileName() + " holds a model Parley's engine cannot run: "
                    + info.engineSupport());
        }
        if (!info.allTypesSupported()) {
            throw new IOException("expected tensor types Parley's engine computes but " + file.getFileName()
                    + " holds " + info.tensorTypesSummary());
        }
        return info;
    }
}
