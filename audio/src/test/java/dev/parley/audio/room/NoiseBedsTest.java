package dev.parley.audio.room;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.SharedFixtures;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated noise beds: repeatable from their seed, at their level, each with its own character. */
class NoiseBedsTest {
    private static final int RATE = RoomWav.ROOM_RATE;

    private static List<float[]> speech() throws Exception {
        Path dir = SharedFixtures.require("vosk/wav/marytts");
        return List.of(RoomMixerTest.load(dir.resolve("01-what-is-the-weather-like-today.wav")),
                RoomMixerTest.load(dir.resolve("05-set-a-timer-for-five-minutes.wav")),
                RoomMixerTest.load(dir.resolve("08-open-the-settings.wav")));
    }

    @Test
    void bedsAreRepeatableFromTheirSeedAndAtTheirLevel() throws Exception {
        List<float[]> s = speech();
        for (NoiseBed kind : NoiseBed.values()) {
            float[] a = NoiseBeds.make(kind, 3, 11, s);
            assertArrayEquals(a, NoiseBeds.make(kind, 3, 11, s), kind + " is the same for the same seed");
            assertFalse(Arrays.equals(a, NoiseBeds.make(kind, 3, 12, s)), kind + " differs for another seed");
            assertEquals(3 * RATE, a.length);
            assertEquals(NoiseBeds.BED_DBFS, Levels.rmsDb(a), 0.01, kind + " level");
        }
    }

    @Test
    void theFanHumsAtTheMainsFrequencyAndTheCafeClattersAndBabbleComesAndGoes() throws Exception {
        List<float[]> s = speech();
        float[] fan = NoiseBeds.make(NoiseBed.FAN, 4, 3, s);
        double hum = Math.max(power(fan, 50), power(fan, 60));
        assertTrue(hum > 10 * power(fan, 77), "mains hum stands out of the fan's broadband noise");
        float[] cafe = NoiseBeds.make(NoiseBed.CAFE, 8, 3, s);
        assertTrue(crest(cafe) > crest(fan) + 3, "clinks make the cafe more impulsive than the fan: " + crest(cafe) + " vs "
                + crest(fan) + " dB");
        float[] babble = NoiseBeds.make(NoiseBed.BABBLE, 8, 3, s);
        assertTrue(frameSpreadDb(babble) > frameSpreadDb(fan) + 2, "babble's level moves more than a fan's");
    }

    /** Power at {@code hz} by the Goertzel recurrence. */
    private static double power(float[] x, double hz) {
        double w = 2 * Math.PI * hz / RATE;
        double c = 2 * Math.cos(w);
        double s1 = 0;
        double s2 = 0;
        for (float v : x) {
            double s0 = v + c * s1 - s2;
            s2 = s1;
            s1 = s0;
        }
        return s1 * s1 + s2 * s2 - c * s1 * s2;
    }

    private static double crest(float[] x) {
        double peak = 0;
        for (float v : x) {
            peak = Math.max(peak, Math.abs(v));
        }
        return 20 * Math.log10(peak) - Levels.rmsDb(x);
    }

    /** Standard deviation of the 100 ms frame levels, dB. */
    private static double frameSpreadDb(float[] x) {
        int f = RATE / 10;
        double[] db = new double[x.length / f];
        for (int i = 0; i < db.length; i++) {
            db[i] = Levels.rmsDb(Arrays.copyOfRange(x, i * f, (i + 1) * f));
        }
        double mean = Arrays.stream(db).average().orElse(0);
        return Math.sqrt(Arrays.stream(db).map(d -> (d - mean) * (d - mean)).average().orElse(0));
    }
}
