package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.engine.SharedFixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley talk --input} and {@code parley bench voice}: the voice loop with the engine, from the command line. */
class VoiceCommandsTest {
    private static final Pattern STAGE = Pattern.compile(
            "stage=(final_transcript|first_text|first_sentence|first_audio|last_sample) turns=(\\d+) median_ms=([0-9.]+) p90_ms=([0-9.]+)");

    @Test
    void talkAnswersARecordingAloudAndPrintsTheLatencies(@TempDir Path dir) throws Exception {
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        Path wav = SharedFixtures.require("vosk/wav/marytts/02-tell-me-a-joke.wav");
        Path model = TestModels.tiny(dir);
        Path out = dir.resolve("reply.wav");
        CliRun run = CliRun.of("talk", "--model", model.toString(), "--vosk-model", vosk.toString(), "--input", wav.toString(),
                "--out", out.toString(), "-n", "16", "--seed", "3", "--vad", "energy");
        assertEquals(0, run.code(), run.toString());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.contains("you: tell me a joke"), run.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("parley: ") && l.length() > "parley: ".length()), run.toString());
        String latency = lines.stream().filter(l -> l.startsWith("latency:")).findFirst().orElseThrow(() -> new AssertionError(run.toString()));
        assertTrue(latency.matches("latency: final_transcript=\\d+ms first_token=\\d+ms first_sentence=\\d+ms first_audio=\\d+ms "
                + "last_sample=\\d+ms \\(after speech end\\)"), latency);
        assertTrue(run.err().contains("partial: tell me"), run.toString());
        PcmAudio spoken = WavFileSource.load(out, 16_000);
        assertTrue(spoken.durationMillis() > 300 && LevelMeter.rmsDbfs(spoken) > -40,
                "the reply was spoken into the file: " + spoken.durationMillis() + " ms, " + LevelMeter.rmsDbfs(spoken) + " dBFS");
    }

    @Test
    void talkWithoutAVoskModelSaysSoInOneLine(@TempDir Path dir) throws Exception {
        Path model = TestModels.tiny(dir);
        Path wav = SharedFixtures.require("vosk/wav/marytts/09-hello.wav");
        CliRun run = CliRun.of("talk", "--model", model.toString(), "--vosk-model", dir.toString(), "--input", wav.toString(),
                "--out", dir.resolve("x.wav").toString());
        assertEquals(2, run.code(), run.toString());
        List<String> err = run.errLines().stream().filter(l -> !l.startsWith("WARNING")).toList();
        assertTrue(err.size() == 1 && err.getFirst().contains("no Vosk model in"), run.toString());
    }

    @Test
    void talkRejectsBadFrontEndOptionsSayingWhatItExpected(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("none.gguf");
        String[][] cases = {
            {"--aec", "maybe", "--aec: expected an echo canceller of on, aec3, off but found 'maybe'"},
            {"--noise-suppression", "max", "off, auto, low, moderate, high, very-high"},
            {"--vad", "loud", "expected a VAD of energy or silero but found 'loud'"},
        };
        for (String[] c : cases) {
            CliRun run = CliRun.of("talk", "--model", model.toString(), c[0], c[1]);
            assertEquals(2, run.code(), run.toString());
            List<String> err = run.errLines().stream().filter(l -> !l.startsWith("WARNING")).toList();
            assertTrue(err.size() == 1 && err.getFirst().contains(c[2]), run.toString());
        }
    }

    @Test
    void benchVoicePrintsParsableMedianAndP90Lines(@TempDir Path dir) throws Exception {
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        Path wavs = SharedFixtures.require("vosk/wav/marytts");
        Path model = TestModels.tiny(dir);
        CliRun run = CliRun.of("bench", "voice", "--model", model.toString(), "--vosk-model", vosk.toString(),
                "--wav-dir", wavs.toString(), "--turns", "2", "-n", "12", "--seed", "5");
        assertEquals(0, run.code(), run.toString());
        List<String> lines = run.out().lines().toList();
        assertEquals(2, lines.stream().filter(l -> l.startsWith("turn=")).count(), run.toString());
        assertTrue(lines.get(0).startsWith("turn=1 heard=\"what is the weather like today\""), run.toString());
        assertTrue(lines.get(1).startsWith("turn=2 heard=\"tell me a joke\""), run.toString());
        double previous = 0;
        int stages = 0;
        for (String l : lines) {
            Matcher m = STAGE.matcher(l);
            if (m.matches()) {
                stages++;
                assertEquals("2", m.group(2), l);
                double median = Double.parseDouble(m.group(3));
                double p90 = Double.parseDouble(m.group(4));
                assertTrue(median > 0 && p90 >= median, l);
                assertTrue(median >= previous, "stages in pipeline order take longer: " + l);
                previous = median;
            }
        }
        assertEquals(5, stages, run.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("speculative_replies started=[1-9]\\d* confirmed=\\d+ withdrawn=\\d+")),
                "each turn's reply started after 250 ms of silence: " + run);
        assertTrue(lines.getLast().matches("speech_end_to_first_audio turns=2 median_ms=[0-9.]+ p90_ms=[0-9.]+ unheard=0"), run.toString());
    }
}
