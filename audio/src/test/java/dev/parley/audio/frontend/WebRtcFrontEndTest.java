package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.WavFileSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real WebRTC front end on a synthetic room, with each echo canceller: Parley's speech (the fixture's MaryTTS
 * recordings) plays and comes back as echo as loud as the user; the user's speech (espeak-ng recordings) arrives over
 * it.
 */
class WebRtcFrontEndTest {
    private static final String WAV = "vosk/wav/";

    static PcmAudio load(String name) throws Exception {
        return WavFileSource.load(SharedFixtures.require(WAV + name), 16_000);
    }

    /** Simulated time: advanced by the capture, 20 ms a frame, as a microphone's clock would be. */
    static final java.util.concurrent.atomic.AtomicLong CLOCK = new java.util.concurrent.atomic.AtomicLong();

    static AudioFrontEnd openOrSkip(FrontEndSettings s) {
        AudioFrontEnd probe = FrontEnds.open(s);     // also loads Vosk's library first (see FrontEnds)
        probe.close();
        assumeTrue(probe instanceof WebRtcFrontEnd && probe.description().startsWith("WebRTC audio processing")
                || !s.echoCancellation(), "skipped: " + probe.description());
        return new WebRtcFrontEnd(s, CLOCK::get);
    }

    /** Far-end speech for about {@code seconds}: the MaryTTS sentences one after another with short pauses. */
    static short[] farSpeech(double seconds) throws Exception {
        String[] names = {"01-what-is-the-weather-like-today", "02-tell-me-a-joke", "05-set-a-timer-for-five-minutes",
            "03-what-time-is-it", "06-how-are-you", "08-open-the-settings"};
        List<PcmAudio> parts = new ArrayList<>();
        double total = 0;
        for (int i = 0; total < seconds * 1000; i++) {
            PcmAudio a = load("marytts/" + names[i % names.length] + ".wav");
            parts.add(a);
            parts.add(PcmAudio.silence(150, 16_000));
            total += a.durationMillis() + 150;
        }
        return PcmAudio.join(parts, 16_000).samples();
    }

    /**
     * Runs {@code mic} through {@code fe} in 20 ms capture frames, with the render reference handed 60 ms ahead in
     * 20 ms pieces, as {@code SpeakerSink} does.
     */
    static short[] run(AudioFrontEnd fe, short[] far, short[] mic) {
        int piece = 320;
        int lead = 3 * piece;
        short[] out = new short[mic.length];
        int o = 0;
        int rendered = 0;
        for (int pos = 0; pos + piece <= mic.length; pos += piece) {
            while (pos > 0 && rendered < far.length && rendered < pos + lead) {
                int n = Math.min(piece, far.length - rendered);
                fe.played(new PcmAudio(Arrays.copyOfRange(far, rendered, rendered + n), 16_000));
                rendered += n;
            }
            CLOCK.addAndGet(20_000_000L);
            PcmAudio p = fe.process(new PcmAudio(Arrays.copyOfRange(mic, pos, pos + piece), 16_000));
            System.arraycopy(p.samples(), 0, out, o, p.length());
            o += p.length();
        }
        return Arrays.copyOf(out, o);
    }

    static double db(double ratio) {
        return 20 * Math.log10(ratio);
    }

