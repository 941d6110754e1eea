package dev.parley.app.cli;

import dev.parley.app.cli.models.ProgressBar;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.Downloader;
import dev.parley.models.store.DemoModel;
import dev.parley.models.store.FirstRun;
import dev.parley.models.store.ModelStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Chooses the model of a command that can run without {@code --model} (the first run): an installed
 * model, else the catalog's default downloaded now with a progress bar, else (offline) what the user
 * picks: a local GGUF file or the clearly labelled demo model. Without a terminal to ask, it explains
 * the ways forward in a usage error.
 */
final class ModelChooser {
    private final Terminal terminal;
    private final StoreArgs storeArgs;
    private final Downloader downloader;

    ModelChooser(Terminal terminal, StoreArgs storeArgs, Downloader downloader) {
        this.terminal = terminal;
        this.storeArgs = storeArgs;
        this.downloader = downloader;
    }

    /**
     * The model to use.
     *
     * @param given the {@code --model} option, or null
     * @param demo  whether {@code --demo} asked for the demo model
     * @param input where the user's answer is read from when a question must be asked
     */
    Path choose(Path given, boolean demo, BufferedReader input) throws IOException {
        if (given != null) {
            return given;
        }
        ModelStore store = storeArgs.store();
        if (demo) {
            return demo(store);
        }
        ModelCatalog catalog = storeArgs.catalog();
        PrintWriter err = new PrintWriter(new OutputStreamWriter(terminal.err(), StandardCharsets.UTF_8), true);
        ProgressBar bar = new ProgressBar(err, catalog.defaultEntry(EntryKind.LLM).id());
        FirstRun.Outcome outcome;
        try {
            outcome = new FirstRun(store, catalog, StoreArgs.installer(store, downloader))
                    .ensureModel(bar, new CancelToken());
        } finally {
            bar.end();
        }
        return switch (outcome) {
            case FirstRun.Outcome.Ready ready -> {
                if (ready.downloaded()) {
                    terminal.err().println("parley: downloaded " + ready.file());
                }
                yield ready.file();
            }
            case FirstRun.Outcome.NoModel none -> askInstead(none.message(), store, input);
        };
    }

    private Path askInstead(String message, ModelStore store, BufferedReader input) throws IOException {
        if (!terminal.interactive()) {
            // The advice spans several lines; the error itself stays the usual single line.
            terminal.err().println("parley: " + message + "\n  - or chat with the demo model at once:  parley chat --demo");
            throw new UsageException("no model to chat with (see the ways forward above)");
        }
        terminal.err().println("parley: " + message);
        while (true) {
            terminal.err().print("Type the path of a GGUF file, 'demo' for the demo model, or press Enter to quit: ");
            terminal.err().flush();
            String answer = input.readLine();
            if (answer == null || answer.isBlank()) {
                throw new UsageException("no model chosen");
            }
            if (answer.strip().equalsIgnoreCase("demo")) {
                return demo(store);
            }
            Path file = Path.of(answer.strip());
            if (Files.isRegularFile(file)) {
                return file;
            }
            terminal.err().println("parley: no such file: " + file);
        }
    }

    private Path demo(ModelStore store) throws IOException {
        Path file = DemoModel.path(store);
        if (!Files.isRegularFile(file)) {
            terminal.err().println("parley: making the demo model (random weights) in " + file.getParent() + " ...");
        }
        return DemoModel.ensure(store, null);
    }
}
