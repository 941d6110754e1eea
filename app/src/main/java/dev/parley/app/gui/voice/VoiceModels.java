package dev.parley.app.gui.voice;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import java.util.ArrayList;
import java.util.List;

/**
 * The catalog entries the voice loop needs installed: the catalog's default of each kind in {@link #KINDS} that
 * is not bundled with Parley (the MaryTTS voice is). A new kind of voice model (a neural VAD, say) is one more
 * element of {@link #KINDS}; the voice bar then offers its download too.
 */
public final class VoiceModels {
    /** The kinds of model the voice loop loads from the model store. */
    public static final List<EntryKind> KINDS = List.of(EntryKind.ASR);

    private VoiceModels() {
    }

    /** The default entry of each of {@link #KINDS} in {@code catalog} (kinds it has none of are left out). */
    public static List<CatalogEntry> required(ModelCatalog catalog) {
        List<CatalogEntry> entries = new ArrayList<>();
        for (EntryKind kind : KINDS) {
            try {
                CatalogEntry entry = catalog.defaultEntry(kind);
                if (!entry.isBundled()) {
                    entries.add(entry);
                }
            } catch (IllegalStateException e) {
                // this catalog has no default of that kind: nothing to offer
            }
        }
        return List.copyOf(entries);
    }
}
