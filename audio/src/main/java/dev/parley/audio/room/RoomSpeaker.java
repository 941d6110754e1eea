package dev.parley.audio.room;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.Resampler;
import dev.parley.audio.playback.AudioSink;
import dev.parley.audio.playback.DueCallbacks;
import dev.parley.audio.playback.PlaybackTap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The loudspeaker of a {@link VirtualRoom}: like {@code SpeakerSink}, a writer thread plays queued
 * chunks in order in {@value VirtualRoom#FRAME_MILLIS} ms pieces, at most 60 ms ahead of the room's
 * clock (resampled to the room's rate); {@link #stopNow()} drops the queue and what was not played yet. Each
 * piece goes to the {@link PlaybackTap} when it is placed, with the time it starts sounding (the echo
 * canceller's reference); {@link #pause()} holds the writer before its next piece. As in {@code SpeakerSink}, a reply's
 * stream runs on sample for sample: a {@link #mark} runs when the room's clock reaches it while the writer goes on, and a
 * held reply is filled with silence (each new run of playback is measured against the echo canceller's lag before the
 * loop listens over it again).
 */
final class RoomSpeaker implements AudioSink {
    private sealed interface Item permits Chunk, Marker, Shutdown {
    }

    private record Chunk(PcmAudio audio, long epoch) implements Item {
    }

    private record Marker(Runnable callback, long epoch) implements Item {
    }

    private record Shutdown() implements Item {
    }

    /** Markers whose audio is still sounding. */
    private final DueCallbacks due = new DueCallbacks();
    /** What a held reply is filled with, a piece at a time. */
    private static final float[] SILENCE = new float[VirtualRoom.FRAME];
    private static final PcmAudio QUIET = new PcmAudio(new short[VirtualRoom.FRAME], VirtualRoom.RATE);

    private final VirtualRoom room;
    private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>(256);
    private final Thread writer;
    private volatile long epoch;
    private volatile long busyEpoch = -1;
    private volatile boolean closed;
    private volatile long written;
    private Resampler resampler;
    private final Object resamplerLock = new Object();
    private final Object pauseLock = new Object();
    private static final long IDLE_POLL_NANOS = 200_000_000L;
    private volatile PlaybackTap tap = PlaybackTap.NONE;
    private volatile boolean paused;

    RoomSpeaker(VirtualRoom room) {
        this.room = room;
        writer = Thread.ofPlatform().name("parley-room-speaker").daemon().start(this::run);
    }

    @Override
    public void play(PcmAudio audio) throws InterruptedException {
        ensureOpen();
        if (audio.length() > 0) {
            queue.put(new Chunk(audio, epoch));
        }
    }

    @Override
    public void mark(Runnable callback) throws InterruptedException {
        ensureOpen();
        queue.put(new Marker(callback, epoch));
    }

    @Override
    public void tap(PlaybackTap t) {
        tap = t == null ? PlaybackTap.NONE : t;
    }

    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        synchronized (pauseLock) {
            paused = false;
            pauseLock.notifyAll();
        }
    }

    @Override
    public boolean isPaused() {
        return paused;
    }

    @Override
    public void stopNow() {
        List<Item> dropped = new ArrayList<>();
        epoch++;
        queue.drainTo(dropped);
        room.flush();
        tap.flushed();
        resume();
        synchronized (resamplerLock) {
            if (resampler != null) {
                resampler.reset();
            }
        }
        for (Runnable r : due.drain()) {
            dropped.add(new Marker(r, -1));
        }
        for (Item i : dropped) {
            if (i instanceof Marker m) {
                m.callback().run();
            }
        }
    }

    /** A marker: runs once the room has played what was placed before it (at once if that has, or it was dropped). */
    private void schedule(Marker m) {
        if (m.epoch() == epoch && room.sounding()) {
            due.add(m.callback(), room.nanosAt(room.writeEnd()));
            return;
        }
        m.callback().run();
    }

    @Override
    public boolean isPlaying() {
        return busyEpoch == epoch || !queue.isEmpty() || room.sounding();
    }

    @Override
    public long samplesWritten() {
        return written;
    }

    private void run() {
        try {
            while (true) {
                Item item = queue.poll(due.untilDue(IDLE_POLL_NANOS), TimeUnit.NANOSECONDS);
                due.runDue();
                if (item == null) {
                    if (closed) {
                        return;
                    }
                    continue;
                }
                switch (item) {
                    case Shutdown s -> {
                        return;
                    }
                    case Marker m -> schedule(m);
                    case Chunk c -> {
                        if (c.epoch() == epoch) {
                            busyEpoch = c.epoch();
                            try {
                                write(c);
                            } finally {
                                busyEpoch = -1;
                            }
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void write(Chunk c) throws InterruptedException {
        PcmAudio a = c.audio();
        short[] s;
        synchronized (resamplerLock) {
            if (a.sampleRate() != VirtualRoom.RATE) {
                if (resampler == null || resampler.inRate() != a.sampleRate()) {
                    resampler = new Resampler(a.sampleRate(), VirtualRoom.RATE);
                }
                s = resampler.process(a.samples(), 0, a.length());
            } else {
                s = a.samples();
            }
        }
        for (int off = 0; off < s.length; off += VirtualRoom.FRAME) {
            int n = Math.min(VirtualRoom.FRAME, s.length - off);
            float[] piece = new float[n];
            for (int i = 0; i < n; i++) {
                piece[i] = s[off + i] / 32768f;
            }
            due.runDue();
            while (paused && c.epoch() == epoch && !closed) {
                if (room.sounding()) {
                    // held: the stream goes on with silence, so that it goes on sample for sample when the reply resumes
                    if (!room.place(SILENCE, () -> c.epoch() == epoch && paused, at -> tap.played(QUIET, at))) {
                        continue;
                    }
                } else {
                    synchronized (pauseLock) {
                        if (paused) {
                            pauseLock.wait(Math.max(1, due.untilDue(IDLE_POLL_NANOS) / 1_000_000));
                        }
                    }
                }
                due.runDue();
            }
            PcmAudio pcm = new PcmAudio(Arrays.copyOfRange(s, off, off + n), VirtualRoom.RATE);
            if (!room.place(piece, () -> c.epoch() == epoch, startsAt -> tap.played(pcm, startsAt))) {
                return;
            }
            written += n;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the room's speaker is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopNow();
        queue.offer(new Shutdown());
        if (Thread.currentThread() != writer) {
            try {
                writer.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
