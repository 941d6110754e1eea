package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley transcribe} and {@code parley say} end to end with the fixture Vosk model and MaryTTS. */
class AudioCommandsTest {
    @Test
    void transcribePrintsTheFinalTextLastAndPartialsOnStderr() {
        Path wav = SharedFixtures.require("vosk/wav/espeak-ng/05-set-a-timer-for-five-minutes.wav");
        Path model = SharedFixtures.require("vosk/model-assistant");
        CliRun run = CliRun.of("transcribe", wav.toString(), "--vosk-model", model.toString());
        assertEquals(0, run.code(), run.toString());
        List<String> lines = run.out().lines().toList();
        assertEquals("set a timer for five minutes", lines.getLast());
        assertTrue(run.err().contains("partial: set a timer"), run.toString());
    }

    @Test
    void transcribeRefusesANonWavFileWithExitCode2(@TempDir Path dir) throws Exception {
        Path model = SharedFixtures.require("vosk/model-assistant");
        Path notWav = Files.writeString(dir.resolve("notes.wav"), "plain text");
        CliRun run = CliRun.of("transcribe", notWav.toString(), "--vosk-model", model.toString());
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("expected a RIFF/WAVE file"), run.toString());
    }

    @Test
    void transcribeWithoutAModelSaysWhatIsMissing(@TempDir Path dir) {
        Path wav = SharedFixtures.require("vosk/wav/marytts/09-hello.wav");
        CliRun run = CliRun.of("transcribe", wav.toString(), "--vosk-model", dir.toString());
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("no Vosk model in"), run.toString());
    }

    @Test
    void sayWritesSpeechThatTranscribesBack(@TempDir Path dir) {
        Path model = SharedFixtures.require("vosk/model-assistant");
        Path out = dir.resolve("timer.wav");
        CliRun say = CliRun.of("say", "Set a timer for 5 minutes.", "--out", out.toString());
        assertEquals(0, say.code(), say.toString());
        assertTrue(Files.exists(out) && say.err().contains("first audio after"), say.toString());
        CliRun back = CliRun.of("transcribe", out.toString(), "--vosk-model", model.toString());
        assertEquals(0, back.code(), back.toString());
        assertEquals("set a timer for five minutes", back.out().lines().toList().getLast());
    }
}
