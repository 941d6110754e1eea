package dev.parley.models.store;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.DownloadException;
import dev.parley.models.download.OfflineException;
import dev.parley.models.download.ProgressListener;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What happens when Parley starts with no model: use an installed one if there is any, otherwise download the
 * catalog's default with progress; offline (or on any download failure) the user gets a plain message with the ways
 * forward: a local GGUF file, the clearly labelled demo model, or pulling again later.
 */
public final class FirstRun {

    /** The result of {@link #ensureModel}. */
    public sealed interface Outcome {
        /** A model is ready at {@code file}; {@code downloaded} says whether it was fetched just now. */
        record Ready(Path file, boolean downloaded) implements Outcome {
        }

        /** No model could be made ready; {@code message} tells the user what to do instead. */
        record NoModel(String message, DownloadException cause) implements Outcome {
        }
    }

    private final ModelStore store;
    private final ModelCatalog catalog;
    private final ModelInstaller installer;

    public FirstRun(ModelStore store, ModelCatalog catalog, ModelInstaller installer) {
        this.store = store;
        this.catalog = catalog;
        this.installer = installer;
    }

    /** An installed, readable model, or the default downloaded now, or a message saying what to do. */
    public Outcome ensureModel(ProgressListener listener, CancelToken cancel) throws IOException {
        List<InstalledModel> installed = store.installedModels();
        for (InstalledModel m : installed) {
            if (m.readable()) {
                return new Outcome.Ready(m.file(), false);
            }
        }
        CatalogEntry def = catalog.defaultEntry(EntryKind.LLM);
        try {
            return new Outcome.Ready(installer.install(def, listener, cancel), true);
        } catch (DownloadException e) {
            return new Outcome.NoModel(noModelMessage(def, e), e);
        }
    }

    /** The advice shown when no model is installed and the default could not be fetched. */
    public static String noModelMessage(CatalogEntry def, DownloadException e) {
        String why = e instanceof OfflineException off
                ? "cannot reach " + off.host() + " to download " + def.name() + ": are you offline?"
                : "could not download " + def.name() + ": " + e.getMessage();
        return "No model is installed, and " + why + "\n"
                + "You can still:\n"
                + "  - open a GGUF model file you already have:  parley chat --model /path/to/model.gguf\n"
                + "  - try the demo model (DEMO: random weights, it talks nonsense, but the voice pipeline,\n"
                + "    dashboards and batcher all work):\n"
                + "      parley models synth --shape smollm2-135m --out demo.gguf && parley chat --model demo.gguf\n"
                + "  - download it later, when online:  parley models pull " + def.id();
    }
}
