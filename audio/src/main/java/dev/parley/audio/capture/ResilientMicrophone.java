package dev.parley.audio.capture;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.device.AudioLines;
import dev.parley.audio.device.DeviceFault;
import dev.parley.audio.device.DeviceWatcher;
import dev.parley.audio.device.Outage;
import dev.parley.audio.device.RetryPolicy;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A microphone that survives its device: when the line cannot be opened (busy, absent: Java Sound's
 * {@code LineUnavailableException} or "No line matching") or stops delivering mid-turn (a short read, a closed line),
 * its watchers hear a {@link DeviceFault} once, {@link #read()} waits and opens the device again with a back-off, and
 * once it is back they hear it recovered and frames flow again. Only {@link #close()} ends it. The retries run on the
 * reading thread (the front end's), so an outage costs no thread of its own.
 */
public final class ResilientMicrophone implements AudioSource {
    private final MicrophoneSource.Options options;
    private final AudioLines lines;
    private final RetryPolicy retry;
    private final Outage outage;
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile MicrophoneSource current;
    private volatile boolean closed;
    private long delay;
    private long droppedBefore;

    private ResilientMicrophone(MicrophoneSource.Options options, AudioLines lines, RetryPolicy retry) {
        this.options = options;
        this.lines = lines;
        this.retry = retry;
        this.outage = new Outage(DeviceFault.Kind.MICROPHONE, AudioLines.describe(options.mixerName()));
    }

    /**
     * Opens the microphone if it can; if not (busy or absent at start), returns all the same and keeps trying, the
     * fault said to the watchers.
     */
    public static ResilientMicrophone open(MicrophoneSource.Options options, AudioLines lines, RetryPolicy retry) {
        ResilientMicrophone m = new ResilientMicrophone(options, lines, retry);
        m.tryOpen();
        return m;
    }

    @Override
    public int sampleRate() {
        return options.sampleRate();
    }

    @Override
    public void watch(DeviceWatcher watcher) {
        outage.watch(watcher);
    }

    /** The fault of the outage going on, or null while the microphone works. */
    public DeviceFault fault() {
        return outage.current();
    }

    @Override
    public PcmAudio read() throws IOException, InterruptedException {
        while (!closed) {
            MicrophoneSource m = current;
            if (m == null) {
                if (closing.await(delay, TimeUnit.MILLISECONDS)) {
                    break;
                }
                tryOpen();
                continue;
            }
            try {
                PcmAudio frame = m.read();
                if (frame != null) {
                    return frame;
                }
                if (!closed) {
                    lost(m, "the microphone (" + AudioLines.describe(options.mixerName()) + ") stopped delivering audio");
                }
            } catch (IOException e) {
                lost(m, Outage.problem(e));
            }
        }
        return null;
    }

    private synchronized void tryOpen() {
        if (closed || current != null) {
            return;
        }
        try {
            current = MicrophoneSource.open(options, lines);
            delay = 0;
            outage.works();
        } catch (IOException | RuntimeException e) {
            delay = retry.next(delay);
            outage.failed(Outage.problem(e), retry.maxMillis());
        }
    }

    private synchronized void lost(MicrophoneSource m, String problem) {
        if (current != m) {
            return;
        }
        current = null;
        droppedBefore += m.droppedFrames();
        m.close();
        delay = retry.next(0);
        outage.failed(problem, retry.maxMillis());
    }

    @Override
    public long droppedFrames() {
        MicrophoneSource m = current;
        return droppedBefore + (m == null ? 0 : m.droppedFrames());
    }

    @Override
    public void close() {
        MicrophoneSource m;
        synchronized (this) {
            closed = true;
            closing.countDown();
            m = current;
            current = null;
        }
        if (m != null) {
            m.close();
        }
    }
}
