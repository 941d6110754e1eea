package dev.parley.app;

import dev.parley.app.cli.CommandFactory;
import dev.parley.app.cli.DefaultCommand;
import dev.parley.app.cli.ErrorReporter;
import dev.parley.app.cli.ParleyCommand;
import dev.parley.app.cli.Terminal;
import dev.parley.engine.backend.BackendKind;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;

/**
 * Parley's entry point and composition root: builds the command tree with its dependencies and
 * runs it. Exit codes: 0 success, 1 internal error, 2 bad arguments or bad input files.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        if (!Arrays.asList(args).contains("--debug")) {
            // The command line reports what matters itself; library log records would only add noise.
            Logger.getLogger("").setLevel(Level.SEVERE);
        }
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        java.io.Console console = System.console();
        int code = run(args, new Terminal(out, err, System.in, console != null && console.isTerminal()));
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs one command line in-process (non-interactive) and returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        return run(args, new Terminal(out, err, in, false));
    }

    /** Runs one command line against {@code terminal} and returns its exit code. */
    public static int run(String[] args, Terminal terminal) {
        return run(args, terminal, DefaultCommand.forThisMachine());
    }

    /**
     * As {@link #run(String[], Terminal)}; without a command it runs {@code fallback}: the window where there is a
     * display, else the terminal chat (with the first-run path choosing the model in both).
     */
    public static int run(String[] args, Terminal terminal, DefaultCommand fallback) {
        boolean debug = Arrays.asList(args).contains("--debug");
        if (args.length == 0 || (args.length == 1 && debug)) {
            fallback.notice().ifPresent(terminal.err()::println);
            args = debug ? new String[] {"--debug", fallback.command()} : new String[] {fallback.command()};
        }
        CommandLine cli = commandLine(terminal);
        ErrorReporter errors = new ErrorReporter(terminal.err(), debug);
        cli.setParameterExceptionHandler(errors);
        cli.setExecutionExceptionHandler(errors);
        int code = cli.execute(args);
        terminal.out().flush();
        terminal.err().flush();
        return code;
    }

    /** The command tree, wired to {@code terminal}. */
    public static CommandLine commandLine(Terminal terminal) {
        CommandLine cli = new CommandLine(ParleyCommand.class, new CommandFactory(terminal));
        cli.setOut(new PrintWriter(new OutputStreamWriter(terminal.out(), StandardCharsets.UTF_8), true));
        cli.setErr(new PrintWriter(new OutputStreamWriter(terminal.err(), StandardCharsets.UTF_8), true));
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.registerConverter(BackendKind.class, Main::backend);
        return cli;
    }

    private static BackendKind backend(String value) {
        try {
            return BackendKind.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
