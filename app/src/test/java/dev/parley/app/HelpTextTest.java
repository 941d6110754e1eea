package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code --help} on every command and subcommand, in a fresh JVM ({@link HelpChild}): each prints its usage,
 * exits 0 and writes nothing to stderr: no "[picocli WARN]" (a help text with an unescaped {@code %}), no log
 * records, nothing but the JVM's own incubator notice.
 */
class HelpTextTest {

    @Test
    void everyCommandsHelpIsCleanInAFreshJvm() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), HelpChild.class.getName()).start();
        child.getOutputStream().close();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(child.getErrorStream()));
        String report = read(child.getInputStream());
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the help child did not end");
        assertEquals(0, child.exitValue(), report + stderr.get());

        List<String> noise = stderr.get().lines()
                .filter(l -> !l.startsWith("WARNING: Using incubator modules")).toList();
        assertEquals(List.of(), noise, "stderr of --help runs");

        List<String> commands = new ArrayList<>();
        String current = null;
        for (String line : report.lines().toList()) {
            if (line.startsWith("== ")) {
                current = line.substring(3, line.indexOf(" | "));
                commands.add(current);
                String name = current;
                assertTrue(line.contains(" | exit 0 | "), () -> "exit code of " + name + " --help: " + line);
                assertTrue(line.endsWith("| Usage: " + name) || line.contains("| Usage: " + name + " "),
                        () -> name + " --help starts with its usage: " + line);
            } else {
                String name = current;
                assertTrue(false, () -> name + " --help wrote to its stderr: " + line);
            }
        }
        // The tree has its bench and models subcommands: a walk that found only the top would prove little.
        assertTrue(commands.contains("parley bench batch") && commands.contains("parley models synth")
                && commands.size() > 15, "commands found: " + commands);
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
