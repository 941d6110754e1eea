package dev.parley.app.cli;

import dev.parley.app.cli.models.ProgressBar;
import dev.parley.audio.vad.VadChoice;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.Downloader;
import dev.parley.models.store.ModelStore;
import dev.parley.models.store.VadModelSetup;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Which Silero VAD model file a voice command uses: the one given ({@code --vad-model}), else the catalog's in the
 * model store, downloaded there on first voice use with a progress bar. Null means the energy VAD: asked for, or the
 * model could not be had (then one line on stderr says why; the voice still works).
 */
public final class VadModelChoice {
    private VadModelChoice() {
    }

    /** The model file for {@code choice}, or null for the energy VAD. */
    public static Path choose(VadChoice choice, Path given, StoreArgs storeArgs, Downloader downloader,
                              PrintWriter err) throws Exception {
        if (choice == VadChoice.ENERGY) {
            return null;
        }
        if (given != null) {
            return given;
        }
        ModelStore store = storeArgs.store();
        VadModelSetup setup = new VadModelSetup(store, storeArgs.catalog(), StoreArgs.installer(store, downloader));
        if (setup.installed().isPresent()) {
            return setup.installed().get();
        }
        if (setup.entry().isPresent()) {
            err.println("parley: downloading the voice activity model " + setup.entry().get().name() + " from "
                    + setup.entry().get().host() + " into " + store.root());
        }
        ProgressBar bar = new ProgressBar(err, setup.entry().map(e -> e.id()).orElse("vad"));
        VadModelSetup.Outcome outcome;
        try {
            outcome = setup.ensure(bar, new CancelToken());
        } finally {
            bar.end();
        }
        return switch (outcome) {
            case VadModelSetup.Outcome.Ready ready -> ready.file();
            case VadModelSetup.Outcome.Unavailable none -> {
                err.println("parley: " + none.message());
                yield null;
            }
        };
    }
}
