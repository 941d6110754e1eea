package dev.parley.app.cli.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.parley.app.Main;
import dev.parley.engine.SharedFixtures;
import dev.parley.app.cli.ErrorReporter;
import dev.parley.app.cli.Terminal;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.RetryPolicy;
import dev.parley.models.download.SpaceProbe;
import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code parley models ...} run in-process, as a user would type it. */
class ModelsCommandTest {
    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    private Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        Terminal terminal = new Terminal(new PrintStream(out, true, StandardCharsets.UTF_8), errStream,
                new ByteArrayInputStream(new byte[0]), false);
        CommandLine cl = Main.commandLine(terminal);
        ErrorReporter errors = new ErrorReporter(errStream, false);
        cl.setParameterExceptionHandler(errors);
        cl.setExecutionExceptionHandler(errors);
        ModelsCommand models = cl.getSubcommands().get("models").getCommand();
        models.downloaders = () -> new Downloader(Downloader.defaultClient(), RetryPolicy.immediate(2), d -> { },
                SpaceProbe.FILE_STORE);
        int exit = cl.execute(args);
        cl.getOut().flush();
        cl.getErr().flush();
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private String home() {
        return dir.resolve("store").toString();
    }

    @Test
    void infoPrintsTheManifestFiguresOfEveryParityModel() throws IOException {
        Path manifest = SharedFixtures.require("parity/MANIFEST.md");
        int checked = 0;
        for (String line : Files.readAllLines(manifest)) {
            if (!line.startsWith("| m") || !line.contains(".gguf")) {
                continue;
            }
            String[] c = line.split("\\|");
            String file = c[1].trim();
            Run r = run("models", "--home", home(), "info", manifest.resolveSibling(file).toString());
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("architecture:   " + c[3].trim()), r.out());
            assertTrue(r.out().contains("(" + c[5].trim() + ")"), "shape " + c[5].trim() + " in\n" + r.out());
            assertTrue(r.out().contains("tensor types:   " + c[9].trim()), r.out());
            assertTrue(r.out().contains("file size:      " + c[2].trim() + " MiB ("
                    + Files.size(manifest.resolveSibling(file)) + " bytes)"), r.out());
            assertTrue(r.out().contains("chat template:"), r.out());
            checked++;
        }
        assertEquals(4, checked);
    }

    @Test
    void infoMemoryFollowsCtx() {
        Path m1 = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        Run r = run("models", "info", "--ctx", "1024", m1.toString());
        assertEquals(0, r.exit(), r.err());
        // 2 * 4 layers * 4 kv heads * 32 * 4 bytes = 4096 bytes per token; 1024 tokens = 4 MB
        assertTrue(r.out().contains("4.0 KB per token (F32)"), r.out());
        assertTrue(r.out().contains("at context 1024 (weights 20.3 MB + KV cache 4.0 MB)"), r.out());
    }

    @Test
    void listShowsTheCatalogWithTheDefaultMarked() {
        Run r = run("models", "--home", home(), "list");
        assertEquals(0, r.exit(), r.err());
        String qwen = r.out().lines().filter(l -> l.contains("qwen2.5-0.5b-instruct")).findFirst().orElseThrow();
        assertTrue(qwen.contains("*"), qwen);
        assertFalse(qwen.contains("[installed]"), qwen);
        assertTrue(r.out().contains("vosk-model-small-en-us-0.15"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.contains("[bundled]") && l.contains("cmu-slt-hsmm")), r.out());
        String vad = r.out().lines().filter(l -> l.contains("silero-vad-v5")).findFirst().orElseThrow();
        assertTrue(vad.contains("*") && vad.contains("MIT") && vad.contains("2.2 MB"), vad);
        assertTrue(r.out().contains("Voice activity (Silero VAD):"), r.out());
    }

    @Test
    void setupAlsoFetchesTheVoiceActivityModelOnceAndListShowsIt() throws Exception {
        Path m3 = SharedFixtures.require("parity/m3-llama-gpt2-tied-q8_0.gguf");
        byte[] gguf = Files.readAllBytes(m3);
        byte[] vad = new byte[200_000];
        new java.util.SplittableRandom(5).nextBytes(vad);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        List<String> paths = new java.util.concurrent.CopyOnWriteArrayList<>();
        server.createContext("/", ex -> {
            paths.add(ex.getRequestURI().getPath());
            byte[] body = ex.getRequestURI().getPath().endsWith(".onnx") ? vad : gguf;
            ex.sendResponseHeaders(200, body.length);
            try (var os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            Path catalog = writeCatalog(base + "/m3.gguf", gguf.length, sha256(gguf),
                    vadEntry(base + "/silero_vad.onnx", vad.length, sha256(vad)));

            Run setup = run("models", "--home", home(), "--catalog", catalog.toString(), "setup");
            assertEquals(0, setup.exit(), setup.err());
            Path file = dir.resolve("store/vad/silero_vad_v5.onnx");
            assertTrue(setup.out().contains("downloaded " + file), setup.out());
            assertTrue(java.util.Arrays.equals(vad, Files.readAllBytes(file)));
            assertEquals(List.of("/m3.gguf", "/silero_vad.onnx"), paths);

            Run again = run("models", "--home", home(), "--catalog", catalog.toString(), "setup");
            assertEquals(0, again.exit(), again.err());
            assertTrue(again.out().contains("using installed voice activity model " + file), again.out());
            assertEquals(2, paths.size(), "nothing fetched twice");

            Run list = run("models", "--home", home(), "--catalog", catalog.toString(), "list");
            assertTrue(list.out().lines().anyMatch(l -> l.contains("[installed]") && l.contains("silero-vad-v5")),
                    list.out());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void setupOfflineForTheVoiceActivityModelIsANoteNotAnError() throws Exception {
        Path m1 = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        Files.createDirectories(dir.resolve("store/models"));
        Files.copy(m1, dir.resolve("store/models/mine.gguf"));
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path catalog = writeCatalog("http://127.0.0.1:" + port + "/m.gguf", 1000, null,
                vadEntry("http://127.0.0.1:" + port + "/silero_vad.onnx", 2327524,
                        "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f"));
        Run r = run("models", "--home", home(), "--catalog", catalog.toString(), "setup");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("using installed model"), r.out());
        assertTrue(r.err().contains("parley: note: could not download Silero test (cannot reach 127.0.0.1: are you "
                + "offline?): the voice uses the energy VAD until 'parley models pull silero-vad-v5' succeeds"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void pullInstallsWithAProgressBarThenListInfoAndRmSeeIt() throws Exception {
        Path m3 = SharedFixtures.require("parity/m3-llama-gpt2-tied-q8_0.gguf");
        byte[] bytes = Files.readAllBytes(m3);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        List<String> ranges = new ArrayList<>();
        server.createContext("/", ex -> {
            ranges.add(String.valueOf(ex.getRequestHeaders().getFirst("Range")));
            ex.sendResponseHeaders(200, bytes.length);
            try (var os = ex.getResponseBody()) {
                os.write(bytes);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/m3.gguf";
            Path catalog = writeCatalog(url, bytes.length, sha256(bytes));

            Run pull = run("models", "--home", home(), "--catalog", catalog.toString(), "pull", "tiny-test");
            assertEquals(0, pull.exit(), pull.err());
            assertTrue(pull.err().contains("100%"), "progress bar reaches 100%: " + pull.err());
            assertTrue(pull.err().contains("MB"), pull.err());
            assertTrue(pull.out().contains("installed tiny-test"), pull.out());
            assertEquals(List.of("null"), ranges, "one fresh request");

            Run list = run("models", "--home", home(), "--catalog", catalog.toString(), "list");
            assertTrue(list.out().lines().anyMatch(l -> l.contains("[installed]") && l.contains("tiny-test")),
                    list.out());

            Run info = run("models", "--home", home(), "--catalog", catalog.toString(), "info", "tiny-test");
            assertEquals(0, info.exit(), info.err());
            assertTrue(info.out().contains("192/3/6/2/32/512"), info.out());

            Run again = run("models", "--home", home(), "--catalog", catalog.toString(), "pull", "tiny-test");
            assertTrue(again.out().contains("already installed"), again.out());

            Run rm = run("models", "--home", home(), "--catalog", catalog.toString(), "rm", "tiny-test");
            assertEquals(0, rm.exit(), rm.err());
            assertFalse(Files.exists(dir.resolve("store/models/m3.gguf")));
            Run rmAgain = run("models", "--home", home(), "--catalog", catalog.toString(), "rm", "tiny-test");
            assertEquals(2, rmAgain.exit());
            assertTrue(rmAgain.err().startsWith("parley: error: tiny-test is not installed"), rmAgain.err());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void offlinePullSaysSoInOneLineAndExits2() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path catalog = writeCatalog("http://127.0.0.1:" + port + "/m.gguf", 1000, null);
        Run r = run("models", "--home", home(), "--catalog", catalog.toString(), "pull", "tiny-test");
        assertEquals(2, r.exit());
        String last = r.err().lines().reduce((a, b) -> b).orElseThrow();
        assertEquals("parley: error: cannot reach 127.0.0.1: are you offline? You can still open a local GGUF file "
                + "with --model", last);
        assertFalse(r.err().contains("Exception"), "no stack trace: " + r.err());
    }

    @Test
    void setupOnAnEmptyStoreOfflineOffersALocalFileOrTheDemoModel() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path catalog = writeCatalog("http://127.0.0.1:" + port + "/m.gguf", 1000, null);
        Run r = run("models", "--home", home(), "--catalog", catalog.toString(), "setup");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("parley: error: No model is installed, and cannot reach 127.0.0.1"), r.err());
        assertTrue(r.err().contains("parley chat --model /path/to/model.gguf"), r.err());
        assertTrue(r.err().contains("parley models synth"), r.err());
        assertTrue(r.err().contains("it talks nonsense"), r.err());
        assertFalse(r.err().contains("Exception"), "no stack trace: " + r.err());
    }

    @Test
    void setupKeepsAnInstalledModel() throws Exception {
        Path m1 = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        Files.createDirectories(dir.resolve("store/models"));
        Files.copy(m1, dir.resolve("store/models/mine.gguf"));
        Run r = run("models", "--home", home(), "setup", "--vad", "energy");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("using installed model"), r.out());
        Run list = run("models", "--home", home(), "list");
        assertTrue(list.out().lines().anyMatch(l -> l.contains("[installed] mine.gguf") && l.contains("llama")),
                list.out());
    }

    @Test
    void unknownNamesAndMissingArgumentsAreOneLineErrors() {
        Run unknown = run("models", "--home", home(), "pull", "no-such-model");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().startsWith("parley: error: unknown model 'no-such-model'"), unknown.err());
        Run missing = run("models", "info");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().startsWith("parley: error: Missing required parameter"), missing.err());
        Run badFile = run("models", "info", dir.resolve("nope.gguf").toString());
        assertEquals(2, badFile.exit());
        assertTrue(badFile.err().startsWith("parley: error: "), badFile.err());
    }

    @Test
    void infoOfAGarbageFileIsAClearError() throws IOException {
        Path junk = Files.writeString(dir.resolve("junk.gguf"), "this is not a gguf file at all");
        Run r = run("models", "info", junk.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("parley: error: "), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    private static String vadEntry(String url, long size, String sha) {
        return """
                ,{"id": "silero-vad-v5", "kind": "vad", "name": "Silero test", "url": "%s",
                  "fileName": "silero_vad_v5.onnx", "sizeBytes": %d, "sha256": "%s", "license": "MIT",
                  "default": true, "defaultReason": "the only one"}""".formatted(url, size, sha);
    }

    private Path writeCatalog(String url, long size, String sha) throws IOException {
        return writeCatalog(url, size, sha, "");
    }

    private Path writeCatalog(String url, long size, String sha, String more) throws IOException {
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "tiny-test", "kind": "llm", "name": "Tiny test model", "url": "%s",
                   "fileName": "m3.gguf", "sizeBytes": %d, "sha256": %s, "checksumNote": "test file",
                   "license": "test", "architecture": "llama", "chatTemplate": "none", "parameters": %d,
                   "contextLength": 512,
                   "shape": {"embeddingLength": 192, "blockCount": 3, "headCount": 6, "headCountKv": 2,
                             "headDim": 32, "feedForwardLength": 512, "vocabSize": 50257,
                             "tiedEmbeddings": true, "attentionBias": false},
                   "default": true, "defaultReason": "the only one"}%s]}
                """.formatted(url, size, sha == null ? "null" : "\"" + sha + "\"",
                new dev.parley.models.catalog.ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false).parameterCount(),
                more);
        return Files.writeString(dir.resolve("catalog.json"), json);
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b)).toLowerCase(Locale.ROOT);
    }
}
