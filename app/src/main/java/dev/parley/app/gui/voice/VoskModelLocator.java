package dev.parley.app.gui.voice;

import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.store.ModelStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the Vosk model folder the voice loop uses: the folder chosen in the settings, else the
 * catalog's default speech model installed in the model store. A missing model is an
 * {@link IOException} that says how to get one (typed chat works without it).
 */
public final class VoskModelLocator {
    private final ModelStore store;
    private final ModelCatalog catalog;

    public VoskModelLocator(ModelStore store, ModelCatalog catalog) {
        this.store = store;
        this.catalog = catalog;
    }

    /** The model folder for {@code chosen} ("" = the catalog default), checked to hold a Vosk model. */
    public Path locate(String chosen) throws IOException {
        if (chosen != null && !chosen.isBlank()) {
            Path dir = Path.of(chosen.strip());
            VoskRecognizer.checkModelFolder(dir);
            return dir;
        }
        CatalogEntry entry;
        try {
            entry = catalog.defaultEntry(EntryKind.ASR);
        } catch (IllegalStateException e) {
            throw new IOException("no speech model chosen and the catalog has none: choose a Vosk model folder in Settings");
        }
        Path dir = store.pathFor(entry);
        if (!Files.isDirectory(dir)) {
            throw new IOException("no speech model installed: download " + entry.name() + " here, run 'parley models pull "
                    + entry.id() + "', or choose a Vosk model folder in Settings");
        }
        VoskRecognizer.checkModelFolder(dir);
        return dir;
    }

    /** The catalog's Silero VAD model where it is installed in the store, for the neural voice activity detector. */
    public Optional<Path> sileroModel() {
        try {
            CatalogEntry entry = catalog.defaultEntry(EntryKind.VAD);
            Path file = store.pathFor(entry);
            return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.empty();    // this catalog has no VAD entry
        }
    }
}
