package dev.parley.app.cli.models;

import dev.parley.audio.vad.VadChoice;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.download.CancelToken;
import dev.parley.models.store.FirstRun;
import dev.parley.models.store.ModelStore;
import dev.parley.models.store.VadModelSetup;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code parley models setup}: the first-run path. Uses an installed model if there is one, otherwise downloads the
 * catalog's default with a progress bar; when that fails (offline), explains the ways forward and exits with 2. Then
 * the same for the voice activity model (unless {@code --vad energy}); without it the voice falls back to the energy
 * VAD, so its failure is a note, not an error.
 */
@Command(name = "setup", mixinStandardHelpOptions = true,
        description = {"Make sure a model is installed: keep one, or download the default.",
            "Also fetches the voice activity model (Silero VAD, 2.3 MB) unless --vad energy."})
final class ModelsSetupCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    ModelsCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = "--vad", paramLabel = "energy|silero", defaultValue = "silero",
            description = "silero: also make sure the Silero VAD model is installed; energy: skip it "
                    + "(default: ${DEFAULT-VALUE}).")
    String vad;

    @Override
    public Integer call() throws Exception {
        VadChoice vadChoice;
        try {
            vadChoice = VadChoice.parse(vad);
        } catch (IllegalArgumentException e) {
            throw new dev.parley.app.cli.UsageException("--vad: " + e.getMessage(), e);
        }
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
                if (vadChoice == VadChoice.SILERO) {
                    ensureVad(store, catalog, out, err);
                }
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

    private void ensureVad(ModelStore store, dev.parley.models.catalog.ModelCatalog catalog, PrintWriter out,
                           PrintWriter err) {
        VadModelSetup setup = new VadModelSetup(store, catalog, parent.installer(store));
        if (setup.entry().isEmpty()) {
            return; // a catalog of language models only
        }
        ProgressBar bar = new ProgressBar(err, setup.entry().get().id());
        VadModelSetup.Outcome outcome;
        try {
            outcome = setup.ensure(bar, new CancelToken());
        } finally {
            bar.end();
        }
        switch (outcome) {
            case VadModelSetup.Outcome.Ready ready -> out.println((ready.downloaded() ? "downloaded "
                    : "using installed voice activity model ") + ready.file());
            case VadModelSetup.Outcome.Unavailable none -> err.println("parley: note: " + none.message());
        }
    }
}
