package dev.parley.app.gui.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.store.AppSettings;
import dev.parley.engine.model.KvFormat;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Bytes;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.ZipUnpacker;
import dev.parley.models.store.ModelInstaller;
import dev.parley.models.store.ModelStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model manager's view model without a window: one thread stands for the FX thread, downloads come from a real
 * HTTP server on localhost, files are real GGUF models made by the synthesizer.
 */
class ModelManagerViewModelTest {
    /** Bytes sent before the server holds: past the downloader's first progress report (256 KiB). */
    private static final long HOLD = 300_000;

    @TempDir
    Path dir;

    private final ExecutorService uiThread = Executors.newSingleThreadExecutor();
    private final ExecutorService background = Executors.newCachedThreadPool();
    private final AtomicReference<AppSettings> settings = new AtomicReference<>(AppSettings.defaults());
    private final List<String> used = new java.util.concurrent.CopyOnWriteArrayList<>();
    private ModelServer server;
    private ModelStore store;
    private ModelManagerViewModel vm;
    private ModelItem tiny;

    @BeforeEach
    void open() throws Exception {
        byte[] model = Files.readAllBytes(TestModels.tiny(Files.createDirectories(dir.resolve("src"))));
        server = new ModelServer("/tiny.gguf", model);
        ModelCatalog catalog = TestCatalogs.withTiny(server.url("/tiny.gguf"), server.size(), server.sha256());
        store = new ModelStore(dir.resolve("home"));
        vm = onUi(() -> new ModelManagerViewModel(catalog, store,
                new ModelInstaller(store, new Downloader(), new ZipUnpacker()), settings::get,
                (file, ctx, kv) -> {
                    used.add(file + " " + ctx + " " + kv);
                    settings.set(settings.get().withModel(file.toString(), ctx, kv));
                }, uiThread, background));
        onUi(vm::refresh).get(30, TimeUnit.SECONDS);
        tiny = onUi(() -> vm.item("tiny-test").orElseThrow());
    }

    @AfterEach
    void close() {
        server.close();
        uiThread.shutdownNow();
        background.shutdownNow();
    }

    @Test
    void listsTheCatalogWithFamilySizeAndMemoryAtTheChosenContextAndKv() throws Exception {
        assertEquals("TinyTest", tiny.family());
        assertEquals(ModelState.AVAILABLE, tiny.state());
        assertEquals(Bytes.human(server.size()), onUi(() -> tiny.sizeTextProperty().get()));
        onUi(() -> {
            vm.contextSizeProperty().set(1024);
            vm.kvProperty().set(KvFormat.F16);
            return null;
        });
        long kvPerToken = 2L * 3 * 2 * 32 * 2; // K and V, 3 layers, 2 KV heads of 32, 2 bytes
        assertEquals(Bytes.human(server.size() + 1024 * kvPerToken) + " at 1024 tokens, KV f16",
                onUi(() -> tiny.memoryProperty().get()));
        onUi(() -> {
            vm.contextSizeProperty().set(8192);
            return null;
        });
        assertTrue(onUi(() -> tiny.memoryProperty().get()).contains("at 2048 tokens"),
                "capped at the model's own context: " + onUi(() -> tiny.memoryProperty().get()));
        ModelItem qwen = onUi(() -> vm.item("qwen2.5-0.5b-instruct").orElseThrow());
        assertEquals("Qwen2.5", qwen.family());
        assertEquals("Llama 3.2", ModelItem.family("Llama-3.2-1B-Instruct (Q8_0)"));
    }

    @Test
    void pauseKeepsThePartAndResumeFetchesOnlyTheRest() throws Exception {
        server.holdAfter(HOLD);
        CompletableFuture<Void> first = onUi(() -> vm.download(tiny));
        waitUntil(() -> tiny.progressProperty().get() > 0);
        onUi(() -> {
            vm.pause(tiny);
            return null;
        });
        server.release();
        first.get(30, TimeUnit.SECONDS);
        assertEquals(ModelState.PAUSED, onUi(tiny::state));
        Path part = store.modelsDir().resolve("tiny.gguf.part");
        long kept = Files.size(part);
        assertTrue(kept >= 256 * 1024 && kept < server.size(), "kept " + kept + " of " + server.size());
        assertTrue(onUi(() -> tiny.detailProperty().get()).startsWith("Paused at"));

        onUi(() -> vm.download(tiny)).get(30, TimeUnit.SECONDS);
        assertEquals(ModelState.INSTALLED, onUi(tiny::state), onUi(() -> vm.message().get()));
        assertEquals(List.of("", "bytes=" + kept + "-"), server.ranges(), "the resume asked only for the rest");
        assertEquals(server.sha256(), sha256(store.modelsDir().resolve("tiny.gguf")));
        assertFalse(Files.exists(part));
    }

    @Test
    void cancelStopsTheDownloadAndDeletesThePart() throws Exception {
        server.holdAfter(HOLD);
        CompletableFuture<Void> download = onUi(() -> vm.download(tiny));
        waitUntil(() -> tiny.progressProperty().get() > 0);
        onUi(() -> vm.cancel(tiny));
        server.release();
        download.get(30, TimeUnit.SECONDS);
        waitUntil(() -> tiny.state() == ModelState.AVAILABLE);
        assertFalse(Files.exists(store.modelsDir().resolve("tiny.gguf.part")), "the part file is gone");
        assertFalse(Files.exists(store.modelsDir().resolve("tiny.gguf")));
        assertEquals("Download of TinyTest-10M-Chat (Q8_0) cancelled", onUi(() -> vm.message().get()));
    }

