package dev.parley.audio.room;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Image-source room impulse responses: direct-path delay, reverberation time, decay. */
class ImageSourceRirTest {
    private static final int RATE = 16_000;
    private static final ImageSourceRir RIR = new ImageSourceRir(RATE);

    static List<RoomSpec> rooms() {
        return List.of(
                new RoomSpec("small-office", new Shoebox(3.5, 4.2, 2.7), new Point3(1.2, 1.5, 1.0), new Point3(1.5, 1.7, 1.1),
                        0.35, 20, Absorption.EYRING),
                new RoomSpec("living-room", new Shoebox(5.0, 6.5, 2.6), new Point3(2.0, 3.0, 0.9), new Point3(2.4, 3.2, 1.0),
                        0.6, 40, Absorption.EYRING),
                new RoomSpec("meeting-room", new Shoebox(7.0, 9.0, 3.0), new Point3(3.0, 4.0, 1.0), new Point3(3.5, 4.6, 1.1),
                        0.8, 10, Absorption.EYRING),
                new RoomSpec("dead-booth", new Shoebox(2.5, 3.0, 2.4), new Point3(1.0, 1.2, 1.1), new Point3(1.3, 1.4, 1.1),
                        0.2, 0, Absorption.EYRING));
    }

    @ParameterizedTest
    @MethodSource("rooms")
    void theDirectPathArrivesAfterTheDistanceOverTheSpeedOfSoundPlusTheLatency(RoomSpec spec) {
        ImpulseResponse ir = RIR.render(spec);
        double expected = spec.latencyMillis() / 1000.0 * RATE + spec.source().distanceTo(spec.mic()) / ImageSourceRir.SPEED_OF_SOUND * RATE;
        assertEquals(expected, ir.peakIndex(), 1.0, spec.name() + ": peak of the response at the direct path");
        int latency = spec.latencyMillis() * RATE / 1000;
        assertTrue(ir.leadingZeros() >= latency, spec.name() + ": the latency comes first as zeros, found " + ir.leadingZeros());
    }

    @ParameterizedTest
    @MethodSource("rooms")
    void schroederReverberationTimeIsWithinTwentyPercentOfTheTarget(RoomSpec spec) {
        ImageSourceRir.Rendered r = RIR.renderWithStats(spec, true);
        double measured = Decay.rt60(r.response());
        System.out.printf("%s: target %.2f s, measured %.3f s, absorption %.3f, order %d, %d images%n", spec.name(), spec.rt60(),
                measured, r.absorption(), r.maxOrder(), r.images());
        assertEquals(spec.rt60(), measured, 0.2 * spec.rt60(), spec.name() + " RT60 (T20)");
        assertTrue(r.maxOrder() >= 10, "enough reflections for the reverberation time: order " + r.maxOrder());
    }

    @Test
    void eyringsFormulaAloneGivesTheRt60OfRoomsCloseToACube() {
        for (RoomSpec spec : List.of(rooms().get(0), rooms().get(3))) {
            double measured = Decay.rt60(RIR.renderWithStats(spec, false).response());
            assertEquals(spec.rt60(), measured, 0.2 * spec.rt60(), spec.name() + " RT60 (T20) without the fit");
        }
    }

    @ParameterizedTest
    @MethodSource("rooms")
    void energyDecaysOverTime(RoomSpec spec) {
        ImpulseResponse ir = RIR.render(spec);
        float[] h = ir.taps();
        int start = ir.peakIndex();
        int window = RATE / 20;   // 50 ms
        double previous = Double.MAX_VALUE;
        for (int from = start + window; from + window <= h.length - RATE / 20; from += window * 2) {
            double e = 0;
            for (int i = from; i < from + window; i++) {
                e += (double) h[i] * h[i];
            }
            assertTrue(e < previous, spec.name() + ": energy at " + (from - start) * 1000 / RATE + " ms after the direct path ("
                    + e + ") is below the earlier window's (" + previous + ")");
            previous = e;
        }
        double[] edc = Decay.schroederDb(ir);
        for (int i = 1; i < edc.length; i++) {
            assertTrue(edc[i] <= edc[i - 1] + 1e-9, "the energy decay curve never rises");
        }
    }

    @Test
    void aLongerReverberationTimeGivesALongerDecay() {
        RoomSpec dry = rooms().get(1);
        RoomSpec wet = new RoomSpec("wet", dry.room(), dry.source(), dry.mic(), 1.0, dry.latencyMillis(), dry.absorption());
        assertTrue(Decay.rt60(RIR.render(wet)) > 1.3 * Decay.rt60(RIR.render(dry)));
    }

    @Test
    void impossibleRoomsAreRefusedSayingWhy() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RoomSpec("x", new Shoebox(3, 3, 3),
                new Point3(5, 1, 1), new Point3(1, 1, 1), 0.5, 0, Absorption.EYRING));
        assertTrue(e.getMessage().contains("inside the room"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new RoomSpec("x", new Shoebox(3, 3, 3),
                new Point3(1, 1, 1), new Point3(2, 2, 2), 0.01, 0, Absorption.EYRING));
        assertTrue(e.getMessage().contains("RT60"), e.getMessage());
    }
}
