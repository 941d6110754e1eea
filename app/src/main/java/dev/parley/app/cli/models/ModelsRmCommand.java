package dev.parley.app.cli.models;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.store.ModelStore;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code parley models rm NAME}: removes an installed catalog entry (and any partial download) from the store. */
@Command(name = "rm", mixinStandardHelpOptions = true, description = "Remove an installed model.")
final class ModelsRmCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    ModelsCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "NAME", description = "Catalog id of the installed model.")
    String name;

    @Override
    public Integer call() throws Exception {
        CatalogEntry entry = parent.catalog().require(name);
        ModelStore store = parent.store();
        if (!store.remove(entry)) {
            throw new IllegalArgumentException(entry.id() + " is not installed in " + store.root());
        }
        spec.commandLine().getOut().println("removed " + entry.id());
        return 0;
    }
}
