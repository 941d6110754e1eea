package dev.parley.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.parley.audio.vad.VadChoice;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.RetryPolicy;
import dev.parley.models.download.SpaceProbe;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code parley talk} finds the Silero model: given, installed, or downloaded on first voice use. */
class VadModelChoiceTest {
    @TempDir
    Path dir;

    private final StringWriter errText = new StringWriter();
    private final PrintWriter err = new PrintWriter(errText, true);

    private static Downloader downloader() {
        return new Downloader(Downloader.defaultClient(), RetryPolicy.immediate(2), d -> { }, SpaceProbe.FILE_STORE);
    }

    private StoreArgs store(String url, long size, String sha) throws Exception {
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "silero-vad-v5", "kind": "vad", "name": "Silero test", "url": "%s",
                   "fileName": "silero_vad_v5.onnx", "sizeBytes": %d, "sha256": "%s", "license": "MIT",
                   "default": true, "defaultReason": "test"}]}
                """.formatted(url, size, sha);
        StoreArgs args = new StoreArgs();
        args.home = dir.resolve("store");
        args.catalogFile = Files.writeString(dir.resolve("catalog.json"), json);
        return args;
    }

    @Test
    void energyNeedsNoModelAndGivenIsUsedAsIs() throws Exception {
        StoreArgs args = store("http://127.0.0.1:1/x.onnx", 10, "0".repeat(64));
        assertNull(VadModelChoice.choose(VadChoice.ENERGY, null, args, downloader(), err));
        Path given = dir.resolve("mine.onnx");
        assertEquals(given, VadModelChoice.choose(VadChoice.SILERO, given, args, downloader(), err));
        assertEquals("", errText.toString());
    }

    @Test
    void firstVoiceUseDownloadsTheModelThenUsesIt() throws Exception {
        byte[] bytes = new byte[100_000];
        new SplittableRandom(2).nextBytes(bytes);
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            requests.incrementAndGet();
            ex.sendResponseHeaders(200, bytes.length);
            try (var os = ex.getResponseBody()) {
                os.write(bytes);
            }
        });
        server.start();
        try {
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            StoreArgs args = store("http://127.0.0.1:" + server.getAddress().getPort() + "/silero_vad.onnx",
                    bytes.length, sha);
            Path file = VadModelChoice.choose(VadChoice.SILERO, null, args, downloader(), err);
            assertEquals(dir.resolve("store/vad/silero_vad_v5.onnx"), file);
            assertArrayEquals(bytes, Files.readAllBytes(file));
            assertTrue(errText.toString().contains("downloading the voice activity model Silero test from 127.0.0.1"),
                    errText.toString());
            assertEquals(file, VadModelChoice.choose(VadChoice.SILERO, null, args, downloader(), err));
            assertEquals(1, requests.get());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void offlineTheVoiceKeepsTheEnergyVadAndSaysWhy() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        StoreArgs args = store("http://127.0.0.1:" + port + "/silero_vad.onnx", 1000, "0".repeat(64));
        assertNull(VadModelChoice.choose(VadChoice.SILERO, null, args, downloader(), err));
        assertTrue(errText.toString().contains("parley: could not download Silero test (cannot reach 127.0.0.1"),
                errText.toString());
        assertTrue(errText.toString().contains("energy VAD"), errText.toString());
    }
}
