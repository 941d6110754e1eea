package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.playback.SpeakerSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** SpeakerSink on the virtual ALSA device: order, markers, and the barge-in stop. */
class SpeakerSinkDeviceTest {
    private static PcmAudio tone(int hz, int millis, int rate) {
        short[] s = new short[rate * millis / 1000];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) Math.round(8000 * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return new PcmAudio(s, rate);
    }

    @Test
    void chunksPlayInOrderWithoutGapsAndMarkersFollowThem() throws Exception {
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            PcmAudio a = tone(300, 200, 48_000);
            PcmAudio b = tone(500, 300, 48_000);
            PcmAudio c = tone(700, 100, 16_000);          // another rate: resampled to the device's
            List<String> order = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            long written;
            try (SpeakerSink sink = SpeakerSink.open(null, 48_000)) {
                assertEquals(48_000, sink.sampleRate());
                sink.mark(() -> order.add("start"));
                sink.play(a);
                sink.mark(() -> order.add("after a"));
                sink.play(b);
                sink.play(c);
                sink.mark(() -> {
                    order.add("end");
                    done.countDown();
                });
                assertTrue(done.await(30, TimeUnit.SECONDS));
                assertFalse(sink.isPlaying());
                assertEquals(List.of("start", "after a", "end"), order);
                written = sink.samplesWritten();
            }
            // ALSA hands the last buffer to the file when the line closes
            PcmAudio played = device.played(48_000);
            assertEquals(written, played.length());
            assertEquals(a, played.slice(0, a.length()));
            assertEquals(b, played.slice(a.length(), a.length() + b.length()));
            assertEquals(4800, played.length() - a.length() - b.length(), 60);
        }
    }

    @Test
    void stopNowDropsTheQueueAndRunsDroppedMarkers() throws Exception {
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            try (SpeakerSink sink = SpeakerSink.open(null, 48_000)) {
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch dropped = new CountDownLatch(1);
                sink.mark(started::countDown);
                for (int i = 0; i < 50; i++) {
                    sink.play(tone(400, 100, 48_000));     // 5 s queued
                }
                sink.mark(dropped::countDown);
                assertTrue(started.await(30, TimeUnit.SECONDS));
                assertTrue(sink.isPlaying());
                long t0 = System.nanoTime();
                sink.stopNow();
                long stopNanos = System.nanoTime() - t0;
                long atStop = sink.samplesWritten();
                assertFalse(sink.isPlaying());
                assertEquals(0, dropped.getCount(), "the dropped marker ran");
                System.out.printf("SpeakerSink.stopNow took %.2f ms; %d of 240000 samples had been written%n",
                        stopNanos / 1e6, atStop);
                assertTrue(atStop < 240_000 / 2, "stopped early: " + atStop);
                // the sink keeps working after a stop
                CountDownLatch again = new CountDownLatch(1);
                sink.play(tone(600, 100, 48_000));
                sink.mark(again::countDown);
                assertTrue(again.await(30, TimeUnit.SECONDS));
                assertTrue(sink.samplesWritten() >= atStop + 4800 - 960, "played after the stop");
            }
        }
    }
}
