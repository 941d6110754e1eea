package dev.parley.models.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.ChecksumMismatchException;
import dev.parley.models.download.DownloadProgress;
import dev.parley.models.download.TestServers;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The voice-activity model: its catalog entry, and fetching it on first voice use from a real local HTTP server. */
class VadModelSetupTest {
    @TempDir
    Path dir;

    /** The Silero v5 file of the npm package the tests use (see the root pom), or null when absent. */
    private static Path npmModel() {
        for (String c : new String[] {System.getenv("PARLEY_SILERO_MODEL"), System.getProperty("parley.silero.model")}) {
            if (c != null && !c.isBlank() && Files.isRegularFile(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    /** The shipped VAD entry, but downloaded from {@code url} (and with the size and checksum given). */
    private static ModelCatalog catalogWithVadAt(URI url, long size, String sha) {
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "silero-vad-v5", "kind": "vad", "name": "Silero VAD v5 (test)", "url": "%s",
                   "fileName": "silero_vad_v5.onnx", "sizeBytes": %d, "sha256": "%s", "license": "MIT",
                   "default": true, "defaultReason": "test"}]}
                """.formatted(url, size, sha);
        return ModelCatalog.load(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test catalog");
    }

    @Test
    void theShippedCatalogHasTheOfficialSileroV5File() {
        ModelCatalog catalog = ModelCatalog.load();
        CatalogEntry e = catalog.defaultEntry(EntryKind.VAD);
        assertEquals("silero-vad-v5", e.id());
        assertEquals("raw.githubusercontent.com", e.host());
        assertTrue(e.url().getPath().startsWith("/snakers4/silero-vad/6478567951ae5c9979ad7b234185b5515f4be7a1/"),
                e.url().toString());
        assertEquals("2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f", e.sha256());
        assertEquals(2327524L, e.sizeBytes());
        assertEquals("MIT", e.license());
        ModelStore store = new ModelStore(dir.resolve("store"));
        assertEquals(store.root().resolve("vad/silero_vad_v5.onnx"), store.pathFor(e));
    }

    @Test
    void theCatalogChecksumAndSizeAreThoseOfTheTestModel() throws Exception {
        Path model = npmModel();
        assumeTrue(model != null, "skipped: the Silero VAD v5 model of @ricky0123/vad-web@0.0.31 is absent "
                + "(set PARLEY_SILERO_MODEL, as .ci/run does)");
        byte[] bytes = Files.readAllBytes(model);
        CatalogEntry e = ModelCatalog.load().defaultEntry(EntryKind.VAD);
        assertEquals(e.sizeBytes(), (long) bytes.length);
        assertEquals(e.sha256(), TestServers.sha256(bytes));
    }

    @Test
    void firstVoiceUseDownloadsItOnceThenUsesTheInstalledFile() throws Exception {
        Path model = npmModel();
        byte[] bytes;
        if (model != null) {
            bytes = Files.readAllBytes(model);
        } else {
            bytes = new byte[300_000];
            new SplittableRandom(1).nextBytes(bytes);
        }
        try (var server = TestServers.serving(bytes)) {
            ModelStore store = new ModelStore(dir.resolve("store"));
            ModelCatalog catalog = catalogWithVadAt(server.uri("silero_vad.onnx"), bytes.length,
                    TestServers.sha256(bytes));
            VadModelSetup setup = new VadModelSetup(store, catalog, ModelStoreTest.installer(store));
            assertTrue(setup.installed().isEmpty());
            List<DownloadProgress> progress = new ArrayList<>();

            VadModelSetup.Outcome first = setup.ensure(progress::add, new CancelToken());

            Path file = store.vadDir().resolve("silero_vad_v5.onnx");
            assertEquals(new VadModelSetup.Outcome.Ready(file, true), first);
            assertArrayEquals(bytes, Files.readAllBytes(file));
            assertEquals(DownloadProgress.Phase.DONE, progress.getLast().phase());
            assertEquals("vad/silero_vad_v5.onnx", store.installed("silero-vad-v5").orElseThrow().path());
            assertEquals("catalog", store.installed("silero-vad-v5").orElseThrow().checksumSource());
            int requests = server.requests();

            assertEquals(new VadModelSetup.Outcome.Ready(file, false), setup.ensure(p -> { }, new CancelToken()));
            assertEquals(requests, server.requests(), "no second download");
            assertEquals(file, setup.installed().orElseThrow());

            assertTrue(store.remove(catalog.require("silero-vad-v5")));
            assertFalse(Files.exists(file));
        }
    }

    @Test
    void aWrongFileIsRefusedAndTheVoiceKeepsTheEnergyVad() throws Exception {
        byte[] bytes = "this is not the model".getBytes(StandardCharsets.UTF_8);
        try (var server = TestServers.serving(bytes)) {
            ModelStore store = new ModelStore(dir.resolve("store"));
            ModelCatalog catalog = catalogWithVadAt(server.uri("silero_vad.onnx"), bytes.length,
                    "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f");
            VadModelSetup.Outcome out = new VadModelSetup(store, catalog, ModelStoreTest.installer(store))
                    .ensure(p -> { }, new CancelToken());
            VadModelSetup.Outcome.Unavailable none = assertInstanceOf(VadModelSetup.Outcome.Unavailable.class, out);
            assertInstanceOf(ChecksumMismatchException.class, none.cause());
            assertTrue(none.message().contains("energy VAD"), none.message());
            assertFalse(Files.exists(store.vadDir().resolve("silero_vad_v5.onnx")));
        }
    }

    @Test
    void offlineItSaysSoWithoutTheGgufAdvice() throws Exception {
        ModelStore store = new ModelStore(dir.resolve("store"));
        ModelCatalog catalog = catalogWithVadAt(TestServers.closedPortUri("silero_vad.onnx"), 2327524,
                "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f");
        VadModelSetup.Outcome out = new VadModelSetup(store, catalog, ModelStoreTest.installer(store))
                .ensure(p -> { }, new CancelToken());
        VadModelSetup.Outcome.Unavailable none = assertInstanceOf(VadModelSetup.Outcome.Unavailable.class, out);
        assertTrue(none.message().contains("cannot reach 127.0.0.1: are you offline?"), none.message());
        assertTrue(none.message().contains("parley models pull silero-vad-v5"), none.message());
        assertFalse(none.message().contains("--model"), none.message());
    }

    @Test
    void aCatalogWithoutOneIsNoError() throws Exception {
        ModelStore store = new ModelStore(dir.resolve("store"));
        ModelCatalog catalog = TestServers.catalogWithDefaultAt(TestServers.closedPortUri("qwen.gguf"));
        VadModelSetup setup = new VadModelSetup(store, catalog, ModelStoreTest.installer(store));
        assertTrue(setup.entry().isEmpty());
        assertInstanceOf(VadModelSetup.Outcome.Unavailable.class, setup.ensure(p -> { }, new CancelToken()));
    }
}
