package dev.parley.audio.room;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.capture.WavFileSource;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Mixing speech, echo and noise at the microphone at the requested echo level and SNR. */
class RoomMixerTest {
    private static final int RATE = 16_000;

    @ParameterizedTest
    @CsvSource({"0, 20, FAN", "-10, 10, BABBLE", "6, 10, CAFE", "-20, 0, FAN"})
    void theMixHasTheRequestedEchoLevelAndSnr(double echoDb, double snrDb, NoiseBed bed) throws Exception {
        Path dir = SharedFixtures.require("vosk/wav");
        float[] user = load(dir.resolve("espeak-ng/02-tell-me-a-joke.wav"));
        float[] reply = load(dir.resolve("marytts/01-what-is-the-weather-like-today.wav"));
        RoomSpec spec = ImageSourceRirTest.rooms().get(1);
        ImageSourceRir rir = new ImageSourceRir(RATE);
        float[] echo = BlockConvolver.convolve(reply, rir.render(spec).taps());
        float[] speech = BlockConvolver.convolve(user, rir.render(spec.withSource("mouth", new Point3(2.4, 2.6, 1.2))).taps());
        float[] noise = NoiseBeds.make(bed, 4, 7, List.of(user, reply));
        RoomMixer.Mix mix = RoomMixer.mix(speech, echo, noise, new RoomMixer.Levels3(-26, echoDb, snrDb), RATE);
        double speechDb = Levels.activeDb(mix.speech(), RATE);
        assertEquals(-26, speechDb, 0.5, "speech level");
        assertEquals(echoDb, Levels.activeDb(mix.echo(), RATE) - speechDb, 0.5, "echo relative to speech");
        assertEquals(snrDb, speechDb - Levels.rmsDb(mix.noise()), 0.5, "speech to noise");
        // the parts sum to the microphone signal
        for (int i = 0; i < mix.mic().length; i += 101) {
            assertEquals(mix.speech()[i] + mix.echo()[i] + mix.noise()[i], mix.mic()[i], 1e-6);
        }
        assertTrue(Levels.rmsDb(mix.mic()) > Levels.rmsDb(mix.noise()), "the mix is louder than its noise");
    }

    static float[] load(Path wav) throws Exception {
        PcmAudio a = WavFileSource.load(wav, RATE);
        return Levels.toFloat(a.samples());
    }
}
