package dev.parley.audio.playback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LoopbackRoom;
import dev.parley.audio.PcmAudio;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Within a reply the {@link SpeakerSink}'s stream runs on sample for sample: between sentences (a marker) and while
 * held (paused). Each time a stream stops and starts again it lands a little off the clock, and the echo canceller's
 * reference with it (see the class comment of {@link SpeakerSink}).
 */
class StreamContinuityTest {
    private static final int RATE = 16_000;

    /** What the tap heard: each piece with the time it starts sounding by the sink's clock. */
    private static final class Timed implements PlaybackTap {
        record Piece(short[] samples, long startsAt) {
        }

        final List<Piece> pieces = new ArrayList<>();

        @Override
        public synchronized void played(PcmAudio audio) {
            throw new AssertionError("the speaker sink gives each piece its time");
        }

        @Override
        public synchronized void played(PcmAudio audio, long startsAtNanos) {
            pieces.add(new Piece(audio.samples(), startsAtNanos));
        }

        synchronized List<Piece> copy() {
            return List.copyOf(pieces);
        }

        synchronized int count() {
            return pieces.size();
        }

        /** Asserts that each piece starts where the one before it ended (to the sink's nanosecond rounding). */
        void assertBackToBack() {
            List<Piece> p = copy();
            for (int i = 1; i < p.size(); i++) {
                long end = p.get(i - 1).startsAt() + p.get(i - 1).samples().length * 1_000_000_000L / RATE;
                long gap = p.get(i).startsAt() - end;
                assertTrue(Math.abs(gap) <= 1_000, "piece " + i + " of " + p.size() + " starts " + gap
                        + " ns after the one before it ended: the stream stopped and started again");
            }
        }
    }

    /** Waits, 5 s at most, until the tap has had {@code n} pieces. */
    private static void awaitPieces(Timed tap, int n, String what) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (tap.count() < n) {
            assertTrue(System.nanoTime() < deadline, "waited 5 s for " + what + ": " + tap.count() + " pieces of " + n);
            Thread.onSpinWait();
        }
    }

    private static PcmAudio ramp(int millis, int seed) {
        short[] s = new short[RATE / 1000 * millis];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) (((i + seed) * 37) % 20_000 - 10_000);
        }
        return new PcmAudio(s, RATE);
    }

    private static short[] joined(List<Timed.Piece> pieces, boolean silent) {
        List<PcmAudio> parts = new ArrayList<>();
        for (Timed.Piece p : pieces) {
            boolean zero = true;
            for (short v : p.samples()) {
                zero &= v == 0;
            }
            if (zero == silent) {
                parts.add(new PcmAudio(p.samples(), RATE));
            }
        }
        return PcmAudio.join(parts, RATE).samples();
    }

    @Test
    void aMarkerBetweenSentencesRunsOnTimeWithoutStoppingTheStream() throws Exception {
        LoopbackRoom room = new LoopbackRoom(new double[] {1}, 1, 30);
        PcmAudio first = ramp(400, 1);
        PcmAudio second = ramp(400, 7);
        Timed tap = new Timed();
        try (SpeakerSink sink = SpeakerSink.onLine(room.speaker())) {
            sink.tap(tap);
            AtomicLong secondStarts = new AtomicLong();
            CountDownLatch done = new CountDownLatch(1);
            sink.play(first);
            sink.mark(() -> secondStarts.set(System.nanoTime()));
            sink.play(second);
            sink.mark(done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS));
            tap.assertBackToBack();
            List<Timed.Piece> p = tap.copy();
            assertEquals(40, p.size(), "20 ms pieces");
            long secondStartsAt = p.get(20).startsAt();
            assertTrue(secondStarts.get() >= secondStartsAt, "the marker ran "
                    + (secondStartsAt - secondStarts.get()) / 1e6 + " ms before the second sentence sounded");
            short[] all = PcmAudio.join(List.of(first, second), RATE).samples();
            assertArrayEquals(all, joined(p, false));
        }
    }

    @Test
    void whileHeldTheStreamGoesOnWithSilenceAndTheReplyResumesRightBehindIt() throws Exception {
        LoopbackRoom room = new LoopbackRoom(new double[] {1}, 1, 30);
        PcmAudio reply = ramp(1200, 3);
        Timed tap = new Timed();
        try (SpeakerSink sink = SpeakerSink.onLine(room.speaker())) {
            sink.tap(tap);
            CountDownLatch done = new CountDownLatch(1);
            sink.play(reply);
            sink.mark(done::countDown);
            awaitPieces(tap, 10, "the reply to start");
            sink.pause();
            int atPause = tap.count();
            awaitPieces(tap, atPause + 10, "the held stream to go on: ten more pieces, silent ones");
            assertTrue(sink.isPlaying(), "a held reply is still playing");
            sink.resume();
            assertTrue(done.await(10, TimeUnit.SECONDS));
            tap.assertBackToBack();
            List<Timed.Piece> p = tap.copy();
            assertArrayEquals(reply.samples(), joined(p, false), "the whole reply, in order");
            assertTrue(joined(p, true).length >= 320 * 8, "silence while held: " + joined(p, true).length);
            assertEquals(reply.length(), sink.samplesWritten(), "silence is not counted as audio played");
        }
    }
}
