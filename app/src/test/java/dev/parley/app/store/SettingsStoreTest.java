package dev.parley.app.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings as a JSON file: defaults, round trip, old files, bad values. */
class SettingsStoreTest {

    @Test
    void defaultsWhenThereIsNoFileAndARoundTripKeepsEveryField(@TempDir Path dir) throws IOException {
        SettingsStore store = new SettingsStore(dir.resolve("home/settings.json"));
        assertEquals(AppSettings.defaults(), store.load());
        AppSettings changed = new AppSettings("/models/x.gguf", BackendKind.SCALAR, 3, 2048, 0.2, 0.5, 77,
                "Be terse.", "cmu-slt-hsmm", 1.25, "Mic 2", "Speakers", 1200, "Ctrl+T", Theme.DARK,
                dev.parley.engine.model.WeightFormat.INT8, dev.parley.engine.model.KvFormat.INT8,
                "http://127.0.0.1:8080/v1", "secret", "smollm2", "/models/vosk-small-en", "keep-recent:0.6");
        assertEquals(dev.parley.engine.generate.ContextPolicy.keepSystemAndRecent(0.6), changed.contextPolicyValue());
        store.save(changed);
        assertEquals(changed, new SettingsStore(dir.resolve("home/settings.json")).load());
        try (var files = Files.list(dir.resolve("home"))) {
            assertEquals(1, files.count(), "no temporary file is left behind");
        }
    }

    @Test
    void missingFieldsTakeDefaultsAndUnknownOnesAreIgnored(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"theme\":\"DARK\",\"threads\":2,\"fromTheFuture\":true}");
        AppSettings s = new SettingsStore(file).load();
        assertEquals(Theme.DARK, s.theme());
        assertEquals(2, s.threads());
        assertEquals(AppSettings.defaults().maxTokens(), s.maxTokens());
    }

    @Test
    void theVoiceFrontEndIsKeptAndOldFilesGetEchoCancellationOn(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"threads\":2}");
        AppSettings old = new SettingsStore(file).load();
        assertEquals("on", old.echoCancellation());
        assertEquals("auto", old.noiseSuppression(), "a file without it gets the default, auto");
        assertEquals(false, old.halfDuplex());
        assertEquals("energy", old.vad());
        assertTrue(old.listeningCue(), "a file from before the listening cue gets it on");
        AppSettings changed = old.withVoiceFrontEnd("off", "Very-High", true, "silero");
        assertEquals("very-high", changed.noiseSuppression());
        SettingsStore store = new SettingsStore(file);
        store.save(changed);
        assertEquals(changed, store.load());
        var voice = dev.parley.app.gui.voice.VoiceOptions.of(changed);
        assertEquals(false, voice.frontEnd().echoCancellation());
        assertEquals(dev.parley.audio.frontend.NoiseSuppression.VERY_HIGH, voice.frontEnd().noiseSuppression());
        assertTrue(voice.halfDuplex());
        assertTrue(voice.listeningCue());
        AppSettings noCue = changed.withListeningCue(false);
        store.save(noCue);
        assertEquals(false, store.load().listeningCue());
        assertEquals(false, dev.parley.app.gui.voice.VoiceOptions.of(noCue).listeningCue());
        assertEquals("very-high", store.load().noiseSuppression(), "switching the cue keeps the rest of the front end");
        var e = assertThrows(IllegalArgumentException.class, () -> old.withVoiceFrontEnd("maybe", "off", false, "energy"));
        assertTrue(e.getMessage().contains("on, aec3, off") && e.getMessage().contains("maybe"), e.getMessage());
        AppSettings aec3 = old.withVoiceFrontEnd("AEC3", "off", false, "energy");
        assertEquals("aec3", aec3.echoCancellation());
        store.save(aec3);
        assertEquals(dev.parley.audio.frontend.EchoCanceller.AEC3,
                dev.parley.app.gui.voice.VoiceOptions.of(store.load()).frontEnd().echoCanceller());
        assertEquals(dev.parley.audio.frontend.EchoCanceller.LINEAR,
                dev.parley.app.gui.voice.VoiceOptions.of(old).frontEnd().echoCanceller(), "on is Parley's canceller");
    }

    @Test
    void badValuesAreReportedWithTheFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"topP\": 1.5}");
        var e = assertThrows(IOException.class, () -> new SettingsStore(file).load());
        assertTrue(e.getMessage().contains("settings.json") && e.getMessage().contains("top-p"), e.getMessage());
        Files.writeString(file, "[1,2]");
        e = assertThrows(IOException.class, () -> new SettingsStore(file).load());
        assertTrue(e.getMessage().contains("expected a JSON object"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AppSettings.defaults().withSampling(0.5, 0.9, 0));
        Files.writeString(file, "{\"contextPolicy\": \"forget-everything\"}");
        e = assertThrows(IOException.class, () -> new SettingsStore(file).load());
        assertTrue(e.getMessage().contains("context policy"), e.getMessage());
    }

    @Test
    void homeComesFromTheEnvironmentOrTheUserFolder() {
        assertEquals(Path.of("/tmp/ph").toAbsolutePath(),
                ParleyHome.resolve(Map.of("PARLEY_HOME", "/tmp/ph"), "/home/u").dir());
        assertEquals(Path.of("/home/u/.cache/parley"), ParleyHome.resolve(Map.of(), "/home/u").dir());
        assertEquals("conversations.db", ParleyHome.resolve(Map.of(), "/h").database().getFileName().toString());
    }
}
