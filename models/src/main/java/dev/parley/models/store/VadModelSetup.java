package dev.parley.models.store;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.DownloadException;
import dev.parley.models.download.OfflineException;
import dev.parley.models.download.ProgressListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The voice-activity model on first voice use: the catalog's default {@code vad} entry (the Silero VAD v5 file),
 * kept in the store's {@code vad/} folder. {@link #ensure} uses the installed file or downloads it (2.3 MB, verified
 * against the catalog's SHA-256); when that fails it says why instead of throwing, because the voice loop still
 * runs, on the energy VAD. Slow (it may download): call it off the UI thread.
 */
public final class VadModelSetup {

    /** The result of {@link #ensure}. */
    public sealed interface Outcome {
        /** The model file is at {@code file}; {@code downloaded} says whether it was fetched just now. */
        record Ready(Path file, boolean downloaded) implements Outcome {
        }

        /** No model file: {@code message} says why and what the voice does instead; {@code cause} may be null. */
        record Unavailable(String message, DownloadException cause) implements Outcome {
        }
    }

    private final ModelStore store;
    private final ModelCatalog catalog;
    private final ModelInstaller installer;

    public VadModelSetup(ModelStore store, ModelCatalog catalog, ModelInstaller installer) {
        this.store = store;
        this.catalog = catalog;
        this.installer = installer;
    }

    /** The catalog's default voice-activity model, if the catalog has one. */
    public Optional<CatalogEntry> entry() {
        return catalog.entries(EntryKind.VAD).stream().filter(CatalogEntry::isDefault).findFirst();
    }

    /** The installed model file, if it is in the store. */
    public Optional<Path> installed() {
        return entry().map(store::pathFor).filter(Files::isRegularFile);
    }

    /** The installed model file, or the default downloaded now, or why there is none. */
    public Outcome ensure(ProgressListener listener, CancelToken cancel) {
        Optional<CatalogEntry> entry = entry();
        if (entry.isEmpty()) {
            return new Outcome.Unavailable("the catalog has no voice activity model: the voice uses the energy VAD",
                    null);
        }
        Optional<Path> have = installed();
        if (have.isPresent()) {
            return new Outcome.Ready(have.get(), false);
        }
        CatalogEntry e = entry.get();
        try {
            return new Outcome.Ready(installer.install(e, listener, cancel), true);
        } catch (DownloadException ex) {
            String why = ex instanceof OfflineException off ? "cannot reach " + off.host() + ": are you offline?"
                    : ex.getMessage();
            return new Outcome.Unavailable("could not download " + e.name() + " (" + why
                    + "): the voice uses the energy VAD until 'parley models pull " + e.id() + "' succeeds", ex);
        }
    }
}
