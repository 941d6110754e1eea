package dev.parley.audio.asr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.capture.WavFileSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every fixture WAV of ../shared/fixtures/vosk through the real Vosk recognizer. */
class VoskFixtureTest {
    private static final Map<String, VoskRecognizer> MODELS = new HashMap<>();

    static Stream<Arguments> manifest() throws IOException {
        Path wavDir = SharedFixtures.require("vosk/wav");
        List<String> lines = Files.readAllLines(wavDir.resolve("manifest.tsv"));
        return lines.stream().skip(1).filter(l -> !l.isBlank()).map(l -> {
            String[] f = l.split("\t", -1);
            return Arguments.of(f[0], f[1], f.length > 2 ? f[2] : "");
        });
    }

    static synchronized VoskRecognizer model(String name) throws IOException {
        VoskRecognizer r = MODELS.get(name);
        if (r == null) {
            r = VoskRecognizer.load(SharedFixtures.require("vosk/" + name));
            MODELS.put(name, r);
        }
        return r;
    }

    @AfterAll
    static void closeModels() {
        MODELS.values().forEach(VoskRecognizer::close);
        MODELS.clear();
    }

    @ParameterizedTest(name = "{0} -> \"{2}\"")
    @MethodSource("manifest")
    void fixtureWavGivesItsTranscript(String wav, String modelName, String expected) throws IOException {
        Path file = SharedFixtures.require("vosk/wav/" + wav);
        PcmAudio audio = WavFileSource.load(file, 16_000);
        assertEquals(expected, model(modelName).transcribe(audio).text());
    }

    @Test
    void streamingGivesPartialsThenTheFinalText() throws IOException {
        PcmAudio audio = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/05-set-a-timer-for-five-minutes.wav"), 16_000);
        try (RecognitionStream s = model("model-assistant").openStream(16_000)) {
            boolean sawNonEmptyPartial = false;
            for (int i = 0; i < audio.length(); i += 320) {
                Transcript t = s.accept(audio.slice(i, Math.min(audio.length(), i + 320)));
                if (t instanceof Transcript.Partial p && !p.isEmpty()) {
                    sawNonEmptyPartial = true;
                }
            }
            assertTrue(sawNonEmptyPartial, "expected a live partial transcript while streaming");
            assertEquals("set a timer for five minutes", s.finish().text());
            // reusable after finish: the same audio again
            StringBuilder again = new StringBuilder();
            for (int i = 0; i < audio.length(); i += 1600) {
                if (s.accept(audio.slice(i, Math.min(audio.length(), i + 1600))) instanceof Transcript.Final f) {
                    again.append(f.text());
                }
            }
            again.append(s.finish().text());
            assertEquals("set a timer for five minutes", again.toString().strip());
        }
    }

    @Test
    void missingModelFolderIsAClearError(@TempDir Path dir) {
        IOException e = assertThrows(IOException.class, () -> VoskRecognizer.load(dir.resolve("nope")));
        assertTrue(e.getMessage().contains("no Vosk model in") && e.getMessage().contains("am/final.mdl"), e.getMessage());
    }

    @Test
    void folderWithoutModelFilesIsAClearError(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("README"), "not a model");
        IOException e = assertThrows(IOException.class, () -> VoskRecognizer.load(dir));
        assertTrue(e.getMessage().contains("expected am/final.mdl") && e.getMessage().contains("README"), e.getMessage());
    }

    @Test
    void corruptModelIsRefusedByLibvoskWithoutCrashing(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("am"));
        Files.createDirectories(dir.resolve("conf"));
        Files.createDirectories(dir.resolve("graph"));
        Files.writeString(dir.resolve("am/final.mdl"), "garbage, not a Kaldi model");
        Files.writeString(dir.resolve("conf/model.conf"), "--min-active=200\n");
        Files.writeString(dir.resolve("graph/HCLG.fst"), "garbage");
        IOException e = assertThrows(IOException.class, () -> VoskRecognizer.load(dir));
        assertTrue(e.getMessage().contains("Vosk could not load the model"), e.getMessage());
    }

    @Test
    void resultJsonIsParsedOrRefused() throws IOException {
        assertEquals("hello", VoskRecognizer.field("{\n  \"text\" : \"hello\"\n}", "text"));
        assertThrows(IOException.class, () -> VoskRecognizer.field("{\"partial\":\"x\"}", "text"));
    }
}
