package dev.parley.models.store;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A GGUF file found in the store's {@code models/} folder: its metadata ({@code info}, null when the file cannot be
 * read, then {@code error} says why) and its index record when it was installed by Parley.
 */
public record InstalledModel(Path file, ModelInfo info, String error, Optional<InstalledItem> item) {
    public boolean readable() {
        return info != null;
    }
}
