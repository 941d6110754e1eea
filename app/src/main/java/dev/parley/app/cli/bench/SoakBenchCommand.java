package dev.parley.app.cli.bench;

import dev.parley.app.cli.LoadedModel;
import dev.parley.app.cli.ModelArgs;
import dev.parley.app.cli.Terminal;
import dev.parley.app.cli.UsageException;
import dev.parley.engine.tokenizer.ChatTemplate;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parley bench soak}: many typed turns through the batcher with random cancellations, and the
 * process's heap, memory outside the heap, threads, file handles and KV blocks after every 100 turns.
 * Exits with 1 when they are not flat (see docs/reliability.md).
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Runs many typed chat turns through the batcher (several chats at once, some replies "
                + "cancelled) and reports heap, native memory, threads and file handles after every interval.",
                "Exit code 1 when they grew: a leak."})
final class SoakBenchCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Option(names = "--turns", paramLabel = "N", defaultValue = "1000", description = "Turns in all (default: ${DEFAULT-VALUE}).")
    int turns;

    @Option(names = "--chats", paramLabel = "N", defaultValue = "4",
            description = "Chats taking turns at the same time (default: ${DEFAULT-VALUE}).")
    int chats;

    @Option(names = "--cancel", paramLabel = "SHARE", defaultValue = "0.2",
            description = "Share of replies cancelled after a random number of tokens (default: ${DEFAULT-VALUE}).")
    double cancel;

    @Option(names = {"-n", "--max-tokens"}, paramLabel = "N", defaultValue = "24",
            description = "Most tokens per reply (default: ${DEFAULT-VALUE}).")
    int maxTokens;

    @Option(names = "--every", paramLabel = "N", defaultValue = "100",
            description = "Turns between samples (default: ${DEFAULT-VALUE}).")
    int every;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    SoakBenchCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        SoakRun.Options options;
        try {
            options = new SoakRun.Options(turns, chats, cancel, maxTokens, modelArgs.context(), every, seed);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        PrintStream out = terminal.out();
        if (!java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+AlwaysPreTouch")) {
            terminal.err().println("parley: soak: heap pages count in the resident size only once touched, so memory "
                    + "outside the heap is only meaningful with a fixed, pre-touched heap: "
                    + "PARLEY_JAVA_OPTS='-Xms1g -Xmx1g -XX:+AlwaysPreTouch'");
        }
        try (LoadedModel loaded = LoadedModel.open(modelArgs)) {
            ChatTemplate template = ChatTemplate.detect(loaded.model().gguf().getString("tokenizer.chat_template", null));
            out.println("| turns | completed | cancelled | heap used MiB | RSS MiB | outside heap MiB | threads | "
                    + "file handles | KV blocks used / cached |");
            out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            SoakRun.Report report = new SoakRun(loaded.model(), loaded.tokenizer(), template, options).run(s -> {
                ProcessLevels l = s.levels();
                out.printf(Locale.ROOT, "| %d | %d | %d | %d | %d | %d | %d | %d | %d / %d |%n", s.turns(), s.completed(),
                        s.cancelled(), SoakRun.mib(l.heapUsedBytes()), SoakRun.mib(l.residentBytes()),
                        SoakRun.mib(l.offHeapBytes()), l.threads(), l.fileHandles(), s.kvBlocksUsed(), s.kvBlocksCached());
                out.flush();
            });
            if (report.flat()) {
                out.println("flat: heap, memory outside the heap, threads, file handles and KV blocks held stayed at "
                        + "their level");
                return 0;
            }
            for (String p : report.problems()) {
                terminal.err().println("parley: soak: " + p);
            }
            return 1;
        }
    }
}
