package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.parley.app.TestModels;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.catalog.ModelShape;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's first run with nothing installed: it offers the catalog's default model, downloads
 * it from a real HTTP server on localhost with progress and loads it; offline it says so and offers
 * the other ways again.
 */
class FirstRunDownloadTest {
    @TempDir
    Path dir;

    private GuiHarness app;
    private HttpServer server;

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void theDefaultModelIsDownloadedVerifiedAndLoaded() throws Exception {
        byte[] model = Files.readAllBytes(TestModels.tiny(Files.createDirectories(dir.resolve("src"))));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/tiny.gguf", exchange -> {
            exchange.sendResponseHeaders(200, model.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(model);
            }
        });
        server.start();
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(model));
        app = new GuiHarness(dir.resolve("home"));
        app.catalog = catalog("http://127.0.0.1:" + server.getAddress().getPort() + "/tiny.gguf", model.length, sha);
        app.open();
        GuiHarness.waitFor(() -> app.window.mainViewModel().noModelProperty().get());
        assertTrue(GuiHarness.onFx(() -> app.window.mainViewModel().modelStatusProperty().get())
                .contains("download Tiny test model"));
        app.snapshot(Files.createDirectories(Path.of("target", "screenshots")).resolve("first-run.png"));
        double right = GuiHarness.onFx(() -> {
            javafx.scene.Node button = app.window.scene().lookup("#download-default-model");
            return button.localToScene(button.getBoundsInLocal()).getMaxX();
        });
        assertTrue(right <= 1280, "the download button fits in the 1280-pixel window: ends at " + right);
        app.press("download-default-model");
        GuiHarness.waitFor(() -> app.window.mainViewModel().readyProperty().get());
        Path installed = app.home.modelStore().modelsDir().resolve("tiny.gguf");
        assertEquals(installed.toString(), app.context.settings().modelPath(), "the download is the model in use");
        assertEquals(sha, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(installed))));
    }

    @Test
    void offlineTheWindowSaysSoAndOffersTheOtherWays() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        app = new GuiHarness(dir.resolve("home"));
        app.catalog = catalog("http://127.0.0.1:" + port + "/tiny.gguf", 1000, null);
        app.open();
        GuiHarness.waitFor(() -> app.window.mainViewModel().noModelProperty().get());
        app.press("download-default-model");
        GuiHarness.waitFor(() -> app.window.mainViewModel().noModelProperty().get()
                && app.window.mainViewModel().modelStatusProperty().get().startsWith("Could not download"));
        String status = GuiHarness.onFx(() -> app.window.mainViewModel().modelStatusProperty().get());
        assertTrue(status.contains("cannot reach 127.0.0.1"), status);
        assertTrue(status.contains("demo model"), status);
        assertTrue(GuiHarness.onFx(() -> app.window.scene().lookup("#use-demo-model").isVisible()));
        assertTrue(Files.notExists(app.home.modelStore().modelsDir().resolve("tiny.gguf")), "nothing half-installed");
    }

    private static ModelCatalog catalog(String url, long size, String sha) throws IOException {
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "tiny-test", "kind": "llm", "name": "Tiny test model", "url": "%s",
                   "fileName": "tiny.gguf", "sizeBytes": %d, "sha256": %s, "checksumNote": "test file",
                   "license": "test", "architecture": "llama", "chatTemplate": "chatml", "parameters": %d,
                   "contextLength": 2048,
                   "shape": {"embeddingLength": 192, "blockCount": 3, "headCount": 6, "headCountKv": 2,
                             "headDim": 32, "feedForwardLength": 512, "vocabSize": 50257,
                             "tiedEmbeddings": true, "attentionBias": false},
                   "default": true, "defaultReason": "the only one"}]}
                """.formatted(url, size, sha == null ? "null" : "\"" + sha + "\"",
                new ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false).parameterCount());
        return ModelCatalog.load(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test catalog");
    }
}
