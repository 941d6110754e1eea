package dev.parley.app.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;

/**
 * Turns every failure into ONE line on stderr, {@code parley: error: <message>}, with exit code 2 for
 * bad arguments and bad input, 1 for internal errors. With {@code --debug} the stack trace follows.
 */
public final class ErrorReporter implements CommandLine.IParameterExceptionHandler,
        CommandLine.IExecutionExceptionHandler {
    /** Exit code for bad arguments, missing or unreadable files. */
    public static final int USAGE = 2;
    /** Exit code for a bug. */
    public static final int INTERNAL = 1;

    private final PrintStream err;
    private final boolean debug;

    public ErrorReporter(PrintStream err, boolean debug) {
        this.err = err;
        this.debug = debug;
    }

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        String hint = " (see: parley " + commandPath(ex.getCommandLine()) + "--help)";
        if (ex instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            hint = " (did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?)";
        }
        return report(ex.getMessage() + hint, ex, USAGE);
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cli, CommandLine.ParseResult parseResult) {
        Throwable cause = ex;
        while ((cause instanceof UncheckedIOException || cause instanceof CommandLine.ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof CommandLine.ParameterException pe) {
            return handleParseException(pe, new String[0]);
        }
        boolean userError = cause instanceof UsageException || cause instanceof IOException
                || cause instanceof IllegalArgumentException;
        String message = describe(cause);
        return report(userError ? message : "internal error: " + message, cause, userError ? USAGE : INTERNAL);
    }

    private int report(String message, Throwable cause, int code) {
        err.println("parley: error: " + message.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip());
        if (debug) {
            cause.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    private static String describe(Throwable t) {
        if (t instanceof NoSuchFileException e) {
            return "file not found: " + e.getFile();
        }
        if (t instanceof AccessDeniedException e) {
            return "permission denied: " + e.getFile();
        }
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            return t.getClass().getSimpleName();
        }
        return t instanceof UsageException || t instanceof IOException || t instanceof IllegalArgumentException
                ? m : t.getClass().getSimpleName() + ": " + m;
    }

    private static String commandPath(CommandLine cli) {
        StringBuilder path = new StringBuilder();
        for (CommandLine c = cli; c != null && c.getParent() != null; c = c.getParent()) {
            path.insert(0, c.getCommandName() + " ");
        }
        return path.toString();
    }
}
