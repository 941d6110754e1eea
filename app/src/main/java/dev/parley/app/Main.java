package dev.parley.app;

import dev.parley.app.cli.ParleyCommand;

/** Parley's entry point: the composition root. Runs the {@code parley} command line and exits with its status. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(ParleyCommand.commandLine().execute(args));
    }
}
