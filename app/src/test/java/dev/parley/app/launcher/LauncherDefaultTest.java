package dev.parley.app.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.app.cli.DefaultCommand;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./parley} without a command, as the README's first line runs it: under a virtual X display (Xvfb) the
 * window really appears (the X server lists a mapped top-level window titled "Parley") and SIGTERM ends it;
 * without a display it says so in one line and starts the terminal chat.
 */
class LauncherDefaultTest {

    @Test
    void underAVirtualDisplayTheWindowOpensAndSigtermEndsIt(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("Xvfb") != null && onPath("xwininfo") != null,
                "skipped: needs Xvfb and xwininfo (apt-get install -y xvfb x11-utils libgtk-3-0; .ci/run does)");
        Process xvfb = new ProcessBuilder(onPath("Xvfb").toString(), "-displayfd", "1", "-screen", "0", "1280x1024x24",
                "-nolisten", "tcp").redirectError(dir.resolve("xvfb.log").toFile()).start();
        Process parley = null;
        try {
            String display = ":" + new BufferedReader(new InputStreamReader(xvfb.getInputStream(),
                    StandardCharsets.UTF_8)).readLine();
            assertTrue(!display.equals(":null"), "Xvfb did not start: " + Files.readString(dir.resolve("xvfb.log")));
            Map<String, String> env = new HashMap<>();
            env.put("DISPLAY", display);
            env.put("WAYLAND_DISPLAY", null);
            Path log = dir.resolve("parley.log");
            parley = Launcher.builder(dir, env).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            parley.getOutputStream().close();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            boolean shown = false;
            while (!shown && parley.isAlive() && System.nanoTime() < deadline) {
                shown = windowTitledParley(display);
                if (!shown) {
                    parley.waitFor(250, TimeUnit.MILLISECONDS);   // polls the X server, not a timing assumption
                }
            }
            assertTrue(shown, "no window titled Parley on " + display + " (parley "
                    + (parley.isAlive() ? "still running" : "ended with " + parley.exitValue()) + "): "
                    + Files.readString(log));
            List<ProcessHandle> tree = new ArrayList<>(parley.descendants().toList());
            tree.add(parley.toHandle());

            parley.destroy();   // SIGTERM to the launcher's pid
            assertTrue(parley.waitFor(30, TimeUnit.SECONDS), "the window's JVM did not end within 30 s of SIGTERM");
            for (ProcessHandle p : tree) {
                p.onExit().get(10, TimeUnit.SECONDS);
                assertTrue(!p.isAlive(), "process " + p.pid() + " outlived SIGTERM");
            }
            assertTrue(!windowTitledParley(display), "the window is still on the display after SIGTERM");
        } finally {
            if (parley != null) {
                parley.descendants().forEach(ProcessHandle::destroyForcibly);
                parley.destroyForcibly();
            }
            xvfb.destroy();
            xvfb.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void withoutADisplayItSaysSoInOneLineAndStartsTheTerminalChat(@TempDir Path dir) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("DISPLAY", null);
        env.put("WAYLAND_DISPLAY", null);
        Process parley = Launcher.builder(dir, env).redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile()).start();
        parley.getOutputStream().close();    // end of input: the chat ends at once
        assertTrue(parley.waitFor(60, TimeUnit.SECONDS), "parley did not end at the end of its input");
        List<String> err = Files.readAllLines(dir.resolve("err.txt"));
        assertTrue(!err.isEmpty(), "expected the no-display notice on stderr");
        assertEquals(DefaultCommand.NO_DISPLAY, err.getFirst(), String.join("\n", err));
        // The chat itself ran: with nothing installed and no input its first-run path speaks next (not the window).
        assertTrue(err.size() > 1 || !Files.readString(dir.resolve("out.txt")).isBlank(),
                "the terminal chat said nothing: " + err);
        assertTrue(err.stream().noneMatch(l -> l.contains("cannot open a window")), String.join("\n", err));
    }

    /** Whether the X server at {@code display} has a top-level window titled "Parley" that is mapped. */
    private static boolean windowTitledParley(String display) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(onPath("xwininfo").toString(), "-display", display, "-name", "Parley")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return p.exitValue() == 0 && out.contains("Map State: IsViewable");
    }

    private static Path onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Path.of(d, program);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
