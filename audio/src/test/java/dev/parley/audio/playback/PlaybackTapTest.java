package dev.parley.audio.playback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LoopbackRoom;
import dev.parley.audio.PcmAudio;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sinks' playback tap hears exactly what goes to the device, and nothing of what a stop dropped. */
class PlaybackTapTest {
    /** A tap that keeps what it hears, and counts pieces and stops. */
    private static final class Recorder implements PlaybackTap {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final AtomicInteger pieces = new AtomicInteger();
        final AtomicInteger flushes = new AtomicInteger();
        volatile boolean stopped;
        final AtomicInteger afterStop = new AtomicInteger();

        @Override
        public synchronized void played(PcmAudio audio) {
            byte[] b = audio.toLittleEndianBytes();
            bytes.write(b, 0, b.length);
            pieces.incrementAndGet();
            if (stopped) {
                afterStop.incrementAndGet();
            }
        }

        @Override
        public void flushed() {
            flushes.incrementAndGet();
        }

        synchronized short[] samples() {
            byte[] b = bytes.toByteArray();
            return PcmAudio.fromLittleEndianBytes(b, 0, b.length, 16_000).samples();
        }
    }

    private static PcmAudio ramp(int millis) {
        short[] s = new short[16 * millis];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) ((i * 37) % 20_000 - 10_000);
        }
        return new PcmAudio(s, 16_000);
    }

    @Test
    void theSpeakerSinkTapGetsExactlyWhatWasHandedToTheDevice() throws Exception {
        LoopbackRoom room = new LoopbackRoom(new double[] {1}, 1, 30);
        PcmAudio audio = ramp(700);
        Recorder tap = new Recorder();
        try (SpeakerSink sink = SpeakerSink.onLine(room.speaker())) {
            sink.tap(tap);
            CountDownLatch played = new CountDownLatch(1);
            sink.play(audio);
            sink.mark(played::countDown);
            assertTrue(played.await(10, TimeUnit.SECONDS));
            assertArrayEquals(audio.samples(), tap.samples());
            assertEquals(audio.length(), sink.samplesWritten());
            assertEquals(35, tap.pieces.get(), "20 ms pieces");
        }
    }

    @Test
    void afterStopNowNothingDroppedReachesTheTap() throws Exception {
        LoopbackRoom room = new LoopbackRoom(new double[] {1}, 1, 30);
        PcmAudio audio = ramp(3000);
        Recorder tap = new Recorder();
        try (SpeakerSink sink = SpeakerSink.onLine(room.speaker())) {
            sink.tap(tap);
            CountDownLatch started = new CountDownLatch(1);
            sink.mark(started::countDown);
            sink.play(audio);
            sink.play(ramp(1000));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            // wait for some of the audio to be handed to the device (by the tap's own count, not a sleep)
            while (tap.pieces.get() < 10) {
                Thread.onSpinWait();
            }
            sink.stopNow();
            tap.stopped = true;
            long written = sink.samplesWritten();
            CountDownLatch drained = new CountDownLatch(1);
            sink.mark(drained::countDown);
            assertTrue(drained.await(10, TimeUnit.SECONDS));
            short[] heard = tap.samples();
            assertEquals(0, tap.afterStop.get(), "pieces reached the tap after stopNow returned");
            assertEquals(1, tap.flushes.get());
            assertTrue(heard.length < audio.length(), "the stop dropped the rest");
            assertEquals(written, heard.length, "the tap heard what the device was handed, nothing more");
            short[] prefix = java.util.Arrays.copyOf(audio.samples(), heard.length);
            assertArrayEquals(prefix, heard, "the tap heard the start of the audio in order");
            assertTrue(!sink.isPlaying());
        }
    }

    @Test
    void theWavFileSinkTapGetsWhatIsWritten(@TempDir Path dir) throws Exception {
        Recorder tap = new Recorder();
        PcmAudio audio = ramp(300);
        try (WavFileSink sink = new WavFileSink(dir.resolve("out.wav"), 16_000)) {
            sink.tap(tap);
            sink.play(audio);
            assertEquals(audio.length(), sink.samplesWritten());
        }
        assertArrayEquals(audio.samples(), tap.samples());
    }
}
