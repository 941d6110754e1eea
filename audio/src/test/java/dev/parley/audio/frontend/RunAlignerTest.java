package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link RunAligner} measures each run's lag against the first's, in a synthetic room, and holds the filter meanwhile. */
class RunAlignerTest {
    private static short[] noise(int n, long seed) {
        Random r = new Random(seed);
        short[] s = new short[n];
        for (int i = 0; i < n; i++) {
            s[i] = (short) Math.round(3000 * r.nextGaussian());
        }
        return s;
    }

    /** The room's echo of {@code played}, its direct path {@code latency} samples late, with a reverberant tail. */
    private static short[] echo(short[] played, SyntheticRoom room) {
        double[] e = room.echo(played, 1.0);
        short[] out = new short[played.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(e[i])));
        }
        return out;
    }

    @Test
    void theLagOfAnEchoIsFoundToTheSample() {
        SyntheticRoom room = new SyntheticRoom(40, 300, 5);
        short[] played = noise(16_000, 1);
        short[] heard = echo(played, room);
        int direct = RunAligner.lag(played, heard, 0, RunAligner.FIRST_SEARCH);
        assertTrue(direct >= 640 && direct < 700, "the echo's lag in a room with 40 ms of latency: " + direct);
        // the same sound placed 22 samples late on the reference: the lag looks 22 samples shorter
        short[] late = new short[played.length];
        System.arraycopy(played, 0, late, 22, played.length - 22);
        assertEquals(direct - 22, RunAligner.lag(late, heard, direct - RunAligner.SEARCH, direct + RunAligner.SEARCH));
    }

    @Test
    void soundTheRoomDoesNotPlayBackHasNoLag() {
        assertEquals(-1, RunAligner.lag(noise(8000, 2), noise(8000 + 5120, 3), 0, RunAligner.FIRST_SEARCH));
    }

    @Test
    void aLaterRunThatLandedOffIsMovedBackAndTheFilterHoldsUntilThen() {
        SyntheticRoom room = new SyntheticRoom(40, 300, 5);
        RunAligner a = new RunAligner();
        short[] first = noise(20_000, 4);
        short[] heardFirst = echo(first, room);
        assertEquals(0, feed(a, 0, 0, first, heardFirst, 0));
        assertTrue(a.learntLag() > 0, "the first run sets the lag");
        assertFalse(a.holding());
        // a second run whose reference was placed 30 samples early: it sounds 30 samples later than placed
        short[] second = noise(20_000, 5);
        short[] heardSecond = echo(second, room);
        short[] early = new short[second.length];
        System.arraycopy(second, 30, early, 0, second.length - 30);
        long offset = feed(a, 1, 100_000, early, heardSecond, 100_000);
        assertEquals(30, offset);
    }

    /** Feeds a run frame by frame until the aligner answers; checks that it holds the filter while it measures. */
    private static long feed(RunAligner a, long run, long start, short[] reference, short[] capture, long position) {
        short[] r = new short[160];
        short[] c = new short[160];
        for (int f = 0; (f + 1) * 160 <= reference.length; f++) {
            System.arraycopy(reference, f * 160, r, 0, 160);
            System.arraycopy(capture, f * 160, c, 0, 160);
            long off = a.frame(run, start, position + f * 160L, r, c);
            if (f == 2 && a.learntLag() >= 0 && run > 0) {
                assertTrue(a.holding(), "the filter holds while a later run is measured");
            }
            if (off != 0) {
                assertFalse(a.holding());
                return off;
            }
        }
        return 0;
    }
}
