package dev.parley.models.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.models.catalog.ArchiveLayout;
import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelShape;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.ChecksumMismatchException;
import dev.parley.models.download.DownloadProgress;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.RetryPolicy;
import dev.parley.models.download.SpaceProbe;
import dev.parley.models.download.TestServers;
import dev.parley.models.download.ZipUnpacker;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store layout, index, installation from a real local HTTP server, removal. */
class ModelStoreTest {
    @TempDir
    Path dir;

    static CatalogEntry llm(String id, URI url, String fileName, Long size, String sha) {
        return new CatalogEntry(id, EntryKind.LLM, id, "test", null, url, fileName, size, sha,
                sha == null ? "no checksum published" : null, "Apache-2.0", "llama", "Q8_0", "chatml",
                new ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false).parameterCount(), 512,
                new ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false), null, null, "en", false, null, null);
    }

    static ModelInstaller installer(ModelStore store) {
        return new ModelInstaller(store, new Downloader(Downloader.defaultClient(), RetryPolicy.immediate(2),
                d -> { }, SpaceProbe.FILE_STORE), new ZipUnpacker());
    }

    @Test
    void locationIsExplicitThenParleyHomeThenXdgThenHomeCache() {
        Path home = Path.of("/home/u");
        assertEquals(Path.of("/data/p"), ModelStore.defaultRoot(Map.of("PARLEY_HOME", "/data/p",
                "XDG_CACHE_HOME", "/x"), home));
        assertEquals(Path.of("/x/parley"), ModelStore.defaultRoot(Map.of("XDG_CACHE_HOME", "/x"), home));
        assertEquals(Path.of("/home/u/.cache/parley"), ModelStore.defaultRoot(Map.of(), home));
        assertEquals(Path.of("/home/u/.cache/parley"), ModelStore.defaultRoot(Map.of("XDG_CACHE_HOME", "rel"), home),
                "a relative XDG_CACHE_HOME is ignored, as the XDG spec says");
    }

    @Test
    void installsAGgufListsItWithItsMetadataAndRemovesIt() throws Exception {
        Path fixture = SharedFixtures.require("parity/m3-llama-gpt2-tied-q8_0.gguf");
        byte[] bytes = Files.readAllBytes(fixture);
        try (var server = TestServers.serving(bytes)) {
            ModelStore store = new ModelStore(dir.resolve("store"));
            CatalogEntry entry = llm("tiny", server.uri("m3.gguf"), "m3.gguf", (long) bytes.length,
                    TestServers.sha256(bytes));
            List<DownloadProgress> events = new ArrayList<>();

            Path installed = installer(store).install(entry, events::add, new CancelToken());

            assertEquals(store.modelsDir().resolve("m3.gguf"), installed);
            assertTrue(store.isInstalled(entry));
            assertEquals(DownloadProgress.Phase.DONE, events.getLast().phase());
            List<InstalledModel> models = store.installedModels();
            assertEquals(1, models.size());
            ModelInfo info = models.getFirst().info();
            assertEquals("llama", info.architecture());
            assertEquals("192/3/6/2/32/512", info.shapeSummary());
            InstalledItem item = models.getFirst().item().orElseThrow();
            assertEquals("tiny", item.id());
            assertEquals("catalog", item.checksumSource());
            assertEquals(TestServers.sha256(bytes), item.sha256());

            assertTrue(store.remove(entry));
            assertFalse(store.isInstalled(entry));
            assertTrue(store.installedModels().isEmpty());
            assertTrue(store.installed("tiny").isEmpty());
        }
    }

    @Test
    void firstDownloadChecksumIsRecordedAndLaterDownloadsAreCheckedAgainstIt() throws Exception {
        byte[] first = "the model as first downloaded".getBytes(StandardCharsets.UTF_8);
        ModelStore store = new ModelStore(dir.resolve("store"));
        try (var server = TestServers.serving(first)) {
            CatalogEntry entry = llm("tofu", server.uri("t.gguf"), "t.gguf", null, null);
            installer(store).install(entry, p -> { }, new CancelToken());
            assertEquals("first-download", store.installed("tofu").orElseThrow().checksumSource());
            assertEquals(TestServers.sha256(first), store.recordedChecksum("tofu").orElseThrow());
            store.remove(entry);
            assertEquals(TestServers.sha256(first), store.recordedChecksum("tofu").orElseThrow(),
                    "the recorded checksum outlives removal");
        }
        byte[] changed = "a different file at the same address".getBytes(StandardCharsets.UTF_8);
        try (var server = TestServers.serving(changed)) {
            CatalogEntry entry = llm("tofu", server.uri("t.gguf"), "t.gguf", null, null);
            assertThrows(ChecksumMismatchException.class,
                    () -> installer(store).install(entry, p -> { }, new CancelToken()));
            assertFalse(store.isInstalled(entry), "a rejected file is not installed");
            assertFalse(Files.exists(store.modelsDir().resolve("t.gguf.part")));
        }
    }

    @Test
    void voskArchiveIsUnpackedIntoAsrAndTheZipRemoved() throws Exception {
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream zos = new ZipOutputStream(zip)) {
            zos.putNextEntry(new ZipEntry("vosk-test/conf/model.conf"));
            zos.write("--min-active=200".getBytes(StandardCharsets.UTF_8));
            zos.closeEntry();
        }
        byte[] bytes = zip.toByteArray();
        try (var server = TestServers.serving(bytes)) {
            ModelStore store = new ModelStore(dir.resolve("store"));
            CatalogEntry entry = new CatalogEntry("vosk-test", EntryKind.ASR, "Vosk test", "t", null,
                    server.uri("vosk-test.zip"), "vosk-test.zip", (long) bytes.length, TestServers.sha256(bytes), null,
                    "Apache-2.0", null, null, null, null, null, null, new ArchiveLayout("zip", "vosk-test"), null,
                    "en-US", false, null, null);
            List<DownloadProgress.Phase> phases = new ArrayList<>();

            Path out = installer(store).install(entry, p -> phases.add(p.phase()), new CancelToken());

            assertEquals(store.asrDir().resolve("vosk-test"), out);
            assertEquals("--min-active=200", Files.readString(out.resolve("conf/model.conf")));
            assertFalse(Files.exists(store.asrDir().resolve("vosk-test.zip")));
            assertEquals(DownloadProgress.Phase.DONE, phases.getLast());
            assertEquals(1, phases.stream().filter(p -> p == DownloadProgress.Phase.DONE).count());
            assertTrue(phases.contains(DownloadProgress.Phase.UNPACKING));
            assertEquals("asr/vosk-test", store.installed("vosk-test").orElseThrow().path());
        }
    }

    @Test
    void unreadableFilesAreListedWithTheReason() throws Exception {
        ModelStore store = new ModelStore(dir.resolve("store"));
        store.createLayout();
        Files.writeString(store.modelsDir().resolve("broken.gguf"), "not a gguf");
        Files.writeString(store.modelsDir().resolve("half.gguf.part"), "partial");
        List<InstalledModel> models = store.installedModels();
        assertEquals(1, models.size(), "part files are never listed");
        assertNull(models.getFirst().info());
        assertTrue(models.getFirst().error() != null && !models.getFirst().error().isBlank());
    }

    @Test
    void emptyStoreOfflineFirstRunOffersALocalFileOrTheDemoModel() throws Exception {
        ModelStore store = new ModelStore(dir.resolve("store"));
        var catalog = TestServers.catalogWithDefaultAt(TestServers.closedPortUri("qwen.gguf"));
        FirstRun.Outcome outcome = new FirstRun(store, catalog, installer(store))
                .ensureModel(p -> { }, new CancelToken());
        FirstRun.Outcome.NoModel none = assertInstanceOf(FirstRun.Outcome.NoModel.class, outcome);
        assertTrue(none.message().contains("are you offline?"), none.message());
        assertTrue(none.message().contains("--model"), none.message());
        assertTrue(none.message().contains("parley models synth"), none.message());
        assertTrue(none.message().contains("nonsense"), "the demo model is labelled as such: " + none.message());
    }

    @Test
    void firstRunUsesAnInstalledModel() throws Exception {
        Path fixture = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        ModelStore store = new ModelStore(dir.resolve("store"));
        store.createLayout();
        Files.copy(fixture, store.modelsDir().resolve("m1.gguf"));
        var catalog = TestServers.catalogWithDefaultAt(TestServers.closedPortUri("qwen.gguf"));
        FirstRun.Outcome outcome = new FirstRun(store, catalog, installer(store))
                .ensureModel(p -> { }, new CancelToken());
        assertEquals(new FirstRun.Outcome.Ready(store.modelsDir().resolve("m1.gguf"), false), outcome);
    }
}
