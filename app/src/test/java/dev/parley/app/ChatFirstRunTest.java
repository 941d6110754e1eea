package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley chat} without {@code --model}: the first run, as a new user meets it. */
class ChatFirstRunTest {
    @TempDir
    Path dir;

    @Test
    void offlineWithNoModelExplainsTheWaysForwardWithoutAStackTrace() throws Exception {
        Path catalog = offlineCatalog();
        CliRun run = CliRun.withInput("Hello\n", "chat", "--home", dir.resolve("store").toString(),
                "--catalog", catalog.toString());
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("\nparley: No model is installed, and cannot reach 127.0.0.1"), run.err());
        assertTrue(run.err().strip().endsWith("parley: error: no model to chat with (see the ways forward above)"),
                run.err());
        assertTrue(run.err().contains("parley chat --model /path/to/model.gguf"), run.err());
        assertTrue(run.err().contains("parley chat --demo"), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
        assertFalse(Files.exists(dir.resolve("store/demo")), "nothing is made without asking");
    }

    @Test
    void theDemoModelIsMadeOnFirstUseAndLabelled() throws Exception {
        Path home = dir.resolve("store");
        CliRun run = CliRun.withInput("Hello\n", "chat", "--home", home.toString(), "--demo", "-n", "3",
                "--temperature", "0");
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.err().contains("DEMO MODEL"), run.err());
        assertTrue(run.err().contains("random weights"), run.err());
        assertFalse(run.out().isBlank(), "the demo model answers");
        Path demo;
        try (var files = Files.list(home.resolve("demo"))) {
            demo = files.filter(p -> p.toString().endsWith(".gguf")).findFirst().orElseThrow();
        }
        try (GgufFile gguf = GgufFile.open(demo)) {
            assertTrue(gguf.getBoolean("parley.synth", false), "the demo file is marked as synthetic");
        }
        try (var files = Files.list(home)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().equals("models")
                    && p.toFile().list().length > 0), "the demo is not listed as an installed model");
        }
    }

    @Test
    void anInstalledModelIsUsedWithoutAsking() throws Exception {
        Path m1 = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        Path models = Files.createDirectories(dir.resolve("store/models"));
        Files.copy(m1, models.resolve("m1.gguf"));
        CliRun run = CliRun.withInput("Hello\n", "chat", "--home", dir.resolve("store").toString(),
                "--catalog", offlineCatalog().toString(), "-n", "4", "--temperature", "0");
        assertEquals(0, run.code(), run.toString());
        assertFalse(run.out().isBlank(), run.toString());
        assertFalse(run.err().contains("No model is installed"), run.err());
    }

    /** A catalog whose default model lives on a local port where nothing listens. */
    private Path offlineCatalog() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "tiny-test", "kind": "llm", "name": "Tiny test model", "url": "http://127.0.0.1:%d/m.gguf",
                   "fileName": "m.gguf", "sizeBytes": 1000, "sha256": null, "checksumNote": "test file",
                   "license": "test", "architecture": "llama", "chatTemplate": "none", "parameters": %d,
                   "contextLength": 512,
                   "shape": {"embeddingLength": 192, "blockCount": 3, "headCount": 6, "headCountKv": 2,
                             "headDim": 32, "feedForwardLength": 512, "vocabSize": 50257,
                             "tiedEmbeddings": true, "attentionBias": false},
                   "default": true, "defaultReason": "the only one"}]}
                """.formatted(port,
                new dev.parley.models.catalog.ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false).parameterCount());
        return Files.writeString(dir.resolve("catalog.json"), json);
    }
}
