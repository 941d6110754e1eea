package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NearEndWindowTest {
    @Test
    void countsTheUsersFramesOverTheSpanThroughTheGapsBetweenThem() {
        NearEndWindow w = new NearEndWindow(200);
        boolean[] pattern = {false, true, true, true, false, true, true, true, true};
        for (boolean b : pattern) {
            w.add(20, b);
        }
        assertEquals(140, w.nearEndMillis(), 1e-9, "7 frames of 20 ms in the last 9");
        assertEquals(160, w.sinceFirstMillis(), 1e-9, "the first of them 8 frames back");
        w.add(20, false);
        w.add(20, false);
        assertEquals(140, w.nearEndMillis(), 1e-9, "the first frame that leaves the span was not the user's");
        w.add(20, false);
        assertEquals(120, w.nearEndMillis(), 1e-9, "now one that was leaves it");
        for (int i = 0; i < 10; i++) {
            w.add(20, false);
        }
        assertEquals(0, w.nearEndMillis(), 1e-9);
        assertEquals(0, w.sinceFirstMillis(), 1e-9);
    }

    @Test
    void framesOfAnyLengthCountByTheirDuration() {
        NearEndWindow w = new NearEndWindow(100);
        w.add(32, true);
        w.add(32, true);
        w.add(10, false);
        assertEquals(64, w.nearEndMillis(), 1e-9);
        w.add(64, false);
        assertEquals(32, w.nearEndMillis(), 1e-9, "the first 32 ms fell out of the 100 ms span");
        w.clear();
        assertEquals(0, w.nearEndMillis(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> new NearEndWindow(0));
    }

    @Test
    void givesTheLevelsOfTheUsersFramesStillInTheSpanOldestFirst() {
        NearEndWindow w = new NearEndWindow(60);
        w.add(20, true, -30);
        w.add(20, false, -50);
        w.add(20, true, -35);
        w.add(20, true, -33);
        java.util.List<double[]> seen = new java.util.ArrayList<>();
        w.forEachNearEnd((levelDbfs, millis) -> seen.add(new double[] {levelDbfs, millis}));
        assertEquals(2, seen.size(), "the -30 dBFS frame has left the 60 ms span, the -50 one was echo");
        assertEquals(-35, seen.get(0)[0], 1e-9);
        assertEquals(-33, seen.get(1)[0], 1e-9);
        assertEquals(20, seen.get(1)[1], 1e-9);
    }
}
