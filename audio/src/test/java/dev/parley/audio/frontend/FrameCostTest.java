package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The front end's cost per 10 ms frame: a call's time shared out over its frames, percentiles by nearest rank. */
class FrameCostTest {
    @Test
    void aCallsTimeIsSharedOverTheFramesItPutOutAndPercentilesAreNearestRank() {
        FrameCost c = new FrameCost();
        assertEquals(0, c.percentileMicros(0.5), "nothing counted");
        c.add(600_000, 2);            // two frames of 300 us
        c.add(1_000_000, 0);          // no frame: not counted here (the caller carries it to the next frame)
        for (int i = 0; i < 7; i++) {
            c.add(100_000, 1);        // seven of 100 us
        }
        c.add(50_000_000, 1);         // one past the histogram's top: 50 ms
        assertEquals(10, c.frames());
        assertEquals(105, c.percentileMicros(0.5), "the middle of the 100-110 us bucket");
        assertEquals(305, c.percentileMicros(0.9));
        assertEquals(FrameCost.TOP_MICROS, c.percentileMicros(1.0), "the longest reads as the top");
        FrameCost both = c.plus(c);
        assertEquals(20, both.frames());
        assertEquals(10, c.frames(), "plus leaves its operands alone");
        FrameCost snapshot = c.copy();
        c.add(100_000, 1);
        assertEquals(10, snapshot.frames(), "a copy is a snapshot");
        assertThrows(IllegalArgumentException.class, () -> c.percentileMicros(0));
    }
}
