package dev.parley.app.cli;

import picocli.CommandLine;

/**
 * Parley's error convention for the command line: a single line {@code parley: error: MESSAGE} on stderr and exit
 * status {@link #EXIT_ERROR}, both for bad arguments and for failures while running, never a stack trace.
 */
public final class CliErrors {
    public static final int EXIT_ERROR = 2;

    private CliErrors() {
    }

    /** Installs the handlers on {@code cl} (they apply to its subcommands too). */
    public static void install(CommandLine cl) {
        cl.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("parley: error: " + ex.getMessage());
            ex.getCommandLine().getErr().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help' for more information.");
            return EXIT_ERROR;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("parley: error: " + describe(ex));
            return EXIT_ERROR;
        });
    }

    static String describe(Throwable ex) {
        String message = ex.getMessage();
        if (message == null || message.isBlank()) {
            return ex.getClass().getSimpleName();
        }
        return message.strip().replace("\n", " ");
    }
}
