package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.SharedFixtures;
import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.room.BlockConvolver;
import dev.parley.audio.room.ImageSourceRir;
import dev.parley.audio.room.ImpulseResponse;
import dev.parley.audio.room.RoomAssets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The linear echo canceller on the image-source rooms of the duplex benchmark: Parley's speech (the fixture's MaryTTS
 * recordings) plays for 22 s and comes back through the room 6 dB louder than the user, who speaks twice over it
 * (espeak-ng recordings, through the room from where the user sits, at 10 s and 17 s).
 */
class LinearEchoCancellerTest {
    private static final int RATE = 16_000;
    private static final String[] QUESTIONS = {"03-what-time-is-it", "05-set-a-timer-for-five-minutes"};
    private static final int[] AT = {10 * RATE, 17 * RATE};

    /** What the microphone hears and what it is made of, sample for sample. */
    record Scene(RoomAssets.Asset room, short[] far, short[] mic, double[] echo, double[] near) {
    }

    static Scene scene(RoomAssets.Asset room, double echoDb) throws Exception {
        short[] far = WebRtcFrontEndTest.farSpeech(22);
        ImageSourceRir rirs = new ImageSourceRir(RATE);
        float[] echoF = BlockConvolver.convolve(floats(far), rirs.render(room.echoPath()).taps());
        float[] userIr = rirs.render(room.userPath()).taps();
        double[] near = new double[far.length];
        double speech = 0;
        int speechSamples = 0;
        for (int q = 0; q < QUESTIONS.length; q++) {
            short[] dry = WebRtcFrontEndTest.load("espeak-ng/" + QUESTIONS[q] + ".wav").samples();
            float[] wet = BlockConvolver.convolve(floats(dry), userIr);
            for (int i = 0; i < wet.length && AT[q] + i < near.length; i++) {
                near[AT[q] + i] = wet[i];
            }
            for (int i = 0; i < dry.length; i++) {
                speech += near[AT[q] + i] * near[AT[q] + i];
            }
            speechSamples += dry.length;
        }
        double[] echo = new double[far.length];
        for (int i = 0; i < echo.length; i++) {
            echo[i] = echoF[i];
        }
        double gain = Math.sqrt(speech / speechSamples) / SyntheticRoom.rms(echo, 2 * RATE, echo.length)
                * Math.pow(10, echoDb / 20);
        short[] mic = new short[far.length];
        for (int i = 0; i < mic.length; i++) {
            echo[i] *= gain;
            mic[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.rint(echo[i] + near[i])));
        }
        return new Scene(room, far, mic, echo, near);
    }

    /** The canceller's output in 10 ms frames, moved back by its latency so that it lines up with the input. */
    static short[] run(LinearEchoCanceller aec, short[] far, short[] mic) {
        int lag = aec.latencySamples();
        short[] out = new short[mic.length];
        short[] o = new short[AudioFrontEnd.FRAME_SAMPLES];
        for (int p = 0; p + o.length <= mic.length; p += o.length) {
            aec.process(Arrays.copyOfRange(far, p, p + o.length), Arrays.copyOfRange(mic, p, p + o.length), o);
            for (int i = 0; i < o.length; i++) {
                if (p + i - lag >= 0) {
                    out[p + i - lag] = o[i];
                }
            }
        }
        return out;
    }

    /** Echo removed over {@code [fromS, toS)} s where only the echo sounds, dB. */
    static double erle(Scene s, short[] out, double fromS, double toS) {
        double echo = 0;
        double left = 0;
        for (int i = (int) (fromS * RATE); i < (int) (toS * RATE); i++) {
            double r = out[i] - s.near()[i];
            echo += s.echo()[i] * s.echo()[i];
            left += r * r;
        }
        return 10 * Math.log10(echo / Math.max(left, 1));
    }

    private static List<RoomAssets.Asset> rooms(String... names) {
        List<RoomAssets.Asset> out = new ArrayList<>();
        for (RoomAssets.Asset a : RoomAssets.rooms()) {
            if (Arrays.asList(names).contains(a.echoPath().name())) {
                out.add(a);
            }
        }
        return out;
    }

    @Test
    void withNothingPlayedTheMicrophoneComesThroughAsItWas() {
        Random r = new Random(3);
        short[] mic = new short[3 * RATE];
        for (int i = 0; i < mic.length; i++) {
            mic[i] = (short) Math.rint(3000 * Math.sin(i * 0.05) + 800 * r.nextGaussian());
        }
        for (boolean suppress : new boolean[] {false, true}) {
            short[] out = run(new LinearEchoCanceller(RATE, 320, suppress), new short[mic.length], mic);
            int end = mic.length - 2 * AudioFrontEnd.FRAME_SAMPLES - LinearEchoCanceller.MARGIN;
            for (int i = 0; i < end; i++) {
                assertTrue(Math.abs(out[i] - mic[i]) <= 1, "sample " + i + ": " + mic[i] + " came out as " + out[i]
                        + " (suppressor " + suppress + ")");
            }
        }
    }

    @Test
    void theFilterConvergesInSecondsAndFindsTheRoomsDelay() throws Exception {
        SharedFixtures.require("vosk/wav");
        ImageSourceRir rirs = new ImageSourceRir(RATE);
        for (RoomAssets.Asset room : rooms("office-small", "kitchen", "bedroom-soft")) {
            Scene s = scene(room, 6);
            LinearEchoCanceller linear = new LinearEchoCanceller(RATE, 320, false);
            short[] out = run(linear, s.far(), s.mic());
            double early = erle(s, out, 3, 10);
            double late = erle(s, out, 20, 22);
            ImpulseResponse ir = rirs.render(room.echoPath());
            int delay = linear.delayMillis(RATE) - LinearEchoCanceller.MARGIN * 1000 / RATE;
            String name = room.echoPath().name();
            System.out.printf("%s: linear filter alone removes %.1f dB over 3-10 s, %.1f dB over 20-22 s (after two"
                    + " questions over it); delay %d ms (room %d ms)%n", name, early, late, delay, ir.peakIndex() * 1000 / RATE);
            assertTrue(early >= 12, name + ": " + early + " dB over 3-10 s");
            // the user's two questions did not undo it (double talk)
            assertTrue(late >= early, name + ": " + late + " dB after the questions, " + early + " before");
            assertEquals(ir.peakIndex() * 1000.0 / RATE, delay, 2, name + ": echo path delay");

            short[] suppressed = run(new LinearEchoCanceller(RATE, 320, true), s.far(), s.mic());
            double withSuppressor = erle(s, suppressed, 3, 10);
            System.out.printf("%s: with the residual suppressor %.1f dB over 3-10 s%n", name, withSuppressor);
            assertTrue(withSuppressor >= 20 && withSuppressor >= early + 5, name + ": " + withSuppressor + " dB");
        }
    }

    /** Where AEC3 alone gets none of these right (docs/audio.md), the user's words come through whole. */
    @Test
    void theUserSixDecibelsBelowTheEchoIsRecognised() throws Exception {
        Path model = SharedFixtures.require("vosk/model-assistant");
        try (VoskRecognizer vosk = VoskRecognizer.load(model); RecognitionStream asr = vosk.openStream(RATE)) {
            for (RoomAssets.Asset room : rooms("office-small", "living-room", "meeting-room", "bedroom-soft")) {
                Scene s = scene(room, 6);
                short[] out = run(new LinearEchoCanceller(RATE, 320, true), s.far(), s.mic());
                for (int q = 0; q < QUESTIONS.length; q++) {
                    asr.reset();
                    String heard = WebRtcFrontEndTest.recognize(asr,
                            Arrays.copyOfRange(out, AT[q] - RATE / 2, AT[q] + 2 * RATE + RATE / 4));
                    assertEquals(QUESTIONS[q].substring(3).replace('-', ' '), heard, room.echoPath().name());
                }
            }
        }
    }

    private static float[] floats(short[] s) {
        float[] f = new float[s.length];
        for (int i = 0; i < s.length; i++) {
            f[i] = s[i];
        }
        return f;
    }
}
