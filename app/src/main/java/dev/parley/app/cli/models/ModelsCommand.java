package dev.parley.app.cli.models;

import dev.parley.app.cli.Terminal;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code parley models}: managing model files; without a subcommand it prints the usage. */
@Command(name = "models", mixinStandardHelpOptions = true, description = "Makes and manages model files.",
        subcommands = {SynthCommand.class})
public final class ModelsCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    ModelsCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(terminal.out());
        return 0;
    }
}
