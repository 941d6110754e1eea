package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.FrontEnds;
import dev.parley.audio.room.Decay;
import dev.parley.audio.room.ImpulseResponse;
import dev.parley.audio.room.RoomWav;
import dev.parley.engine.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley bench duplex}: the voice loop with the engine in a simulated room, and the assets it runs on. */
class DuplexBenchTest {
    private static final List<Pattern> FINAL = List.of(
            Pattern.compile("self_interruptions=(\\d+) replies=(\\d+)"),
            Pattern.compile("self_turns=(\\d+)"),
            Pattern.compile("barge_in detected=(\\d+) of=(\\d+) median_ms=(\\d+) p90_ms=(\\d+)"),
            Pattern.compile("barge_in_transcript exact=(\\d+) of=(\\d+)"),
            Pattern.compile("noise_false_turns=(\\d+) noise_trials=(\\d+)"));

    @ParameterizedTest
    @ValueSource(strings = {"on", "aec3", "off"})
    void makeRoomsWritesRoomsNoiseAndSpeechAndTwoTrialsPrintTheExactFinalLines(String aec, @TempDir Path dir) throws Exception {
        if (!aec.equals("off")) {
            try (AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.defaults())) {
                assumeTrue(fe.cancelsEcho(), "skipped: " + fe.description());
            }
        }
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        Path fixtureSpeech = SharedFixtures.require("vosk/wav/espeak-ng");
        Path assets = dir.resolve("assets");
        CliRun made = CliRun.of("bench", "duplex", "--make-rooms", assets.toString(), "--speech", fixtureSpeech.toString());
        assertEquals(0, made.code(), made.toString());
        try (var rooms = Files.list(assets.resolve("rooms")); var noise = Files.list(assets.resolve("noise"));
             var speech = Files.list(assets.resolve("speech"))) {
            assertTrue(rooms.count() >= 6, "several rooms with their user paths");
            assertEquals(3, noise.count(), "fan, babble and cafe beds");
            assertEquals(20, speech.count(), "ten recordings with ten transcripts");
        }
        ImpulseResponse office = RoomWav.readRoom(assets.resolve("rooms/office-small.wav"));
        assertEquals(25 * 16, office.leadingZeros(), 20, "the office's 25 ms latency leads its impulse response");
        assertEquals(0.35, Decay.rt60(office), 0.07, "the office's RT60 survives the WAV");

