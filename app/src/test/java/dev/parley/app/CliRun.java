package dev.parley.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** One in-process run of {@link Main}: exit code, stdout and stderr. */
record CliRun(int code, String out, String err) {

    static CliRun withInput(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static CliRun of(String... args) {
        return withInput("", args);
    }

    /** Lines of stderr that are not the JVM's incubator notice. */
    List<String> errLines() {
        return Arrays.stream(err.split("\\R")).filter(l -> !l.isBlank()).toList();
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- out:\n" + out + "\n--- err:\n" + err;
    }
}
