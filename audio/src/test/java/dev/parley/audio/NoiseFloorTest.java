package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class NoiseFloorTest {
    @Test
    void aVoiceStandsOutOfASteadyBedWithinASyllable() {
        NoiseFloor f = new NoiseFloor(6000);
        for (int i = 0; i < 300; i++) {
            f.add(-40, 20, true);
        }
        assertEquals(-40, f.floorDbfs(), 0.5);
        assertEquals(0, f.aboveFloorDb(), 0.5);
        int millis = 0;
        while (f.aboveFloorDb() < 6) {
            f.add(-28, 20, true);
            millis += 20;
        }
        assertTrue(millis <= 120, "a voice 12 dB above the bed stood out after " + millis + " ms");
        assertEquals(-40, f.floorDbfs(), 0.5, "a syllable does not move the median");
    }

    @Test
    void aFluctuatingBedSitsAtItsMedianAndRarelyStandsOut() {
        NoiseFloor f = new NoiseFloor(6000);
        Random r = new Random(5);
        int standing = 0;
        int frames = 0;
        for (int i = 0; i < 1000; i++) {
            f.add(-38 + 4 * r.nextGaussian(), 20, true);     // babble: +-4 dB frame to frame
            if (i >= 100) {
                frames++;
                standing += f.aboveFloorDb() >= 6 ? 1 : 0;
            }
        }
        assertEquals(-38, f.floorDbfs(), 1.0);
        assertTrue(standing < frames / 50, standing + " of " + frames + " frames of babble stood out");
    }

    @Test
    void theUsersOwnTurnsDoNotRaiseTheFloorAndNothingGatesBeforeASecondOfHistory() {
        NoiseFloor f = new NoiseFloor(6000);
        f.add(-50, 500, true);
        assertEquals(Double.POSITIVE_INFINITY, f.aboveFloorDb(), "half a second known: nothing gated yet");
        f.add(-50, 600, true);
        for (int i = 0; i < 500; i++) {
            f.add(-20, 20, false);      // ten seconds of the user's turns
        }
        assertEquals(-50, f.floorDbfs(), 0.5);
        assertTrue(f.aboveFloorDb() > 25, "the short-term level follows every frame: " + f.aboveFloorDb());
    }

    @Test
    void theWindowForgetsAndFramesCountByDuration() {
        NoiseFloor f = new NoiseFloor(2000);
        f.add(-60, 1500, true);
        f.add(-30, 400, true);
        assertEquals(-60, f.floorDbfs(), 0.5, "1.5 s at -60 against 0.4 s at -30");
        f.add(-30, 2500, true);
        assertEquals(-30, f.floorDbfs(), 0.5, "the -60 dB stretch left the 2 s window");
        f.add(-60, 100, true);
        assertEquals(-30, f.floorDbfs(), 0.5, "only the last 2 s count: 100 ms at -60 against 2.5 s at -30");
        assertThrows(IllegalArgumentException.class, () -> new NoiseFloor(0));
    }

    @Test
    void theRecentLevelFallsToTheRoomsWithinATenthOfASecondWhereTheShortTermOneTakesLonger() {
        NoiseFloor f = new NoiseFloor(6000);
        f.add(-50, 2000, true);
        for (int i = 0; i < 50; i++) {
            f.add(-30, 20, false);      // a second of the user's voice, 20 dB above the room
        }
        assertEquals(-30, f.recentDbfs(), 0.01);
        int recentMillis = 0;
        int shortMillis = 0;
        for (int t = 20; t <= 1000; t += 20) {
            f.add(-50, 20, true);
            if (recentMillis == 0 && f.recentDbfs() - f.floorDbfs() < 6) {
                recentMillis = t;
            }
            if (shortMillis == 0 && f.aboveFloorDb() < 6) {
                shortMillis = t;
            }
        }
        assertTrue(recentMillis > 0 && recentMillis <= 100, "the recent level fell under 6 dB above the room after "
                + recentMillis + " ms");
        assertTrue(shortMillis > 2 * recentMillis, "the short-term level took " + shortMillis + " ms, the recent "
                + recentMillis);
        assertEquals(-50, f.recentDbfs(), 0.01, "a second of the room: the recent level is the room's");
    }

    @Test
    void percentilesOfTheWindowTellABedsPeaksFromItsMedian() {
        NoiseFloor f = new NoiseFloor(6000);
        assertEquals(LevelMeter.SILENCE_DBFS, f.percentileDbfs(0.95), "nothing heard yet");
        for (int i = 0; i < 100; i++) {
            f.add(i < 90 ? -50 : -40, 20, true);       // 90% of the time at -50, 10% at -40
        }
        assertEquals(-50, f.percentileDbfs(0.5), 0.5);
        assertEquals(f.floorDbfs(), f.percentileDbfs(0.5));
        assertEquals(-50, f.percentileDbfs(0.85), 0.5);
        assertEquals(-40, f.percentileDbfs(0.95), 0.5);
        assertThrows(IllegalArgumentException.class, () -> f.percentileDbfs(1.0));
        assertThrows(IllegalArgumentException.class, () -> f.percentileDbfs(0));
    }

    @Test
    void framesFoundLaterToBeTheRoomsCountTowardsTheFloorButNotTheRecentLevel() {
        NoiseFloor f = new NoiseFloor(6000, 500);
        for (int i = 0; i < 10; i++) {
            f.add(-50, 20, true);
        }
        f.add(-20, 20, false);
        double recent = f.recentDbfs();
        double shortTerm = f.shortTermDbfs();
        assertEquals(0, f.historyMillis(), 0.01, "the lag holds the room's first 200 ms back");
        for (int i = 0; i < 60; i++) {
            f.addLater(-30, 20);
        }
        assertEquals(1200, f.historyMillis(), 0.01, "counted at once, past the lag");
        assertEquals(-30, f.floorDbfs(), 0.5);
        assertEquals(recent, f.recentDbfs(), 1e-9, "the recent level is what was heard last");
        assertEquals(shortTerm, f.shortTermDbfs(), 1e-9);
    }
}
