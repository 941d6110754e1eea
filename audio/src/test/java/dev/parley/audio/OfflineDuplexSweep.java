package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.frontend.SyntheticRoom;
import dev.parley.audio.playback.ListeningCue;
import dev.parley.audio.room.BlockConvolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A tool for tuning the full-duplex policy, not part of the suite: `bench duplex`'s rooms, speech and noise
 * ({@code scripts/make-duplex-assets.sh DIR}) run through an {@link OfflineDuplexRoom}, so a change is measured on
 * every room and SNR in minutes and the same on every run, before the real-time benchmark confirms it. Each case: the
 * listening cue, "goodbye" asked at 3 s, a reply of fixture sentences with its echo 6 dB above the user, and
 * {@code -Dbarge=NAME} (a speech file's name without .wav, or {@code none}) {@code -DbargeAt=MS} into the reply.
 * It prints, per room and SNR, where the loop held, resumed and stopped the reply, ms from the barge-in's onset.
 * <pre>
 * ./mvnw -o -pl audio surefire:test -Dtest=OfflineDuplexSweep -Dparley.jvm.flags="... -Dparley.duplex.assets=/tmp/duplex
 *     -Dbarge=espeak-ng-06-how-are-you -DbargeAt=583"
 * </pre>
 */
@EnabledIfSystemProperty(named = "parley.duplex.assets", matches = ".+",
        disabledReason = "a tuning tool: set -Dparley.duplex.assets=DIR (scripts/make-duplex-assets.sh DIR)")
class OfflineDuplexSweep {
    private static final String[] REPLY = {"02-tell-me-a-joke", "03-what-time-is-it", "09-hello", "10-goodbye",
        "01-what-is-the-weather-like-today", "02-tell-me-a-joke", "03-what-time-is-it", "09-hello"};

    @Test
    void sweep() throws Exception {
        Path dir = Path.of(System.getProperty("parley.duplex.assets"));
        String bargeName = System.getProperty("barge", "espeak-ng-06-how-are-you");
        int bargeAt = Integer.getInteger("bargeAt", 583);
        int seconds = Integer.getInteger("seconds", bargeName.equals("none") ? 40 : 20);
        short[] question = load(dir.resolve("speech/espeak-ng-10-goodbye.wav"));
        short[] barge = bargeName.equals("none") ? new short[16_000] : load(dir.resolve("speech/" + bargeName + ".wav"));
        int onset = 0;
        while (onset < barge.length && Math.abs(barge[onset]) < 300) {
            onset++;
        }
        List<PcmAudio> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (String name : REPLY) {
            parts.add(WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/" + name + ".wav"), 16_000));
            parts.add(PcmAudio.silence(150, 16_000));
            text.append(Files.readString(SharedFixtures.require("vosk/wav/marytts/" + name + ".txt"))).append(' ');
        }
        short[] reply = PcmAudio.join(parts, 16_000).samples();
        Path noiseFile;
        try (Stream<Path> s = Files.list(dir.resolve("noise"))) {
            noiseFile = s.filter(p -> p.toString().endsWith(".wav")).sorted().findFirst().orElseThrow();
        }
        short[] noise = load(noiseFile);
        List<Path> rooms;
        try (Stream<Path> s = Files.list(dir.resolve("rooms"))) {
            rooms = s.filter(p -> p.toString().endsWith(".wav") && !p.toString().endsWith("-user.wav")).sorted().toList();
        }
        StringBuilder report = new StringBuilder();
        for (Path roomFile : rooms) {
            String name = roomFile.getFileName().toString().replace(".wav", "");
            double[] ir = unit(load(roomFile));
            double[] userIr = unit(load(roomFile.resolveSibling(name + "-user.wav")));
            for (double snr : new double[] {20, 10}) {
                short[] q = convolve(question, userIr);
                short[] b = convolve(barge, userIr);
                double userRms = SyntheticRoom.rms(q, 0, q.length);
                short[] echo = convolve(reply, ir);
                double echoGain = 2 * userRms / SyntheticRoom.rms(echo, 0, reply.length);   // echo 6 dB above the user
                AtomicLong clock = new AtomicLong();
                OfflineDuplexRoom room = new OfflineDuplexRoom(seconds, ir, echoGain, reply, text.toString(), clock);
                room.say(noise, 0, userRms / SyntheticRoom.rms(noise, 0, Math.min(noise.length, seconds * 16_000))
                        * Math.pow(10, -snr / 20));
                room.playAt(ListeningCue.sound().samples(), (int) ListeningCue.DELAY_MILLIS);
                room.say(q, 3000, 1.0);
                room.sayAfterReplyStarts(b, bargeAt);
                room.run();
                assertTrue(room.errors().isEmpty(), room.errors().toString());
                int on = room.replyStartedMillis() + bargeAt + onset / 16;
                StringBuilder ev = new StringBuilder();
                for (OfflineDuplexRoom.Event e : room.events()) {
                    ev.append(e.what()).append('@').append(e.atMillis() - on).append(' ');
                }
                report.append(String.format(java.util.Locale.ROOT, "%-13s SNR %2.0f: reply at %d ms: %s%n", name, snr,
                        room.replyStartedMillis(), room.replyStartedMillis() < 0 ? "the question made no reply" : ev));
            }
        }
        System.out.println("offline duplex sweep, " + bargeName + " " + bargeAt + " ms into the reply (times from its onset):\n"
                + report);
    }

    private static short[] load(Path p) throws Exception {
        return WavFileSource.load(p, 16_000).samples();
    }

    private static double[] unit(short[] s) {
        double[] d = new double[s.length];
        for (int i = 0; i < s.length; i++) {
            d[i] = s[i] / 32768.0;
        }
        return d;
    }

    /** {@code x} through {@code h} (the room's path), clipped to 16 bits: the room package's FFT convolution. */
    private static short[] convolve(short[] x, double[] h) {
        float[] xf = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            xf[i] = x[i];
        }
        float[] hf = new float[h.length];
        for (int i = 0; i < h.length; i++) {
            hf[i] = (float) h[i];
        }
        float[] y = BlockConvolver.convolve(xf, hf);
        short[] out = new short[y.length];
        for (int i = 0; i < y.length; i++) {
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(y[i])));
        }
        return out;
    }
}
