package dev.parley.audio.vad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link VadFactory}: Silero when it can run, else the energy VAD, saying why once. */
class VadFactoryTest {
    @TempDir
    Path dir;

    private final List<String> notices = new ArrayList<>();

    @Test
    void sileroOpensWhenTheModelIsThere() {
        Path model = SileroModelFile.require();
        VadFactory factory = new VadFactory(notices::add);
        for (int i = 0; i < 2; i++) {
            try (VoiceActivityDetector vad = factory.open(VadChoice.SILERO, model, VadSettings.defaults(),
                    SileroVadSettings.defaults())) {
                assertInstanceOf(SileroVad.class, vad);
                assertEquals("silero", vad.name());
            }
        }
        assertEquals(List.of(), notices);
        assertTrue(factory.lastFallback().isEmpty());
    }

    @Test
    void energyIsEnergyWithoutANotice() {
        VadFactory factory = new VadFactory(notices::add);
        VoiceActivityDetector vad = factory.open(VadChoice.ENERGY, null, VadSettings.defaults(),
                SileroVadSettings.defaults());
        assertInstanceOf(EnergyVad.class, vad);
        assertEquals(List.of(), notices);
    }

    @Test
    void noModelFallsBackAndSaysWhyOnce() {
        VadFactory factory = new VadFactory(notices::add);
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(EnergyVad.class, factory.open(VadChoice.SILERO, null, VadSettings.defaults(),
                    SileroVadSettings.defaults()));
        }
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.getFirst().contains("not installed") && notices.getFirst().contains("energy VAD"),
                notices.getFirst());
        assertTrue(factory.lastFallback().orElseThrow().contains("not installed"));
    }

    @Test
    void aMissingOrBrokenFileFallsBackNamingTheFile() throws IOException {
        VadFactory factory = new VadFactory(notices::add);
        Path missing = dir.resolve("gone.onnx");
        Path junk = Files.writeString(dir.resolve("junk.onnx"), "not a model");
        for (int i = 0; i < 2; i++) {
            assertInstanceOf(EnergyVad.class, factory.open(VadChoice.SILERO, missing, VadSettings.defaults(),
                    SileroVadSettings.defaults()));
            assertInstanceOf(EnergyVad.class, factory.open(VadChoice.SILERO, junk, VadSettings.defaults(),
                    SileroVadSettings.defaults()));
        }
        assertEquals(2, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains(missing.toString()), notices.get(0));
        assertTrue(notices.get(1).contains(junk.toString()), notices.get(1));
    }

    /** Where the native library cannot load (another platform, a missing system library) ONNX Runtime throws a
     *  LinkageError: the factory says so once and does not try to load it again. */
    @Test
    void aRuntimeThatDoesNotLoadIsTriedOnce() {
        AtomicInteger tries = new AtomicInteger();
        VadFactory factory = new VadFactory(notices::add, () -> {
            tries.incrementAndGet();
            throw new UnsatisfiedLinkError("no onnxruntime in java.library.path");
        });
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(EnergyVad.class, factory.open(VadChoice.SILERO, dir.resolve("any.onnx"),
                    VadSettings.defaults(), SileroVadSettings.defaults()));
        }
        assertEquals(1, tries.get());
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.getFirst().contains("ONNX Runtime does not load"), notices.getFirst());
    }

    @Test
    void choicesParse() {
        assertEquals(VadChoice.SILERO, VadChoice.parse("Silero"));
        assertEquals(VadChoice.ENERGY, VadChoice.parse(" energy "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VadChoice.parse("webrtc"));
        assertEquals("expected a VAD of energy or silero but found 'webrtc'", e.getMessage());
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new SileroVadSettings(0, 0, 100, 100));
        assertThrows(IllegalArgumentException.class, () -> new SileroVadSettings(0.5, 0.6, 100, 100));
        assertThrows(IllegalArgumentException.class, () -> new SileroVadSettings(0.5, 0.3, -1, 100));
        assertThrows(IllegalArgumentException.class, () -> new SileroVadSettings(0.5, 0.3, 100, 20_000));
        assertThrows(IllegalArgumentException.class, () -> new SileroVadSettings(Double.NaN, 0.3, 100, 100));
        assertEquals(2560, SileroVadSettings.defaults().minSpeechSamples());
        assertEquals(4096, SileroVadSettings.defaults().minSilenceSamples());
    }

    @Test
    void theRuntimeIsOneEnvironmentPerProcess() {
        // the factory holds a reference; ONNX Runtime's environment is its own, shared by every session
        assertTrue(OrtEnvironment.getEnvironment() == OrtEnvironment.getEnvironment());
    }
}
