package dev.parley.app.cli;

import dev.parley.app.cli.models.ModelsCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The root {@code parley} command; its subcommands do the work. */
@Command(name = "parley", mixinStandardHelpOptions = true, version = "Parley 0.1.0",
        description = "A local, private voice chat assistant.",
        subcommands = {ModelsCommand.class})
public final class ParleyCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The command line with Parley's error conventions: one line {@code parley: error: ...}, exit status 2. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new ParleyCommand());
        CliErrors.install(cl);
        return cl;
    }
}
