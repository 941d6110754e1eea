package dev.parley.audio.capture;

import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Delivers another source's frames no faster than real time, as a microphone would: for benchmarks
 * that play recorded speech into the voice loop and want true speech-end-to-audio latencies
 * (including the end-of-turn silence), and for demos without a sound card.
 */
public final class RealTimeSource implements AudioSource {
    private final AudioSource inner;
    private long startNanos = -1;
    private long samplesDelivered;

    public RealTimeSource(AudioSource inner) {
        this.inner = inner;
    }

    @Override
    public int sampleRate() {
        return inner.sampleRate();
    }

    @Override
    public PcmAudio read() throws IOException, InterruptedException {
        PcmAudio frame = inner.read();
        if (frame == null) {
            return null;
        }
        long now = System.nanoTime();
        if (startNanos < 0) {
            startNanos = now;
        }
        samplesDelivered += frame.length();
        // a frame is available once its last sample has been "recorded"
        long due = startNanos + samplesDelivered * 1_000_000_000L / inner.sampleRate();
        if (due > now) {
            TimeUnit.NANOSECONDS.sleep(due - now);
        }
        return frame;
    }

    @Override
    public long droppedFrames() {
        return inner.droppedFrames();
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
