package dev.parley.audio.playback;

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
 * A speaker that survives its device: when the line cannot be opened or stops taking audio mid-reply (a short write,
 * a closed line), its watchers hear a {@link DeviceFault} once and a thread of its own ({@code parley-speaker-retry},
 * only during an outage) opens the device again with a back-off. Meanwhile audio is dropped and every
 * {@link #mark} callback runs at once, so replies go on as text (their turns finish and keep their text) and the
 * loop never waits for a speaker that is not there. Once the device is back the watchers hear it recovered and the
 * next audio plays.
 */
public final class ResilientSpeaker implements AudioSink {
    private final String mixerName;
    private final int sampleRate;
    private final AudioLines lines;
    private final RetryPolicy retry;
    private final Outage outage;
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile SpeakerSink current;
    private volatile PlaybackTap tap = PlaybackTap.NONE;
    private volatile boolean closed;
    private long samplesBefore;
    private Thread retrier;

    private ResilientSpeaker(String mixerName, int sampleRate, AudioLines lines, RetryPolicy retry) {
        this.mixerName = mixerName;
        this.sampleRate = sampleRate;
        this.lines = lines;
        this.retry = retry;
        this.outage = new Outage(DeviceFault.Kind.SPEAKER, AudioLines.describe(mixerName));
    }

    /** Opens the speaker if it can; if not (busy or absent at start), returns all the same and keeps trying. */
    public static ResilientSpeaker open(String mixerName, int sampleRate, AudioLines lines, RetryPolicy retry) {
        ResilientSpeaker s = new ResilientSpeaker(mixerName, sampleRate, lines, retry);
        synchronized (s) {
            if (!s.tryOpen()) {
                s.startRetrying();
            }
        }
        return s;
    }

    /** The fault of the outage going on, or null while the speaker works. */
    public DeviceFault fault() {
        return outage.current();
    }

    @Override
    public void watch(DeviceWatcher watcher) {
        outage.watch(watcher);
    }

    /** Opens a sink; true if it works now. Called holding the lock. */
    private boolean tryOpen(long[] delay) {
        try {
            SpeakerSink s = SpeakerSink.open(mixerName, sampleRate, lines);
            if (!s.takesAudio()) {
                s.close();
                throw new IOException("the speaker (" + AudioLines.describe(mixerName)
                        + ") opened but takes no audio: it is disconnected or taken by another program");
            }
            s.tap(tap);
            current = s;
            s.onFailure(e -> lost(s, e));
            if (current == s) {
                outage.works();
                return true;
            }
            return false;
        } catch (IOException | RuntimeException e) {
            delay[0] = retry.next(delay[0]);
            outage.failed(Outage.problem(e), retry.maxMillis());
            return false;
        }
    }

    private boolean tryOpen() {
        return tryOpen(new long[1]);
    }

    private void startRetrying() {
        if (closed || (retrier != null && retrier.isAlive())) {
            return;
        }
        retrier = Thread.ofPlatform().name("parley-speaker-retry").daemon().start(() -> {
            long[] delay = {retry.firstMillis()};
            try {
                while (!closing.await(delay[0], TimeUnit.MILLISECONDS)) {
                    synchronized (this) {
                        if (closed || current != null || tryOpen(delay)) {
                            return;
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** On the dead sink's writer thread: drop it (its markers run), say so, try again in the background. */
    private void lost(SpeakerSink s, IOException e) {
        synchronized (this) {
            if (current != s) {
                return;
            }
            current = null;
            samplesBefore += s.samplesWritten();
        }
        tap.flushed();                       // the echo reference stops with the sound
        outage.failed(Outage.problem(e), retry.maxMillis());
        Thread.ofPlatform().name("parley-speaker-close").daemon().start(() -> {
            s.close();                       // not on its own writer thread, which close() joins
            synchronized (this) {
                startRetrying();
            }
        });
    }

    @Override
    public void play(PcmAudio audio) throws InterruptedException {
        SpeakerSink s = current;
        if (s != null) {
            try {
                s.play(audio);
            } catch (IllegalStateException e) {
                // closed by a failure between our read of current and the call: the audio is dropped
            }
        }
    }

    @Override
    public void mark(Runnable callback) throws InterruptedException {
        SpeakerSink s = current;
        if (s == null) {
            callback.run();
            return;
        }
        try {
            s.mark(callback);
        } catch (IllegalStateException e) {
            callback.run();
        }
    }

    @Override
    public void stopNow() {
        SpeakerSink s = current;
        if (s != null) {
            s.stopNow();
        }
    }

    @Override
    public boolean isPlaying() {
        SpeakerSink s = current;
        return s != null && s.isPlaying();
    }

    @Override
    public long samplesWritten() {
        SpeakerSink s = current;
        return samplesBefore + (s == null ? 0 : s.samplesWritten());
    }

    @Override
    public void tap(PlaybackTap tap) {
        this.tap = tap == null ? PlaybackTap.NONE : tap;
        SpeakerSink s = current;
        if (s != null) {
            s.tap(this.tap);
        }
    }

    @Override
    public void pause() {
        SpeakerSink s = current;
        if (s != null) {
            s.pause();
        }
    }

    @Override
    public void resume() {
        SpeakerSink s = current;
        if (s != null) {
            s.resume();
        }
    }

    @Override
    public boolean isPaused() {
        SpeakerSink s = current;
        return s != null && s.isPaused();
    }

    @Override
    public void close() {
        SpeakerSink s;
        Thread r;
        synchronized (this) {
            closed = true;
            closing.countDown();
            s = current;
            current = null;
            r = retrier;
        }
        if (s != null) {
            s.close();
        }
        if (r != null) {
            try {
                r.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
