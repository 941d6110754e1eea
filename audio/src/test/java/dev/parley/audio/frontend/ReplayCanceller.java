package dev.parley.audio.frontend;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.WavFileSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A tool for tuning the echo canceller, not part of the suite: replays the cases {@code OfflineDuplexSweep -Ddump=DIR}
 * wrote (what the microphone heard, what played, the room without Parley's sound) through the front end, and
 * transcribes the barge-in with Vosk twice: from the front end's output, and from the room without Parley's sound
 * (the ceiling: what the recognizer makes of the user in that room and bed with no echo at all). The front end and the
 * recognizer only, with no listen loop: where the loop held the reply is as it was in the sweep, so a change of the
 * canceller is judged on the same audio in under a minute. Each segment runs from 300 ms before the barge-in's onset to
 * 400 ms after its end.
 * <pre>
 * ./mvnw -o -pl audio surefire:test -Dtest=ReplayCanceller -Dparley.jvm.flags="... -Dreplay.dir=DIR
 *     -Dreplay.speech=ASSETS/speech -Dreplay.vosk=../shared/fixtures/vosk/model-assistant [-Dreplay.filter=TEXT]"
 * </pre>
 */
@EnabledIfSystemProperty(named = "replay.dir", matches = ".+",
        disabledReason = "a tuning tool: set -Dreplay.dir=DIR (OfflineDuplexSweep -Ddump=DIR)")
class ReplayCanceller {
    @Test
    void replay() throws Exception {
        Path dir = Path.of(System.getProperty("replay.dir"));
        Path speechDir = Path.of(System.getProperty("replay.speech"));
        String filter = System.getProperty("replay.filter", "");
        List<Path> onsets;
        try (Stream<Path> s = Files.list(dir)) {
            onsets = s.filter(p -> p.toString().endsWith(".onset") && p.getFileName().toString().contains(filter))
                    .sorted().toList();
        }
        int exact = 0;
        int ceiling = 0;
        StringBuilder out = new StringBuilder();
        try (VoskRecognizer vosk = VoskRecognizer.load(Path.of(System.getProperty("replay.vosk")))) {
            for (Path o : onsets) {
                String base = o.getFileName().toString().replace(".onset", "");
                int onset = Integer.parseInt(Files.readString(o).strip());
                String barge = recording(base, speechDir);
                short[] mic = load(dir.resolve(base + "-mic.wav"));
                short[] clean = cancel(mic, load(dir.resolve(base + "-played.wav")));
                short[] direct = load(dir.resolve(base + "-direct.wav"));
                int from = (onset - 300) * 16;
                int to = Math.min(mic.length, onset * 16 + voicedLength(load(speechDir.resolve(barge + ".wav"))) + 400 * 16);
                String want = Files.readString(speechDir.resolve(barge + ".txt")).strip().toLowerCase(Locale.ROOT)
                        .replaceAll("[^a-z' ]", "");
                String heard = transcribe(vosk, Arrays.copyOfRange(clean, from, to));
                String alone = transcribe(vosk, Arrays.copyOfRange(direct, from, to));
                exact += heard.equals(want) ? 1 : 0;
                ceiling += alone.equals(want) ? 1 : 0;
                out.append(String.format(Locale.ROOT, "%-56s %-30s without the echo: %s%n", base, heard, alone));
            }
        }
        System.out.println(out + "replay exact " + exact + " of " + onsets.size() + ", without the echo " + ceiling);
    }

    /** The front end over the whole case, as the sweep's room ran it: 20 ms frames, the reference 60 ms ahead. */
    private static short[] cancel(short[] mic, short[] played) {
        AtomicLong clock = new AtomicLong();
        short[] out = new short[mic.length];
        int frame = 320;
        try (WebRtcFrontEnd fe = new WebRtcFrontEnd(FrontEndSettings.defaults(), clock::get)) {
            int renderPos = 0;
            long cleaned = 0;
            for (int pos = 0; pos + frame <= mic.length; pos += frame) {
                while (renderPos < pos + 3 * frame) {
                    fe.played(new PcmAudio(Arrays.copyOfRange(played, renderPos, renderPos + frame), 16_000));
                    renderPos += frame;
                }
                clock.addAndGet(frame * 1_000_000_000L / 16_000);
                PcmAudio c = fe.process(new PcmAudio(Arrays.copyOfRange(mic, pos, pos + frame), 16_000));
                int at = (int) Math.max(0, cleaned - fe.latencySamples());
                for (int i = 0; i < c.length() && at + i < out.length; i++) {
                    out[at + i] = c.samples()[i];
                }
                cleaned += c.length();
            }
        }
        return out;
    }

    /** The recording a dump is named after (BARGE-ROOM-SNR): the longest prefix of the name with a WAV of its own. */
    private static String recording(String dumpName, Path speechDir) {
        for (int cut = dumpName.lastIndexOf('-'); cut > 0; cut = dumpName.lastIndexOf('-', cut - 1)) {
            if (Files.isRegularFile(speechDir.resolve(dumpName.substring(0, cut) + ".wav"))) {
                return dumpName.substring(0, cut);
            }
        }
        throw new IllegalArgumentException("expected a dump named after a recording of " + speechDir + " but found "
                + dumpName);
    }

    /** Samples from the recording's first to its last sample of 300 or more. */
    private static int voicedLength(short[] x) {
        int first = 0;
        while (first < x.length && Math.abs(x[first]) < 300) {
            first++;
        }
        int last = x.length - 1;
        while (last > first && Math.abs(x[last]) < 300) {
            last--;
        }
        return last - first;
    }

    private static short[] load(Path p) throws Exception {
        return WavFileSource.load(p, 16_000).samples();
    }

    private static String transcribe(VoskRecognizer vosk, short[] x) throws Exception {
        try (RecognitionStream s = vosk.openStream(16_000)) {
            return WebRtcFrontEndTest.recognize(s, x);
        }
    }
}
