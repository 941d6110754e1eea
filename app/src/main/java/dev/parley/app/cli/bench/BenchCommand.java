package dev.parley.app.cli.bench;

import dev.parley.app.cli.Terminal;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code parley bench}: the benchmarks; without a subcommand it prints the usage. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Measures the engine's speed.",
        subcommands = {DecodeBenchCommand.class, BatchBenchCommand.class, VoiceBenchCommand.class, DuplexBenchCommand.class,
            SoakBenchCommand.class})
public final class BenchCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    BenchCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(terminal.out());
        return 0;
    }
}
