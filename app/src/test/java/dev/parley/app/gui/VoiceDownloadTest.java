package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.parley.app.TestModels;
import dev.parley.app.gui.voice.AppVoice;
import dev.parley.app.gui.voice.VoiceOptions;
import dev.parley.app.gui.voice.VoiceViewModel;
import dev.parley.app.gui.voice.VoskModelLocator;
import dev.parley.app.store.SettingsStore;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.engine.SharedFixtures;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.catalog.ModelShape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javafx.scene.control.Labeled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a speech model the voice bar offers the catalog's voice models (name and size), downloads them from a
 * real HTTP server on localhost with progress, and the voice loop then starts on what it installed (on the virtual
 * sound device); a cancelled download says so, installs nothing and offers the download again.
 */
class VoiceDownloadTest {
    private static final String TOP = "vosk-model-test";

    @TempDir
    Path dir;

    private GuiHarness app;
    private HttpServer server;
    private VirtualSoundDevice device;
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void close() throws Exception {
        release.countDown();
        if (device != null) {
            device.endInput();
        }
        if (app != null) {
            app.stop();
        }
        if (server != null) {
            server.stop(0);
        }
        if (device != null) {
            device.close();
        }
    }

    @Test
    void theSpeechModelIsOfferedDownloadedAndTheVoiceLoopStarts() throws Exception {
        byte[] zip = zipOfVoskModel();
        server("/model.zip", zip, false);
        device = VirtualSoundDevice.create();
        open(zip);
        VoiceViewModel voice = app.window.voiceViewModel();
        GuiHarness.waitFor(() -> voice.statusProperty().get().contains("no speech model installed"));
        String offer = GuiHarness.onFx(() -> ModelNamesAsWrittenTest.drawnText(app.window.scene()
                .lookup("#download-voice-models")));
        assertTrue(offer.contains("Vosk test_model 0.1") && offer.contains(dev.parley.models.download.Bytes.human(zip.length)),
                "the offer names the model and its size as written: " + offer);

        java.util.List<Double> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        GuiHarness.onFx(() -> {
            ((javafx.scene.control.ProgressBar) app.window.scene().lookup("#voice-download-progress")).progressProperty()
                    .addListener((o, a, v) -> progress.add(v.doubleValue()));
            return null;
        });
        app.press("download-voice-models");
        GuiHarness.waitFor(() -> voice.availableProperty().get() || voice.statusProperty().get().startsWith("Voice unavailable")
                && !app.window.scene().lookup("#voice-download-progress").isVisible()
                && label("#voice-download-status").getText().startsWith("Could not"));
        assertTrue(voice.availableProperty().get(), voice.statusProperty().get() + " / "
                + GuiHarness.onFx(() -> label("#voice-download-status").getText()));
        assertTrue(Files.isDirectory(app.home.modelStore().asrDir().resolve(TOP)), "unpacked into the model store");
        assertTrue(progress.stream().anyMatch(v -> v > 0 && v <= 1), "the progress bar moved: " + progress);
        assertTrue(((AppVoice) app.context.voice()).running(), "the loop runs on the downloaded model");
        assertTrue(!GuiHarness.onFx(() -> app.window.scene().lookup("#download-voice-models").isVisible()),
                "nothing left to offer");
    }

    @Test
    void aCancelledDownloadInstallsNothingAndIsOfferedAgain() throws Exception {
        byte[] zip = zipOfVoskModel();
        server("/model.zip", zip, true);         // sends half, then waits until the test ends
        open(zip);
        VoiceViewModel voice = app.window.voiceViewModel();
        GuiHarness.waitFor(() -> voice.statusProperty().get().contains("no speech model installed"));
        app.press("download-voice-models");
        // The server has sent half and waits: the download is under way (progress reports may be throttled).
        GuiHarness.waitFor(() -> app.window.scene().lookup("#voice-download-progress").isVisible()
                && app.window.scene().lookup("#cancel-voice-download").isVisible());
        assertTrue(GuiHarness.onFx(() -> label("#voice-download-status").getText()).startsWith("Downloading Vosk"));
        app.press("cancel-voice-download");
        GuiHarness.waitFor(() -> label("#voice-download-status").getText().startsWith("Download cancelled"));
        assertTrue(GuiHarness.onFx(() -> app.window.scene().lookup("#download-voice-models").isVisible()),
                "offered again");
        assertTrue(Files.notExists(app.home.modelStore().asrDir().resolve(TOP)), "nothing half-installed");
        assertTrue(!voice.availableProperty().get(), voice.statusProperty().get());
    }

    private void open(byte[] zip) throws Exception {
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(zip));
        app = new GuiHarness(dir.resolve("home"));
        app.catalog = catalog("http://127.0.0.1:" + server.getAddress().getPort() + "/model.zip", zip.length, sha);
        app.voice = home -> {
            try {
                return new AppVoice(new VoskModelLocator(home.modelStore(), app.catalog),
                        VoiceOptions.of(new SettingsStore(home.settings()).load()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        app.writeSettings(GuiHarness.settingsFor(TestModels.tiny(Files.createDirectories(dir.resolve("m"))), 512, 8));
        app.start();
    }

    private void server(String path, byte[] body, boolean stall) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(path, exchange -> {
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (stall) {
                    out.write(body, 0, body.length / 2);
                    out.flush();
                    release.await(60, TimeUnit.SECONDS);
                } else {
                    out.write(body);
                }
            } catch (InterruptedException | IOException e) {
                // the client went away (cancelled): nothing more to send
            }
        });
        server.start();
    }

    /** The shared fixture's Vosk model as the zip a catalog entry points at: one top folder. */
    private static byte[] zipOfVoskModel() throws IOException {
        Path model = SharedFixtures.require("vosk/model-assistant");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes); Stream<Path> files = Files.walk(model)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                zip.putNextEntry(new ZipEntry(TOP + "/" + model.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, zip);
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private static ModelCatalog catalog(String url, long size, String sha) throws IOException {
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "tiny-test", "kind": "llm", "name": "Tiny test model", "url": "http://127.0.0.1:9/tiny.gguf",
                   "fileName": "tiny.gguf", "sizeBytes": 1000, "sha256": null, "checksumNote": "test file",
                   "license": "test", "architecture": "llama", "chatTemplate": "chatml", "parameters": %d,
                   "contextLength": 2048,
                   "shape": {"embeddingLength": 192, "blockCount": 3, "headCount": 6, "headCountKv": 2,
                             "headDim": 32, "feedForwardLength": 512, "vocabSize": 50257,
                             "tiedEmbeddings": true, "attentionBias": false},
                   "default": true, "defaultReason": "the only one"},
                  {"id": "vosk-test", "kind": "asr", "name": "Vosk test_model 0.1", "url": "%s",
                   "fileName": "model.zip", "sizeBytes": %d, "sha256": "%s", "license": "Apache-2.0",
                   "language": "en-US", "archive": {"format": "zip", "topFolder": "%s"},
                   "default": true, "defaultReason": "the only one"}]}
                """.formatted(new ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false).parameterCount(), url, size,
                sha, TOP);
        return ModelCatalog.load(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test catalog");
    }

    private Labeled label(String selector) {
        return (Labeled) app.window.scene().lookup(selector);
    }
}
