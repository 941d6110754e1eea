package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.room.NoiseBed;
import dev.parley.audio.room.NoiseBeds;
import dev.parley.audio.room.RoomAssets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SteadyNoise} on the benchmark's own noise beds (generated from the fixture recordings) and the fixture's
 * speech: a fan is steady, a bed of voices or a café is not, speech over a fan does not change that, and a fan too
 * quiet to matter is left alone.
 */
class SteadyNoiseTest {
    private static final int FRAME = 160;

    /** The bed's 10 ms frame levels, scaled so that the bed sits at {@code dbfs} (its RMS). */
    private static double[] levels(float[] bed, double dbfs) {
        double sum = 0;
        for (float v : bed) {
            sum += (double) v * v;
        }
        double gain = Math.pow(10, dbfs / 20) / Math.sqrt(sum / bed.length);
        double[] out = new double[bed.length / FRAME];
        short[] frame = new short[FRAME];
        for (int f = 0; f < out.length; f++) {
            for (int i = 0; i < FRAME; i++) {
                frame[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE,
                        Math.round(bed[f * FRAME + i] * gain * 32768)));
            }
            out[f] = LevelMeter.rmsDbfs(frame, 0, FRAME);
        }
        return out;
    }

    /**
     * Adds {@code speech}'s frame levels (brought to {@code dbfs} RMS) to {@code levels} from frame {@code from} on, as
     * powers; returns the frame after the last one added. Where {@code words} is given, it receives the first and the
     * last frame on which the speech stood 6 dB above what was there.
     */
    private static int addSpeech(double[] levels, PcmAudio speech, double dbfs, int from, int[] words) {
        double gainDb = dbfs - LevelMeter.rmsDbfs(speech.samples(), 0, speech.length());
        int f = from;
        for (int k = 0; k + FRAME <= speech.length() && f < levels.length; k += FRAME, f++) {
            double level = LevelMeter.rmsDbfs(speech.samples(), k, k + FRAME) + gainDb;
            if (words != null && level > levels[f] + 6) {
                words[0] = words[0] < 0 ? f : words[0];
                words[1] = f;
            }
            levels[f] = 10 * Math.log10(Math.pow(10, levels[f] / 10) + Math.pow(10, level / 10));
        }
        return f;
    }

    private static List<float[]> voices() throws Exception {
        return RoomAssets.snippets(SharedFixtures.voskRecordings());
    }

    /** The frame at which the judgement first became steady, -1 if never; and whether it stayed so once it was. */
    private static int firstSteady(SteadyNoise n, double[] levels, boolean[] stayed) {
        int first = -1;
        stayed[0] = true;
        for (int f = 0; f < levels.length; f++) {
            n.add(levels[f]);
            if (n.steady() && first < 0) {
                first = f;
            } else if (!n.steady() && first >= 0) {
                stayed[0] = false;
            }
        }
        return first;
    }

    @Test
    void aFanIsSteadyWithinItsFirstSecondsAndStaysSo() throws Exception {
        SteadyNoise n = new SteadyNoise();
        boolean[] stayed = new boolean[1];
        int first = firstSteady(n, levels(NoiseBeds.make(NoiseBed.FAN, 30, 3, List.of()), -40), stayed);
        assertTrue(first >= 0 && first < SteadyNoise.MIN_FRAMES + SteadyNoise.EVERY_FRAMES,
                "a fan at -40 dBFS judged steady at frame " + first + " (spread " + n.spreadDb() + " dB)");
        assertTrue(stayed[0], "the fan's judgement flapped (spread " + n.spreadDb() + " dB)");
    }

    @Test
    void aQuestionSaidAsTheFanIsJudgedIsNotCutBySwitchingInItsWords() throws Exception {
        double[] fan = levels(NoiseBeds.make(NoiseBed.FAN, 10, 3, List.of()), -45);
        // "set a timer for five minutes" 10 dB above the fan, begun 100 ms before the first judgement
        PcmAudio s = WavFileSource.load(SharedFixtures.voskRecordings().stream()
                .filter(p -> p.toString().contains("05-set-a-timer")).findFirst().orElseThrow(), 16_000);
        double[] mixed = fan.clone();
        int[] words = {-1, -1};
        addSpeech(mixed, s, -35, SteadyNoise.MIN_FRAMES - 10, words);
        int first = words[0];
        int last = words[1];
        SteadyNoise n = new SteadyNoise();
        int on = -1;
        for (int f = 0; f < mixed.length && on < 0; f++) {
            n.add(mixed[f]);
            if (n.steady()) {
                on = f;
            }
        }
        assertTrue(n.judgedSteady(), "the fan was not judged steady");
        assertTrue(on > last && on <= last + 50, "the suppressor came on at frame " + on + ", the words ran from frame "
                + first + " to " + last + " (expected it after them, within half a second)");
    }

    @Test
    void bedsOfVoicesAreNeverSteady() throws Exception {
        List<float[]> voices = voices();
        for (NoiseBed bed : List.of(NoiseBed.BABBLE, NoiseBed.CAFE)) {
            for (long seed = 1; seed <= 3; seed++) {
                SteadyNoise n = new SteadyNoise();
                boolean[] stayed = new boolean[1];
                int first = firstSteady(n, levels(NoiseBeds.make(bed, 30, seed, voices), -40), stayed);
                assertTrue(first < 0, bed + " (seed " + seed + ") judged steady at frame " + first + ", spread "
                        + n.spreadDb() + " dB");
            }
        }
    }

    @Test
    void theUserSpeakingOverAFanDoesNotTurnItOff() throws Exception {
        double[] fan = levels(NoiseBeds.make(NoiseBed.FAN, 40, 5, List.of()), -45);
        // the fixture's sentences 10 dB above the fan, back to back with 300 ms between them from the 5th second on:
        // speech fills about 80% of the time, more than any conversation
        double[] mixed = fan.clone();
        int f = 500;
        for (int i = 0; f < mixed.length; i = (i + 1) % 10) {
            f = addSpeech(mixed, WavFileSource.load(SharedFixtures.voskRecordings().get(i), 16_000), -35, f, null) + 30;
        }
        SteadyNoise n = new SteadyNoise();
        boolean[] stayed = new boolean[1];
        int first = firstSteady(n, mixed, stayed);
        assertTrue(first >= 0 && first < 500, "the fan alone was judged steady at frame " + first);
        assertTrue(stayed[0], "the user's speech turned the fan's suppressor off (spread " + n.spreadDb() + " dB)");
    }

    @Test
    void aFanTooQuietToMatterIsLeftAlone() throws Exception {
        SteadyNoise n = new SteadyNoise();
        boolean[] stayed = new boolean[1];
        int first = firstSteady(n, levels(NoiseBeds.make(NoiseBed.FAN, 20, 3, List.of()), -75), stayed);
        assertTrue(first < 0, "a fan at -75 dBFS judged steady (floor " + n.floorDbfs() + " dBFS)");
    }

    @Test
    void voicesAfterTheFanTurnItOffWithinTheWindow() throws Exception {
        double[] fan = levels(NoiseBeds.make(NoiseBed.FAN, 10, 3, List.of()), -40);
        double[] babble = levels(NoiseBeds.make(NoiseBed.BABBLE, 20, 4, voices()), -40);
        SteadyNoise n = new SteadyNoise();
        for (double l : fan) {
            n.add(l);
        }
        assertTrue(n.steady(), "the fan alone was not judged steady (spread " + n.spreadDb() + " dB)");
        int off = -1;
        for (int f = 0; f < babble.length && off < 0; f++) {
            n.add(babble[f]);
            if (!n.steady()) {
                off = f;
            }
        }
        assertTrue(off >= 0 && off <= SteadyNoise.WINDOW_FRAMES, "the bed of voices after the fan turned the "
                + "suppressor off after " + off + " frames (spread " + n.spreadDb() + " dB)");
        assertFalse(n.steady());
    }
}
