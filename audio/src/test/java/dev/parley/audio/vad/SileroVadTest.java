package dev.parley.audio.vad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OrtEnvironment;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.capture.WavFileSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Silero VAD on the real model (ONNX Runtime, the v5 file) and the shared fixture recordings. */
class SileroVadTest {
    private static final int RATE = 16_000;
    private static final int LEAD_MS = 500;
    private static final int TAIL_MS = 1200;
    private static OrtEnvironment env;
    private static Path model;

    /** In each test (not once for the class), so that a missing model shows as skipped tests with the reason. */
    @BeforeEach
    void needTheModel() {
        model = SileroModelFile.require();
        env = OrtEnvironment.getEnvironment();
    }

    static List<Path> speechFiles() throws IOException {
        return SharedFixtures.voskRecordings();
    }

    static PcmAudio padded(Path wav) throws IOException {
        return PcmAudio.silence(LEAD_MS, RATE).concat(WavFileSource.load(wav, RATE)).concat(PcmAudio.silence(TAIL_MS, RATE));
    }

    static List<VadTransition> run(SileroVad vad, PcmAudio audio, int frame) {
        List<VadTransition> out = new ArrayList<>();
        for (int i = 0; i < audio.length(); i += frame) {
            out.addAll(vad.feed(audio.slice(i, Math.min(audio.length(), i + frame))));
        }
        return out;
    }

    static List<VadTransition> runEnergy(PcmAudio audio) {
        EnergyVad vad = new EnergyVad(VadSettings.defaults());
        List<VadTransition> out = new ArrayList<>();
        for (int i = 0; i + 320 <= audio.length(); i += 320) {
            VadEvent e = vad.process(audio.slice(i, i + 320));
            if (e != VadEvent.NONE) {
                out.add(new VadTransition(e, i + 320));
            }
        }
        return out;
    }

    static String show(List<VadTransition> t) {
        StringBuilder b = new StringBuilder();
        for (VadTransition x : t) {
            b.append(x.event() == VadEvent.SPEECH_START ? " +" : " -").append(Math.round(x.atMillis(RATE)));
        }
        return b.toString().strip();
    }

    /** The voices the babble is made of. */
    static List<PcmAudio> voices() throws IOException {
        List<PcmAudio> voices = new ArrayList<>();
        for (Path f : speechFiles()) {
            voices.add(WavFileSource.load(f, RATE));
        }
        return voices;
    }

    static VadTransition first(List<VadTransition> t, VadEvent e) {
        return t.stream().filter(x -> x.event() == e).findFirst().orElse(null);
    }

    static VadTransition last(List<VadTransition> t, VadEvent e) {
        return t.stream().filter(x -> x.event() == e).reduce((a, b) -> b).orElse(null);
    }

    @Test
    void everyFixtureRecordingIsSpeechWithStartAndEndAroundIt() throws IOException {
        List<Path> files = speechFiles();
        assertTrue(files.size() >= 25, "fixture recordings: " + files.size());
        StringBuilder table = new StringBuilder();
        try (SileroVad vad = SileroVad.open(env, model, SileroVadSettings.defaults())) {
            for (Path f : files) {
                vad.reset();
                PcmAudio a = padded(f);
                List<VadTransition> t = run(vad, a, 320);
                List<VadTransition> energy = runEnergy(a);
                String name = f.getParent().getFileName() + "/" + f.getFileName();
                String where = name + ": silero [" + show(t) + "] energy [" + show(energy) + "]";
                table.append(where).append('\n');
                // the energy VAD on clean audio is the reference: its start fires 100 ms after the onset, its end
                // 250 ms after the last voiced frame
                VadTransition eStart = first(energy, VadEvent.SPEECH_START);
                VadTransition eEnd = last(energy, VadEvent.SPEECH_END);
                assertTrue(eStart != null && eEnd != null, where);
                double onset = eStart.atMillis(RATE) - VadSettings.defaults().minSpeechMillis();
                double offset = eEnd.atMillis(RATE) - VadSettings.defaults().hangoverMillis();
                VadTransition start = first(t, VadEvent.SPEECH_START);
                VadTransition end = last(t, VadEvent.SPEECH_END);
                assertTrue(start != null && end != null && end.atSample() > start.atSample(), "speech heard: " + where);
                assertFalse(vad.inSpeech(), "speech over at the end: " + where);
                assertTrue(start.atMillis(RATE) >= onset && start.atMillis(RATE) <= onset + 400,
                        "start decided after the onset " + onset + " ms and within 400 ms of it: " + where);
                double runStart = SileroVadTest.firstRunStartMillis(a);
                assertTrue(Math.abs(runStart - onset) <= 200, "speech begins at " + runStart + " ms, onset " + onset
                        + " ms: " + where);
                assertTrue(end.atMillis(RATE) >= offset && end.atMillis(RATE) <= offset + 600,
                        "end decided after the offset " + offset + " ms and within 600 ms of it: " + where);
                double speechEnd = vad.speechEndSample() * 1000.0 / RATE;
                assertTrue(speechEnd >= offset - 250 && speechEnd <= offset + 100,
                        "speech ends at " + speechEnd + " ms, offset " + offset + " ms: " + where);
            }
        }
        System.out.print("SileroVadTest, clean fixture recordings (+start -end, ms):\n" + table);
    }

