package dev.parley.app.cli.models;

import dev.parley.models.catalog.EntryKind;
import dev.parley.models.download.CancelToken;
import dev.parley.models.store.FirstRun;
import dev.parley.models.store.ModelStore;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code parley models setup}: the first-run path. Uses an installed model if there is one, otherwise downloads the
 * catalog's default with a progress bar; when that fails (offline), explains the ways forward and exits with 2.
 */
@Command(name = "setup", mixinStandardHelpOptions = true,
        description = "Make sure a model is installed: keep one, or download the default.")
final class ModelsSetupCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    ModelsCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ModelStore store = parent.store();
        var catalog = parent.catalog();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        var def = catalog.defaultEntry(EntryKind.LLM);
        ProgressBar bar = new ProgressBar(err, def.id());
        FirstRun.Outcome outcome;
        try {
            outcome = new FirstRun(store, catalog, parent.installer(store)).ensureModel(bar, new CancelToken());
        } finally {
            bar.end();
        }
        return switch (outcome) {
            case FirstRun.Outcome.Ready ready -> {
                out.println((ready.downloaded() ? "downloaded " : "using installed model ") + ready.file());
                yield 0;
            }
            case FirstRun.Outcome.NoModel none -> {
                String[] lines = none.message().split("\n", 2);
                err.println("parley: error: " + lines[0]);
                if (lines.length > 1) {
                    err.println(lines[1]);
                }
                yield dev.parley.app.cli.ErrorReporter.USAGE;
            }
        };
    }
}
