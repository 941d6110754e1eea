package dev.parley.app.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SIGTERM sent to the {@code ./parley} launcher ends the JVM it started, and a stopped server frees its port. */
class LauncherSignalTest {

    @Test
    void sigtermToTheLauncherEndsServeAndFreesItsPort(@TempDir Path dir) throws Exception {
        Path model = TestModels.tiny(dir);
        int port = freePort();
        Process launcher = Launcher.builder(dir, Map.of(), "serve", "-m", model.toString(), "--port",
                String.valueOf(port)).redirectOutput(dir.resolve("out.txt").toFile()).start();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(launcher.getErrorStream(),
                StandardCharsets.UTF_8))) {
            String line;
            StringBuilder seen = new StringBuilder();
            while ((line = err.readLine()) != null && !line.contains("serving")) {
                seen.append(line).append('\n');
            }
            assertTrue(line != null, "expected 'parley: serving ...' on stderr but the launcher ended with: " + seen
                    + Files.readString(dir.resolve("out.txt")));
            assertFalse(seen.toString().contains("Using incubator modules"), "the launcher lets the JVM notice through: "
                    + seen);
            assertFalse(portFree(port), "expected the server to listen on port " + port);
            List<ProcessHandle> tree = new java.util.ArrayList<>(launcher.descendants().toList());
            tree.add(launcher.toHandle());
            assertTrue(tree.stream().anyMatch(p -> p.info().command().orElse("").endsWith("/java")),
                    "expected a java process among " + tree.stream().map(p -> p.info().command().orElse("?")).toList());

            launcher.destroy();  // SIGTERM to the launcher's pid, as `kill PID` would send
            assertTrue(launcher.waitFor(30, TimeUnit.SECONDS), "the launcher did not end within 30 s of SIGTERM");
            for (ProcessHandle p : tree) {
                assertTrue(p.onExit().get(10, TimeUnit.SECONDS) != null && !p.isAlive(),
                        "process " + p.pid() + " (" + p.info().command().orElse("?") + ") outlived SIGTERM");
            }
            assertTrue(portFree(port), "port " + port + " is still taken after SIGTERM");
            // 143 = 128 + SIGTERM: the JVM ended on the signal (its shutdown hooks ran), not by a crash.
            assertEquals(143, launcher.exitValue(), "exit status after SIGTERM");
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean portFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
