package dev.parley.app.cli.models;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Bytes;
import dev.parley.models.download.CancelToken;
import dev.parley.models.store.ModelStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code parley models pull NAME}: downloads a catalog entry into the store with a progress bar on stderr. */
@Command(name = "pull", mixinStandardHelpOptions = true,
        description = "Download a model from the catalog (resumes an interrupted download).")
final class ModelsPullCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    ModelsCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "NAME", description = "Catalog id, as shown by 'parley models list'.")
    String name;

    @CommandLine.Option(names = "--force", description = "Download again even if installed.")
    boolean force;

    @Override
    public Integer call() throws Exception {
        ModelCatalog catalog = parent.catalog();
        CatalogEntry entry = catalog.require(name);
        ModelStore store = parent.store();
        var out = spec.commandLine().getOut();
        if (entry.isBundled()) {
            out.println(entry.id() + " ships with Parley (" + entry.bundledArtifact() + "): nothing to download");
            return 0;
        }
        if (store.isInstalled(entry) && !force) {
            out.println(entry.id() + " is already installed at " + store.pathFor(entry));
            return 0;
        }
        var err = spec.commandLine().getErr();
        err.println("Downloading " + entry.name() + " from " + entry.host()
                + (entry.sizeBytes() != null ? " (" + Bytes.human(entry.sizeBytes()) + ")" : "")
                + " into " + store.root());
        if (entry.sha256() == null) {
            err.println("note: " + entry.checksumNote());
        }
        ProgressBar bar = new ProgressBar(err, entry.id());
        try {
            // an interrupted pull (Ctrl-C, lost network) keeps its .part file: the next pull resumes it
            Path installed = parent.installer(store).install(entry, bar, new CancelToken());
            out.println("installed " + entry.id() + " at " + installed);
            return 0;
        } finally {
            bar.end();
        }
    }
}
