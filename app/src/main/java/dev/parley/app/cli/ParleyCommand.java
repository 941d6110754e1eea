package dev.parley.app.cli;

import dev.parley.app.cli.bench.BenchCommand;
import dev.parley.app.cli.models.ModelsCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code parley} command: without a subcommand it prints the usage ({@code Main} runs {@code gui} when given no
 * arguments at all and there is a display, else {@code chat}: see {@link DefaultCommand}).
 */
@Command(name = "parley", mixinStandardHelpOptions = true, version = "parley 0.1.0",
        description = {"A local, private voice chat assistant and its LLM engine, on the command line.",
            "Without a command it opens the window where there is a display, else the terminal chat."},
        subcommands = {GenerateCommand.class, ChatCommand.class, TokenizeCommand.class, BenchCommand.class,
                       PerplexityCommand.class, ModelsCommand.class, GuiCommand.class, TranscribeCommand.class,
                       SayCommand.class, TalkCommand.class, ServeCommand.class})
public final class ParleyCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    @Option(names = "--debug", scope = ScopeType.INHERIT,
            description = "On errors, print the stack trace after the one-line message.")
    boolean debug;

    ParleyCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(terminal.out());
        return 0;
    }
}