    @Test
    void useAppliesTheChosenContextAndKvAndDeleteRefusesTheModelInUse() throws Exception {
        onUi(() -> vm.download(tiny)).get(30, TimeUnit.SECONDS);
        onUi(() -> {
            vm.contextSizeProperty().set(512);
            vm.kvProperty().set(KvFormat.INT8);
            return null;
        });
        onUi(() -> vm.use(tiny)).get(30, TimeUnit.SECONDS);
        Path file = store.modelsDir().resolve("tiny.gguf");
        assertEquals(List.of(file + " 512 INT8"), used);
        assertTrue(onUi(() -> tiny.inUseProperty().get()));

        onUi(() -> vm.delete(tiny)).get(30, TimeUnit.SECONDS);
        assertTrue(Files.exists(file), "the model in use stays");
        assertTrue(onUi(() -> vm.errorProperty().get()));
        assertTrue(onUi(() -> vm.message().get()).contains("is the model in use"), onUi(() -> vm.message().get()));

        settings.set(settings.get().withModelPath(""));
        onUi(() -> {
            vm.markInUse();
            return null;
        });
        onUi(() -> vm.delete(tiny)).get(30, TimeUnit.SECONDS);
        assertFalse(Files.exists(file));
        assertEquals(ModelState.AVAILABLE, onUi(tiny::state));
    }

    @Test
    void openingAGgufFileListsAndUsesItAndABadFileSaysWhatWasExpected() throws Exception {
        Path mine = TestModels.tiny(Files.createDirectories(dir.resolve("mine")));
        onUi(() -> vm.open(mine)).get(30, TimeUnit.SECONDS);
        ModelItem row = onUi(() -> vm.item("file:" + mine.toAbsolutePath().normalize()).orElseThrow());
        assertEquals(ModelState.INSTALLED, onUi(row::state));
        assertEquals("llama", row.family());
        assertTrue(onUi(() -> row.inUseProperty().get()));
        assertEquals(mine.toAbsolutePath().normalize().toString(), settings.get().modelPath());

        Path text = Files.writeString(dir.resolve("notes.gguf"), "these are my notes, not a model\n");
        onUi(() -> vm.open(text)).get(30, TimeUnit.SECONDS);
        String said = onUi(() -> vm.message().get());
        assertTrue(onUi(() -> vm.errorProperty().get()));
        assertTrue(said.startsWith("Could not open notes.gguf") && said.contains("expected"), said);

        byte[] whole = Files.readAllBytes(mine);
        Path cut = Files.write(dir.resolve("cut.gguf"), java.util.Arrays.copyOf(whole, 4096));
        onUi(() -> vm.open(cut)).get(30, TimeUnit.SECONDS);
        said = onUi(() -> vm.message().get());
        assertTrue(said.startsWith("Could not open cut.gguf") && said.contains("expected"), said);
        assertEquals(mine.toAbsolutePath().normalize().toString(), settings.get().modelPath(),
                "a bad file does not replace the model in use");

        onUi(() -> vm.delete(row)).get(30, TimeUnit.SECONDS);
        assertTrue(Files.exists(mine), "a file outside the store is never deleted");
    }

    @Test
    void aGgufFileTheEngineCannotRunIsRefusedWithWhy() throws Exception {
        Path vocabOnly = dev.parley.engine.SharedFixtures.require("tokenizer/ggml-vocab-mpt.gguf");
        onUi(() -> vm.open(vocabOnly)).get(30, TimeUnit.SECONDS);
        String said = onUi(() -> vm.message().get());
        assertTrue(onUi(() -> vm.errorProperty().get()));
        assertTrue(said.startsWith("Could not open ggml-vocab-mpt.gguf") && said.contains("mpt"), said);
        assertEquals("", settings.get().modelPath(), "nothing the engine cannot run is adopted");
        assertTrue(onUi(() -> vm.items().stream().noneMatch(i -> i.file().equals(vocabOnly.toAbsolutePath()
                .normalize()))), "and it is not listed");
    }

    @Test
    void aPartialDownloadFoundOnDiskShowsAsPausedAndAFailedOneSaysWhy() throws Exception {
        Files.createDirectories(store.modelsDir());
        Files.write(store.modelsDir().resolve("tiny.gguf.part"), new byte[4096]);
        onUi(vm::refresh).get(30, TimeUnit.SECONDS);
        assertEquals(ModelState.PAUSED, onUi(tiny::state));
        server.close();
        onUi(() -> vm.download(tiny)).get(60, TimeUnit.SECONDS);
        assertTrue(onUi(() -> vm.errorProperty().get()));
        assertTrue(onUi(() -> vm.message().get()).startsWith("Could not download TinyTest-10M-Chat"),
                onUi(() -> vm.message().get()));
        assertTrue(onUi(() -> tiny.detailProperty().get()).startsWith("Could not download"));
    }

    private <T> T onUi(Callable<T> work) throws Exception {
        return uiThread.submit(work).get(30, TimeUnit.SECONDS);
    }

    private void waitUntil(Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!onUi(condition)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within 30 s; message: " + onUi(() -> vm.message().get()));
            }
            Thread.onSpinWait();
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
