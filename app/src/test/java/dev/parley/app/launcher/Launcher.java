package dev.parley.app.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts the repository's {@code ./parley} launcher script as a user would, on the test's own class path
 * ({@code PARLEY_CLASSPATH}), so that tests see what the script does with signals, displays and stderr.
 */
final class Launcher {
    private Launcher() {
    }

    /** The {@code parley} script at the root of the checkout (the tests run in the app module's folder). */
    static Path script() {
        Path p = Path.of("..", "parley").toAbsolutePath().normalize();
        if (!Files.isExecutable(p)) {
            throw new IllegalStateException("expected the launcher script at " + p + " but found none");
        }
        return p;
    }

    /** A process builder for {@code ./parley args...} with {@code env} added (a null value removes a variable). */
    static ProcessBuilder builder(Path workDir, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(script().toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
        Map<String, String> e = pb.environment();
        e.put("PARLEY_CLASSPATH", System.getProperty("java.class.path"));
        e.put("JAVA_HOME", System.getProperty("java.home"));
        e.put("PARLEY_JAVA_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        e.put("PARLEY_HOME", workDir.resolve("home").toString());
        env.forEach((k, v) -> {
            if (v == null) {
                e.remove(k);
            } else {
                e.put(k, v);
            }
        });
        return pb;
    }
}
