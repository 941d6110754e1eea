package dev.parley.app.gui.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.store.ModelStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The voice loop's Vosk model (the settings' folder, else the catalog default in the store, else a clear message) and the device checks before it starts. */
class VoskModelLocatorTest {

    @Test
    void aMissingModelSaysHowToGetOne(@TempDir Path dir) throws IOException {
        VoskModelLocator locator = new VoskModelLocator(new ModelStore(dir.resolve("store")), ModelCatalog.load());
        IOException none = assertThrows(IOException.class, () -> locator.locate(""));
        assertTrue(none.getMessage().contains("parley models pull vosk-model-small-en-us-0.15"), none.getMessage());
        assertTrue(none.getMessage().contains("Settings"), none.getMessage());

        Path empty = Files.createDirectories(dir.resolve("not-a-model"));
        IOException wrong = assertThrows(IOException.class, () -> locator.locate(empty.toString()));
        assertTrue(wrong.getMessage().contains("am/final.mdl"), wrong.getMessage());
        AppVoice voice = new AppVoice(locator, new VoiceOptions(empty.toString(), "", "", "", 500));
        assertEquals(wrong.getMessage(), voice.unavailableReason().orElseThrow());
    }

    @Test
    void theSileroModelIsFoundOnlyOnceItIsInTheStore(@TempDir Path dir) throws IOException {
        ModelStore store = new ModelStore(dir.resolve("store"));
        ModelCatalog catalog = ModelCatalog.load();
        VoskModelLocator locator = new VoskModelLocator(store, catalog);
        assertTrue(locator.sileroModel().isEmpty(), "nothing installed yet");
        Path file = store.pathFor(catalog.defaultEntry(dev.parley.models.catalog.EntryKind.VAD));
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {1, 2, 3});
        assertEquals(file, locator.sileroModel().orElseThrow());
    }

    @Test
    void theCatalogDefaultInTheStoreIsFound(@TempDir Path dir) throws IOException {
        ModelStore store = new ModelStore(dir.resolve("store"));
        ModelCatalog catalog = ModelCatalog.load();
        Path installed = store.pathFor(catalog.defaultEntry(dev.parley.models.catalog.EntryKind.ASR));
        fakeModel(installed);
        assertEquals(installed, new VoskModelLocator(store, catalog).locate(""));
    }

    @Test
    void anUnknownDeviceNameFailsAtOnceSayingWhichExist(@TempDir Path dir) throws IOException {
        Path vosk = fakeModel(dir.resolve("vosk"));
        VoskModelLocator locator = new VoskModelLocator(new ModelStore(dir.resolve("store")), ModelCatalog.load());
        AppVoice mic = new AppVoice(locator, new VoiceOptions(vosk.toString(), "No Such Microphone", "", "", 600));
        IOException e = assertThrows(IOException.class, () -> mic.start((t, p, c) -> -1, null));
        assertTrue(e.getMessage().startsWith("no microphone named 'No Such Microphone': expected one of"), e.getMessage());
        AppVoice speaker = new AppVoice(locator, new VoiceOptions(vosk.toString(), "", "No Such Speaker", "", 600));
        e = assertThrows(IOException.class, () -> speaker.start((t, p, c) -> -1, null));
        assertTrue(e.getMessage().startsWith("no speaker named 'No Such Speaker'"), e.getMessage());
        assertTrue(!mic.running() && !speaker.running());
    }

    /** The files {@link dev.parley.audio.asr.VoskRecognizer#checkModelFolder} looks for (not a usable model). */
    private static Path fakeModel(Path installed) throws IOException {
        Files.createDirectories(installed.resolve("am"));
        Files.createDirectories(installed.resolve("conf"));
        Files.createDirectories(installed.resolve("graph"));
        Files.writeString(installed.resolve("am/final.mdl"), "x");
        Files.writeString(installed.resolve("conf/model.conf"), "x");
        Files.writeString(installed.resolve("graph/HCLG.fst"), "x");
        return installed;
    }
}
