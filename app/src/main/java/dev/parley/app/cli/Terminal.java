package dev.parley.app.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Objects;

/**
 * Where a command reads and writes: results on {@code out}, diagnostics and timings on {@code err},
 * user input from {@code in}. {@code interactive} is true when a person is typing (prompts are shown).
 */
public record Terminal(PrintStream out, PrintStream err, InputStream in, boolean interactive) {
    public Terminal {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        Objects.requireNonNull(in, "in");
    }
}