    @ParameterizedTest
    @EnumSource(value = EchoCanceller.class, names = {"LINEAR", "AEC3"})
    void echoAsLoudAsTheUserFallsByTwentyDecibels(EchoCanceller canceller) throws Exception {
        Path model = SharedFixtures.require("vosk/model-assistant");
        short[] near = load("espeak-ng/03-what-time-is-it.wav").samples();
        short[] far = farSpeech(14);
        SyntheticRoom room = new SyntheticRoom(40, 300, 7);
        double[] echoOnly = room.echo(far, 1.0);
        int nearAt = 10 * 16_000;
        // echo as loud as the user at the microphone (RMS over speech)
        double gain = SyntheticRoom.rms(near, 0, near.length) / SyntheticRoom.rms(echoOnly, nearAt, nearAt + near.length);
        double[] echo = room.echo(far, gain);
        short[] mic = SyntheticRoom.mix(echo, near, nearAt, 1.0);
        short[] out;
        FrontEndStats stats;
        try (AudioFrontEnd fe = openOrSkip(FrontEndSettings.defaults().withEchoCanceller(canceller))) {
            long t0 = System.nanoTime();
            out = run(fe, far, mic);
            long ns = System.nanoTime() - t0;
            stats = fe.stats();
            System.out.printf(canceller + " front end: %.3f ms per 10 ms frame (noisy on a shared machine), stats %s%n",
                    ns / 1e6 / (mic.length / 160.0), stats);
        }
        // echo-only stretch after 3 s of convergence, before the user speaks
        int from = 4 * 16_000;
        int to = nearAt - 1600;
        double erle = db(SyntheticRoom.rms(echo, from, to) / Math.max(1, SyntheticRoom.rms(out, from, to)));
        System.out.printf(canceller + ": ERLE measured %.1f dB (reported %.1f dB, delay %d ms)%n", erle, stats.erleDb(), stats.delayMs());
        assertTrue(erle >= 20, "echo reduced by only " + erle + " dB");
        assertTrue(stats.echoCancelling() && stats.frames() > 0, stats.toString());

    }

    /** Speech over echo 10 dB below it (double talk: the canceller must keep the user) is still recognized. */
    @ParameterizedTest
    @EnumSource(value = EchoCanceller.class, names = {"LINEAR", "AEC3"})
    void theUserSpeakingOverTheEchoIsRecognized(EchoCanceller canceller) throws Exception {
        Path model = SharedFixtures.require("vosk/model-assistant");
        String[] users = {"03-what-time-is-it", "02-tell-me-a-joke", "05-set-a-timer-for-five-minutes"};
        short[] far = farSpeech(14);
        SyntheticRoom room = new SyntheticRoom(40, 300, 7);
        double[] echoOnly = room.echo(far, 1.0);
        int nearAt = 10 * 16_000;
        try (VoskRecognizer vosk = VoskRecognizer.load(model);
             RecognitionStream asr = vosk.openStream(16_000)) {
            for (String u : users) {
                short[] near = load("espeak-ng/" + u + ".wav").samples();
                double gain = SyntheticRoom.rms(near, 0, near.length)
                        / SyntheticRoom.rms(echoOnly, nearAt, nearAt + near.length) * Math.pow(10, -10 / 20.0);
                short[] mic = SyntheticRoom.mix(room.echo(far, gain), near, nearAt, 1.0);
                short[] out;
                try (AudioFrontEnd fe = openOrSkip(FrontEndSettings.defaults().withEchoCanceller(canceller))) {
                    out = run(fe, far, mic);
                }
                int from = nearAt - 8000;
                int to = Math.min(out.length, nearAt + near.length + 8000);
                asr.reset();
                String expected = u.substring(3).replace('-', ' ');
                assertEquals(expected, recognize(asr, Arrays.copyOfRange(out, from, to)), u);
                // without the front end the echo is what Vosk hears
                asr.reset();
                System.out.println(u + ": without the front end Vosk heard '"
                        + recognize(asr, Arrays.copyOfRange(mic, from, to)) + "'");
            }
        }
    }

    static String recognize(RecognitionStream asr, short[] audio) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int p = 0; p < audio.length; p += 320) {
            Transcript t = asr.accept(new PcmAudio(Arrays.copyOfRange(audio, p, Math.min(audio.length, p + 320)), 16_000));
            if (t instanceof Transcript.Final f && !f.isEmpty()) {
                text.append(' ').append(f.text());
            }
        }
        text.append(' ').append(asr.finish().text());
        return text.toString().strip().replaceAll("\\s+", " ");
    }
}