        Path oneRoom = Files.createDirectories(dir.resolve("one-room"));
        Files.copy(assets.resolve("rooms/office-small.wav"), oneRoom.resolve("office-small.wav"));
        Files.copy(assets.resolve("rooms/office-small-user.wav"), oneRoom.resolve("office-small-user.wav"));
        Path model = TestModels.tiny(dir);
        CliRun run = CliRun.of("bench", "duplex", "--model", model.toString(), "--vosk-model", vosk.toString(),
                "--rooms", oneRoom.toString(), "--speech", assets.resolve("speech").toString(),
                "--noise", assets.resolve("noise").toString(), "--echo-db", "-10", "--snr-db", "20", "--trials", "2",
                "--seed", "3", "-t", "1", "-n", "12", "--aec", aec);
        assertEquals(0, run.code(), run.toString());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.size() >= 5 + 3, run.toString());
        List<String> last = lines.subList(lines.size() - 5, lines.size());
        long[][] v = new long[5][];
        for (int i = 0; i < 5; i++) {
            Matcher m = FINAL.get(i).matcher(last.get(i));
            assertTrue(m.matches(), "final line " + (i + 1) + " exactly as specified: '" + last.get(i) + "'\n" + run);
            v[i] = new long[m.groupCount()];
            for (int g = 0; g < m.groupCount(); g++) {
                v[i][g] = Long.parseLong(m.group(g + 1));
            }
        }
        long replies = v[0][1];
        long detected = v[2][0];
        long of = v[2][1];
        assertTrue(replies >= 1, "the question got a reply: " + run);
        assertTrue(v[0][0] <= replies, "self-interruptions <= replies");
        assertTrue(detected <= of && of <= 1, "barge-ins caught <= said (one barge-in trial): " + last.get(2));
        assertTrue(v[2][2] <= v[2][3], "median <= p90");
        assertTrue(detected > 0 || v[2][2] == 0, "no latency without a caught barge-in");
        assertEquals(of, v[3][1], "transcripts are counted over the same barge-ins");
        assertTrue(v[3][0] <= of);
        assertEquals(1, v[4][1], "trial 2 of 2 is the noise-only one");
        List<String> table = lines.stream().filter(l -> l.startsWith("| office-small |")).toList();
        assertEquals(1, table.size(), "one row per room x echo x SNR: " + run);
        assertTrue(table.getFirst().startsWith("| office-small | -10 | 20 | 2 | " + replies + " | "), table.getFirst());
        assertEquals(19, table.getFirst().split("\\|", -1).length, "seventeen columns: " + table.getFirst());
        // the time lines above the final five: the end of turn of the one SNR, first audio, the front end's cost
        List<String> eot = lines.stream().filter(l -> l.startsWith("end of turn (the user's voice end -> final transcript)")).toList();
        assertEquals(1, eot.size(), run.toString());
        Matcher turns = Pattern.compile(".* 20 dB (\\d+|-) \\(P90 (\\d+|-), (\\d+) turns\\)").matcher(eot.getFirst());
        assertTrue(turns.matches(), eot.getFirst());
        Matcher audio = Pattern.compile("speech end -> first audio: median (\\d+|-) ms, P90 (\\d+|-) ms \\((\\d+) replies; (\\d+) replies "
                + "started speculatively, (\\d+) of them confirmed by the final transcript\\)")
                .matcher(lines.stream().filter(l -> l.startsWith("speech end -> first audio")).findFirst().orElse(""));
        assertTrue(audio.matches(), run.toString());
        int timed = Integer.parseInt(turns.group(3));
        assertTrue(Integer.parseInt(audio.group(5)) <= Integer.parseInt(audio.group(4)), "confirmed <= started: " + run);
        assertTrue(timed <= 2 && Integer.parseInt(audio.group(3)) <= timed, "two questions at most, each replied once: " + run);
        if (Integer.parseInt(audio.group(3)) > 0) {
            // a reply cannot sound before the turn it answers has ended, nor either before the user stopped talking
            assertTrue(Integer.parseInt(turns.group(1)) > 0, eot.getFirst());
            assertTrue(Integer.parseInt(audio.group(1)) > 0, run.toString());
        }
        String frontEnd = lines.stream().filter(l -> l.startsWith("audio front end")).findFirst().orElse("");
        if (aec.equals("off")) {
            assertEquals("audio front end: none ran (--aec off)", frontEnd);
        } else {
            Matcher cost = Pattern.compile("audio front end per 10 ms frame: median (\\d+) us, P99 (\\d+) us, .* \\((\\d+) frames\\)")
                    .matcher(frontEnd);
            assertTrue(cost.matches(), run.toString());
            assertTrue(Long.parseLong(cost.group(3)) >= 100 * 5, "every 10 ms frame of the run is counted: " + frontEnd);
            assertTrue(Long.parseLong(cost.group(1)) > 0 && Long.parseLong(cost.group(1)) <= Long.parseLong(cost.group(2)), frontEnd);
        }
    }

    @Test
    void anAecOtherThanOnOrOffIsRefusedSayingWhatIsExpected(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("bench", "duplex", "--aec", "maybe", "--model", dir.resolve("m.gguf").toString(),
                "--vosk-model", dir.toString(), "--rooms", dir.toString(), "--speech", dir.toString());
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("--aec must be on, aec3 or off, found 'maybe'"), run.toString());
    }

    @Test
    void sileroWithoutItsModelFileIsRefusedSayingWhatIsExpected(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("bench", "duplex", "--aec", "off", "--vad", "silero", "--model", dir.resolve("m.gguf").toString(),
                "--vosk-model", dir.toString(), "--rooms", dir.toString(), "--speech", dir.toString());
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("--vad silero needs --vad-model FILE"), run.toString());
        CliRun odd = CliRun.of("bench", "duplex", "--aec", "off", "--vad", "loudness", "--model", dir.resolve("m.gguf").toString(),
                "--vosk-model", dir.toString(), "--rooms", dir.toString(), "--speech", dir.toString());
        assertEquals(2, odd.code(), odd.toString());
        assertTrue(odd.err().contains("--vad: "), odd.toString());
    }
}
