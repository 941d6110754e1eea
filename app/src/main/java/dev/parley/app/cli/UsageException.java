package dev.parley.app.cli;

/** A problem with what the user asked for (a missing file, a bad value); printed as one line, exit code 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
