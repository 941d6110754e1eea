package dev.parley.app.cli;

import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.ZipUnpacker;
import dev.parley.models.store.ModelInstaller;
import dev.parley.models.store.ModelStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Options of the commands that use the model store: where it is ({@code --home}, else
 * {@code $PARLEY_HOME}, {@code $XDG_CACHE_HOME/parley}, {@code ~/.cache/parley}) and which catalog to
 * use ({@code --catalog}, else the built-in one).
 */
public final class StoreArgs {
    @Option(names = "--home", paramLabel = "DIR", description = "Model store folder (default: $PARLEY_HOME, "
            + "$XDG_CACHE_HOME/parley or ~/.cache/parley).")
    Path home;

    @Option(names = "--catalog", paramLabel = "FILE", description = "Use this catalog file instead of the built-in one.")
    Path catalogFile;

    /** The model store. */
    public ModelStore store() {
        return ModelStore.open(home);
    }

    /** The catalog: the file given, or the built-in one. */
    public ModelCatalog catalog() throws IOException {
        if (catalogFile == null) {
            return ModelCatalog.load();
        }
        try (InputStream in = Files.newInputStream(catalogFile)) {
            return ModelCatalog.load(in, catalogFile.toString());
        }
    }

    /** An installer into {@code store} that downloads with {@code downloader}. */
    public static ModelInstaller installer(ModelStore store, Downloader downloader) {
        return new ModelInstaller(store, downloader, new ZipUnpacker());
    }
}
