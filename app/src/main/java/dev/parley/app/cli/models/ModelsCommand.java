package dev.parley.app.cli.models;

import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.ZipUnpacker;
import dev.parley.models.store.ModelInstaller;
import dev.parley.models.store.ModelStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code parley models}: the catalog and the model store. Holds the options its subcommands share: where the store
 * is ({@code --home}, else {@code $PARLEY_HOME}, {@code $XDG_CACHE_HOME/parley}, {@code ~/.cache/parley}) and which
 * catalog to use ({@code --catalog}, else the built-in one).
 */
@Command(name = "models", mixinStandardHelpOptions = true,
        description = "List, download, inspect and remove models.",
        subcommands = {ModelsListCommand.class, ModelsPullCommand.class, ModelsInfoCommand.class,
                ModelsRmCommand.class, ModelsSetupCommand.class})
public final class ModelsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--home", paramLabel = "DIR", description = "Model store folder (default: $PARLEY_HOME, "
            + "$XDG_CACHE_HOME/parley or ~/.cache/parley).")
    Path home;

    @Option(names = "--catalog", paramLabel = "FILE", description = "Use this catalog file instead of the built-in one.")
    Path catalogFile;

    /** Makes the downloader for {@code pull}; tests replace it with one that does not wait between retries. */
    Supplier<Downloader> downloaders = Downloader::new;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    ModelStore store() {
        return ModelStore.open(home);
    }

    ModelCatalog catalog() throws IOException {
        if (catalogFile == null) {
            return ModelCatalog.load();
        }
        try (InputStream in = Files.newInputStream(catalogFile)) {
            return ModelCatalog.load(in, catalogFile.toString());
        }
    }

    ModelInstaller installer(ModelStore store) {
        return new ModelInstaller(store, downloaders.get(), new ZipUnpacker());
    }
}
