package dev.parley.app.cli.models;

import dev.parley.app.cli.StoreArgs;
import dev.parley.app.cli.Terminal;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Downloader;
import dev.parley.models.store.ModelInstaller;
import dev.parley.models.store.ModelStore;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code parley models}: the catalog, the model store and model files; without a subcommand it prints the usage.
 * Holds the options its store subcommands share: where the store is ({@code --home}, else {@code $PARLEY_HOME},
 * {@code $XDG_CACHE_HOME/parley}, {@code ~/.cache/parley}) and which catalog to use ({@code --catalog}, else the
 * built-in one).
 */
@Command(name = "models", mixinStandardHelpOptions = true,
        description = "Lists, downloads, inspects, removes and makes model files.",
        subcommands = {ModelsListCommand.class, ModelsPullCommand.class, ModelsInfoCommand.class,
                ModelsRmCommand.class, ModelsSetupCommand.class, SynthCommand.class, QuantizeCommand.class})
public final class ModelsCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    @Mixin
    StoreArgs storeArgs;

    /** Makes the downloader for {@code pull}; tests replace it with one that does not wait between retries. */
    Supplier<Downloader> downloaders = Downloader::new;

    ModelsCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(terminal.out());
        return 0;
    }

    ModelStore store() {
        return storeArgs.store();
    }

    ModelCatalog catalog() throws IOException {
        return storeArgs.catalog();
    }

    ModelInstaller installer(ModelStore store) {
        return StoreArgs.installer(store, downloaders.get());
    }
}
