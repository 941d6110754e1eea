package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley serve}'s options: bad values are one clear line and exit code 2, before anything listens. */
class ServeCommandTest {

    @Test
    void badServerOptionsAreUsageErrors(@TempDir Path dir) throws Exception {
        String model = TestModels.tiny(dir).toString();
        CliRun port = CliRun.of("serve", "--model", model, "--port", "70000");
        assertEquals(2, port.code(), port.toString());
        assertEquals(java.util.List.of("parley: error: expected a port in [0, 65535] but found 70000"), port.errLines());

        CliRun running = CliRun.of("serve", "--model", model, "--port", "0", "--max-running", "0");
        assertEquals(2, running.code(), running.toString());
        assertTrue(running.errLines().getFirst().contains("at least 1 running sequence"), running.toString());

        CliRun memory = CliRun.of("serve", "--model", model, "--port", "0", "--kv-memory", "lots");
        assertEquals(2, memory.code(), memory.toString());
        assertEquals(java.util.List.of("parley: error: --kv-memory expects a positive size such as 512M or 2G but "
                + "found 'lots'"), memory.errLines());

        CliRun tiny = CliRun.of("serve", "--model", model, "--port", "0", "--kv-memory", "1K");
        assertEquals(2, tiny.code(), tiny.toString());
        assertTrue(tiny.errLines().getFirst().contains("holds no block"), tiny.toString());

        CliRun missing = CliRun.of("serve", "--port", "0");
        assertEquals(2, missing.code(), missing.toString());
        assertTrue(missing.errLines().getFirst().contains("--model"), missing.toString());
    }
}