    /** Where the first speech of {@code a} begins by the detector's own account. */
    static double firstRunStartMillis(PcmAudio a) throws IOException {
        try (SileroVad vad = SileroVad.open(env, model, SileroVadSettings.defaults())) {
            for (int i = 0; i < a.length(); i += 512) {
                if (vad.process(a.slice(i, Math.min(a.length(), i + 512))) == VadEvent.SPEECH_START) {
                    return vad.speechStartSample() * 1000.0 / RATE;
                }
            }
        }
        return -1;
    }

    @Test
    void noiseIsNotSpeech() throws IOException {
        List<PcmAudio> beds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String n : List.of("pink-noise-hum-42dB", "white-noise-64dB", "silence-digital")) {
            beds.add(WavFileSource.load(SharedFixtures.require("vosk/wav/noise/" + n + ".wav"), RATE));
            names.add(n);
        }
        for (long seed = 1; seed <= 2; seed++) {
            beds.add(TestNoise.white(8000, -30, seed));
            names.add("white -30 dBFS #" + seed);
            beds.add(TestNoise.pink(8000, -25, seed));
            names.add("pink -25 dBFS #" + seed);
            beds.add(TestNoise.fan(8000, -20, seed));
            names.add("fan -20 dBFS #" + seed);
            beds.add(TestNoise.knocks(8000, -6, seed));
            names.add("knocks, peaks -6 dBFS #" + seed);
        }
        StringBuilder table = new StringBuilder();
        try (SileroVad vad = SileroVad.open(env, model, SileroVadSettings.defaults())) {
            for (int k = 0; k < beds.size(); k++) {
                vad.reset();
                double max = 0;
                List<VadTransition> t = new ArrayList<>();
                PcmAudio bed = beds.get(k);
                for (int i = 0; i < bed.length(); i += 320) {
                    t.addAll(vad.feed(bed.slice(i, Math.min(bed.length(), i + 320))));
                    max = Math.max(max, vad.lastProbability());
                }
                table.append(String.format(Locale.ROOT, "%s: silero [%s] max p %.3f, energy [%s]%n", names.get(k),
                        show(t), max, show(runEnergy(bed))));
                assertEquals(List.of(), t, names.get(k) + ": max p " + max);
                assertFalse(vad.inSpeech(), names.get(k));
            }
        }
        System.out.print("SileroVadTest, noise:\n" + table);
    }

    /**
     * Speech in noise at 10 dB SNR, the fixture recordings mixed with beds made here: fan and pink noise (the end is
     * found within 200 ms of the clean case), and café babble (32 distant talkers, which the model partly hears as
     * speech: the end is found, later).
     */
    @Test
    void speechInNoiseAt10dbIsHeardAndEnds() throws IOException {
        List<PcmAudio> voices = voices();
        StringBuilder table = new StringBuilder();
        List<Double> cafeDelays = new ArrayList<>();
        List<Double> otherDelays = new ArrayList<>();
        try (SileroVad vad = SileroVad.open(env, model, SileroVadSettings.defaults())) {
            long seed = 11;
            for (Path f : speechFiles()) {
                PcmAudio clean = padded(f);
                vad.reset();
                List<VadTransition> c = run(vad, clean, 320);
                double cleanStart = first(c, VadEvent.SPEECH_START).atMillis(RATE);
                double cleanEnd = last(c, VadEvent.SPEECH_END).atMillis(RATE);
                for (String bedName : List.of("fan", "pink", "cafe")) {
                    PcmAudio bed = switch (bedName) {
                        case "fan" -> TestNoise.fan(clean.length() * 1000 / RATE + 100, -30, seed++);
                        case "pink" -> TestNoise.pink(clean.length() * 1000 / RATE + 100, -30, seed++);
                        default -> TestNoise.cafe(voices, 32, clean.length() * 1000 / RATE + 100, -30, seed++);
                    };
                    PcmAudio noisy = NoiseMixer.mix(clean, bed, 10);
                    vad.reset();
                    List<VadTransition> n = run(vad, noisy, 320);
                    List<VadTransition> energy = runEnergy(noisy);
                    String where = f.getFileName() + " + " + bedName + " at 10 dB: clean [" + show(c) + "] noisy ["
                            + show(n) + "] energy [" + show(energy) + "]";
                    table.append(where).append('\n');
                    VadTransition start = first(n, VadEvent.SPEECH_START);
                    // the end of the user's speech: the first end decided after the clean one, less a little (babble
                    // may start "speech" again later, and that is the babble's)
                    VadTransition end = n.stream().filter(x -> x.event() == VadEvent.SPEECH_END
                            && x.atMillis(RATE) >= cleanEnd - 250).findFirst().orElse(null);
                    assertTrue(end != null, "the end is found: " + where);
                    if (!bedName.equals("cafe")) {
                        assertFalse(vad.inSpeech(), "nothing after the end: " + where);
                    }
                    double delay = end.atMillis(RATE) - cleanEnd;
                    if (bedName.equals("cafe")) {
                        cafeDelays.add(delay);
                        assertTrue(delay >= -250 && delay <= 1000, "end " + delay + " ms after the clean one: " + where);
                    } else {
                        // ~200 ms, to the model's granularity of one 32 ms window
                        otherDelays.add(delay);
                        assertTrue(Math.abs(delay) <= 200 + 32, "end " + delay + " ms after the clean one: " + where);
                    }
                }
            }
        }
        cafeDelays.sort(null);
        otherDelays.sort(null);
        double cafeMedian = cafeDelays.get(cafeDelays.size() / 2);
        double otherMedian = otherDelays.get(otherDelays.size() / 2);
        table.append("fan and pink: end of speech later than clean by median ").append(otherMedian)
                .append(" ms, max ").append(otherDelays.getLast()).append(" ms; cafe babble: median ")
                .append(cafeMedian).append(" ms, max ").append(cafeDelays.getLast()).append(" ms\n");
        System.out.print("SileroVadTest, speech in noise:\n" + table);
        assertTrue(otherMedian <= 150 && cafeMedian <= 300, table.toString());
    }

    @Test
    void oddFrameLengthsGiveTheSameTransitionsAsWholeWindows() throws IOException {
        PcmAudio a = padded(SharedFixtures.require("vosk/wav/human-cards/cards-005.wav"));
        try (SileroVad vad = SileroVad.open(env, model, SileroVadSettings.defaults())) {
            List<VadTransition> windows = run(vad, a, 512);
            double p = vad.lastProbability();
            assertTrue(windows.size() >= 2, show(windows));
            for (int frame : new int[] {1, 97, 160, 333, 480, 1024, 5000}) {
                vad.reset();
                assertEquals(windows, run(vad, a, frame), "frames of " + frame + " samples");
                assertEquals(p, vad.lastProbability(), "frames of " + frame + " samples");
            }
            SplittableRandom r = new SplittableRandom(3);
            vad.reset();
            List<VadTransition> random = new ArrayList<>();
            for (int i = 0; i < a.length(); ) {
                int n = Math.min(a.length() - i, r.nextInt(0, 700));
                random.addAll(vad.feed(a.slice(i, i + n)));
                i += n;
            }
            assertEquals(windows, random, "frames of random lengths, empty ones included");
        }
    }

    @Test
    void resetForgetsTheStream() throws IOException {
        PcmAudio a = padded(SharedFixtures.require("vosk/wav/marytts/01-what-is-the-weather-like-today.wav"));
        try (SileroVad vad = SileroVad.open(env, model, SileroVadSettings.defaults())) {
            List<VadTransition> fresh = run(vad, a, 320);
            // stop in the middle of the speech: in speech, with state and context carried
            vad.reset();
            run(vad, a.slice(0, a.length() / 2), 320);
            assertTrue(vad.inSpeech());
            vad.reset();
            assertFalse(vad.inSpeech());
            assertEquals(0, vad.samplesSeen());
            assertEquals(0, vad.lastProbability());
            assertEquals(fresh, run(vad, a, 320), "after a reset the stream is judged as by a new detector");
        }
    }

    @Test
    void otherRatesAreRefused() throws IOException {
        try (SileroVad vad = SileroVad.open(env, model, SileroVadSettings.defaults())) {
            for (int rate : new int[] {8000, 44100, 48000}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> vad.process(PcmAudio.silence(20, rate)));
                assertTrue(e.getMessage().contains("expects 16000 Hz") && e.getMessage().contains(rate + " Hz"),
                        e.getMessage());
            }
            assertEquals(VadEvent.NONE, vad.process(PcmAudio.silence(20, RATE)), "still usable");
        }
    }

    @Test
    void aFileThatIsNotTheModelIsAClearError(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path junk = Files.writeString(dir.resolve("junk.onnx"), "not a model");
        IOException e = assertThrows(IOException.class, () -> SileroVad.open(env, junk, SileroVadSettings.defaults()));
        assertTrue(e.getMessage().contains(junk.toString()), e.getMessage());
        IOException missing = assertThrows(IOException.class,
                () -> SileroVad.open(env, dir.resolve("none.onnx"), SileroVadSettings.defaults()));
        assertTrue(missing.getMessage().startsWith("no Silero VAD model file at"), missing.getMessage());
    }

    @Test
    void theModelFileIsTheOfficialV5() throws Exception {
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(model));
        assertEquals(SileroModelFile.SHA256, java.util.HexFormat.of().formatHex(digest));
    }
}
