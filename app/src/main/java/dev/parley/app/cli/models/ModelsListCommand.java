package dev.parley.app.cli.models;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Bytes;
import dev.parley.models.store.InstalledModel;
import dev.parley.models.store.ModelStore;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code parley models list}: the catalog, each entry marked when installed, then other GGUF files in the store. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the catalog and what is installed.")
final class ModelsListCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    ModelsCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ModelCatalog catalog = parent.catalog();
        ModelStore store = parent.store();
        PrintWriter out = spec.commandLine().getOut();
        out.println("Model store: " + store.root());
        section(out, "Language models", catalog.entries(EntryKind.LLM), store);
        section(out, "Speech recognition (Vosk)", catalog.entries(EntryKind.ASR), store);
        section(out, "Voice activity (Silero VAD)", catalog.entries(EntryKind.VAD), store);
        section(out, "Voices (MaryTTS)", catalog.entries(EntryKind.TTS_VOICE), store);
        Set<String> catalogFiles = catalog.entries(EntryKind.LLM).stream().map(CatalogEntry::fileName)
                .collect(Collectors.toSet());
        List<InstalledModel> others = store.installedModels().stream()
                .filter(m -> !catalogFiles.contains(m.file().getFileName().toString())).toList();
        if (!others.isEmpty()) {
            out.println();
            out.println("Other GGUF files in the store:");
            for (InstalledModel m : others) {
                out.println("  [installed] " + m.file().getFileName() + "  " + (m.readable()
                        ? m.info().architecture() + ", " + ModelsInfoCommand.count(m.info().parameterCount())
                        + " params, " + Bytes.human(m.info().fileSize())
                        : "unreadable: " + m.error()));
            }
        }
        out.println();
        out.println("[installed] = in the store; * = default. Download with: parley models pull NAME");
        return 0;
    }

    private static void section(PrintWriter out, String title, List<CatalogEntry> entries, ModelStore store) {
        if (entries.isEmpty()) {
            return;
        }
        out.println();
        out.println(title + ":");
        for (CatalogEntry e : entries) {
            String state = e.isBundled() ? "[bundled]  " : store.isInstalled(e) ? "[installed]" : "           ";
            String size = e.isBundled() ? "" : e.sizeBytes() != null ? Bytes.human(e.sizeBytes()) : "size ?";
            String extra = e.kind() == EntryKind.LLM
                    ? ModelsInfoCommand.count(e.parameters()) + " params, " + e.license()
                            + ", KV " + Bytes.human(e.kvBytesPer1kTokens().orElse(0)) + "/1k tokens"
                    : e.license();
            out.println(String.format(Locale.ROOT, "  %s %s %-30s %-10s %s", state, e.isDefault() ? "*" : " ",
                    e.id(), size, extra));
        }
    }
}
