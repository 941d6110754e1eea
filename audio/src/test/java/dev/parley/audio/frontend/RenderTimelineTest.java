package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.audio.PcmAudio;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Where {@link RenderTimeline} lays the played reference on the capture's timeline. The echo canceller's filter is
 * the echo path at one lag: a reference that moves by a few samples against the capture throws it off (see the class
 * comment), so pieces the sink plays back to back must stay back to back.
 */
class RenderTimelineTest {
    private static final int RATE = AudioFrontEnd.SAMPLE_RATE;
    private static final long MS = 1_000_000L;

    /** Ramps 1, 2, 3, ...: every sample tells where it came from. */
    /** When the capture's clock starts, ns. */
    private static final long START = 1_000 * MS;

    /** A timeline whose first captured block (20 ms) came exactly on time, 20 ms after {@link #START}. */
    private static RenderTimeline capturing(AtomicLong clock) {
        RenderTimeline t = new RenderTimeline(RATE * 4, clock::get);
        clock.set(START + 20 * MS);
        t.captured(320);
        return t;
    }

    private static short[] ramp(int from, int n) {
        short[] s = new short[n];
        for (int i = 0; i < n; i++) {
            s[i] = (short) (from + i + 1);
        }
        return s;
    }

    @Test
    void piecesPlayedBackToBackStayBackToBackWhenTheCaptureClockIsRefined() {
        AtomicLong clock = new AtomicLong(1_000 * MS);
        RenderTimeline t = new RenderTimeline(RATE * 4, clock::get);
        // the first captured block comes 0.5 ms late (a scheduler's wake-up): t0 is taken 0.5 ms after the truth
        long start = clock.get();
        clock.set(start + 20 * MS + 500_000);
        t.captured(320);
        // the sink plays 20 ms pieces from 100 ms on the capture's clock, back to back by its own clock
        long playAt = start + 100 * MS;
        int piece = 320;
        short[] all = ramp(0, piece * 10);
        for (int p = 0; p < 10; p++) {
            if (p == 4) {
                // a later block comes exactly on time: t0 moves 0.5 ms (8 samples) earlier
                clock.set(start + 60 * MS);
                t.captured(60 * RATE / 1000);
            }
            t.add(new PcmAudio(Arrays.copyOfRange(all, p * piece, (p + 1) * piece), RATE),
                    playAt + (long) p * piece * 1_000_000_000L / RATE);
        }
        // by the first t0 the sound starts at 100 - 0.5 ms: 1592 samples in
        short[] taken = new short[piece * 10];
        t.take(1592, taken);
        assertArrayEquals(all, taken, "the reference moved against the capture where t0 was refined");
    }

    @Test
    void aPieceAfterAnUnderrunIsPlacedByTheClock() {
        AtomicLong clock = new AtomicLong(START);
        RenderTimeline t = capturing(clock);
        long start = START;
        short[] a = ramp(0, 320);
        short[] b = ramp(1000, 320);
        t.add(new PcmAudio(a, RATE), start + 100 * MS);
        // the sink ran dry for 30 ms and restarted its clock: the next piece sounds 30 ms after the first ended
        t.add(new PcmAudio(b, RATE), start + 150 * MS);
        short[] taken = new short[320];
        t.take(150 * RATE / 1000, taken);
        assertArrayEquals(b, taken);
        short[] gap = new short[480];
        t.take(120 * RATE / 1000, gap);
        assertEquals(0, Arrays.stream(toInts(gap)).filter(v -> v != 0).count(), "silence where nothing played");
    }

    @Test
    void afterAStopTheNextPieceIsPlacedByTheClock() {
        AtomicLong clock = new AtomicLong(START);
        RenderTimeline t = capturing(clock);
        long start = START;
        t.add(new PcmAudio(ramp(0, 320), RATE), start + 100 * MS);
        clock.set(start + 110 * MS);
        t.flush();                  // a stop 10 ms into the piece: the rest never sounded
        // the sink's clock was restarted by the stop; by chance its new piece starts where the old one would have ended
        short[] b = ramp(1000, 320);
        t.add(new PcmAudio(b, RATE), start + 120 * MS);
        short[] taken = new short[320];
        t.take(120 * RATE / 1000, taken);
        assertArrayEquals(b, taken);
        short[] cut = new short[160];
        t.take(110 * RATE / 1000, cut);
        assertEquals(0, Arrays.stream(toInts(cut)).filter(v -> v != 0).count(), "what the stop cut never sounded");
    }

    @Test
    void aRunMovedByItsOffsetIsReadThatFarBackAndTheRunBeforeItIsNot() {
        AtomicLong clock = new AtomicLong(START);
        RenderTimeline t = capturing(clock);
        long start = START;
        short[] a = ramp(0, 320);
        t.add(new PcmAudio(a, RATE), start + 100 * MS);
        long first = t.run();
        short[] b = ramp(1000, 640);
        t.add(new PcmAudio(b, RATE), start + 200 * MS);        // after a stop or idle: a new run
        assertEquals(first + 1, t.run());
        assertEquals(200 * RATE / 1000, t.runStart());
        t.offsetRun(first, 99);                                  // an old run: nothing moves
        t.offsetRun(t.run(), 5);                                 // the new run sounds 5 samples later than placed
        short[] taken = new short[320];
        t.take(200 * RATE / 1000 + 5, taken);
        assertArrayEquals(java.util.Arrays.copyOf(b, 320), taken);
        short[] before = new short[320];
        t.take(100 * RATE / 1000, before);
        assertArrayEquals(a, before, "the run before keeps its place");
    }

    private static int[] toInts(short[] s) {
        int[] r = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            r[i] = s[i];
        }
        return r;
    }
}
