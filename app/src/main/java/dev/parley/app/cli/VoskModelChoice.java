package dev.parley.app.cli;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.store.ModelStore;
import java.nio.file.Files;
import java.nio.file.Path;

/** Which Vosk model folder a command uses: the one given, else the catalog's default speech model in the store. */
public final class VoskModelChoice {
    private VoskModelChoice() {
    }

    /**
     * {@code given} when not null, else the installed default speech model.
     *
     * @throws UsageException saying how to get a model when none is installed
     */
    public static Path choose(Path given, StoreArgs storeArgs) throws Exception {
        if (given != null) {
            return given;
        }
        ModelStore store = storeArgs.store();
        CatalogEntry entry = storeArgs.catalog().entries(EntryKind.ASR).stream()
                .filter(CatalogEntry::isDefault).findFirst()
                .orElseThrow(() -> new UsageException("no default speech model in the catalog: pass --vosk-model DIR"));
        Path dir = store.pathFor(entry);
        if (!Files.isDirectory(dir)) {
            throw new UsageException("no Vosk model installed at " + dir + ": run 'parley models pull " + entry.id()
                    + "' or pass --vosk-model DIR");
        }
        return dir;
    }
}
