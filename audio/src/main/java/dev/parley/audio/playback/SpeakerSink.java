package dev.parley.audio.playback;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.Resampler;
import dev.parley.audio.device.AudioLines;
import dev.parley.audio.device.JavaSoundLines;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.LineUnavailableException;
import javax.sound.sampled.Mixer;
import javax.sound.sampled.SourceDataLine;

/**
 * Plays audio through a Java Sound {@link SourceDataLine}, opened once and kept open. A writer
 * thread takes chunks from a queue in order (so sentences neither overlap nor leave gaps) and writes
 * them in {@value #PIECE_MILLIS} ms pieces, never more than {@value #LEAD_MILLIS} ms ahead of a
 * real-time clock: devices with deep buffers (or none, like a file-backed ALSA device) then still
 * stop within a piece when {@link #stopNow()} flushes the line and the queue. Each piece goes to the
 * {@link PlaybackTap} as it is handed to the line (the echo canceller's reference); {@link #pause()} holds the
 * writer before its next piece.
 *
 * <p>Within a reply the stream never runs dry on the sink's account: a {@link #mark} runs its callback when the clock
 * reaches it while the writer goes on with what follows, and while paused the writer keeps the stream going with
 * silence. A stream that stops and starts again lands a little later or sooner than the clock says each time (a
 * scheduling delay, a device's restart), and the echo canceller's reference with it: measured in {@code
 * FullDuplexPipelineTest}, where each sentence's marker used to wait for the one before to play out, the echo's lag
 * against the reference moved by 1-8 samples at every sentence (661, 665, 659, 651, 649 ...), the canceller's filter
 * was off for 100-300 ms after each move, and the echo came through at 0-5 dB of reduction there; now it stays at one
 * lag over a whole reply. A reply after a stop (its flush empties the device) or after idle still starts the stream
 * anew, and lands off by as much (22 samples in one run).
 */
public final class SpeakerSink implements AudioSink {
    static final int PIECE_MILLIS = 20;
    static final int LEAD_MILLIS = 60;

    private sealed interface Item permits Chunk, Marker, Shutdown {
    }

    private record Chunk(PcmAudio audio, long epoch) implements Item {
    }

    private record Marker(Runnable callback, long epoch) implements Item {
    }

    private record Shutdown() implements Item {
    }

    private final SourceDataLine line;
    private final int sampleRate;
    private final LinkedBlockingQueue<Item> queue;
    private final Thread writer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private volatile long epoch;
    private volatile boolean closed;
    private volatile long busyEpoch = -1;   // epoch of the chunk the writer is inside, or -1
    private long clockStart;                // nanoTime when the current run of audio started
    private long clockFrames;               // frames written since clockStart
    private volatile long totalFrames;
    private volatile PlaybackTap tap = PlaybackTap.NONE;
    private volatile boolean paused;
    private Resampler resampler;
    private volatile String device = "the output line";
    private volatile Consumer<IOException> onFailure = e -> {
    };
    private volatile IOException failure;
    /** Markers whose audio is still sounding. */
    private final DueCallbacks due = new DueCallbacks();
    private static final long IDLE_POLL_NANOS = 200_000_000L;

    private SpeakerSink(SourceDataLine line, int queueChunks) {
        this.line = line;
        this.sampleRate = Math.round(line.getFormat().getSampleRate());
        this.queue = new LinkedBlockingQueue<>(queueChunks);
        line.start();
        writer = Thread.ofPlatform().name("parley-playback").daemon().start(this::run);
    }

    /**
     * Opens the output device ({@code mixerName}, or the default when null) for 16-bit mono audio at
     * {@code sampleRate} (the synthesizer's rate); audio at other rates is resampled.
     */
    public static SpeakerSink open(String mixerName, int sampleRate) throws IOException {
        return open(mixerName, sampleRate, new JavaSoundLines());
    }

    /** {@link #open(String, int)} on a line from {@code lines}. */
    public static SpeakerSink open(String mixerName, int sampleRate, AudioLines lines) throws IOException {
        Exception last = null;
        for (int rate : new int[] {sampleRate, 48_000, 44_100, 16_000}) {
            AudioFormat f = new AudioFormat(rate, 16, 1, true, false);
            try {
                SourceDataLine l = lines.openPlayback(mixerName, f, rate / 10 * 2);     // 100 ms device buffer
                SpeakerSink sink = new SpeakerSink(l, 256);
                sink.device = AudioLines.describe(mixerName);
                return sink;
            } catch (LineUnavailableException e) {
                // the device itself refused (busy, gone): another format would fail alike, or open halfway through
                // the list as the device comes back, in a format chosen by accident
                last = e;
                break;
            } catch (IllegalArgumentException | SecurityException e) {
                last = e;                // no line of this format: try the next
            }
        }
        throw new IOException("cannot play on " + AudioLines.describe(mixerName)
                + ": expected a 16-bit mono output line but " + (last == null ? "found none" : "got: " + last.getMessage()), last);
    }

    /**
     * Plays on {@code line}, already opened for 16-bit mono PCM by the caller (a device opened some other way, or a
     * simulated one in tests); the sink starts it and closes it on {@link #close()}.
     */
    public static SpeakerSink onLine(SourceDataLine line) {
        AudioFormat f = line.getFormat();
        if (!line.isOpen() || f.getChannels() != 1 || f.getSampleSizeInBits() != 16 || f.isBigEndian()
                || f.getEncoding() != AudioFormat.Encoding.PCM_SIGNED) {
            throw new IllegalArgumentException("expected an open 16-bit little-endian mono PCM line but found "
                    + (line.isOpen() ? f : "a closed line"));
        }
        return new SpeakerSink(line, 256);
    }

    /** Names of the mixers that can play audio (for a device chooser). */
    public static List<String> playbackDevices() {
        List<String> names = new ArrayList<>();
        for (Mixer.Info info : AudioSystem.getMixerInfo()) {
            if (AudioSystem.getMixer(info).getSourceLineInfo().length > 0) {
                names.add(info.getName());
            }
        }
        return names;
    }

    /** The device's sample rate. */
    public int sampleRate() {
        return sampleRate;
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
    public void tap(PlaybackTap tap) {
        this.tap = tap == null ? PlaybackTap.NONE : tap;
    }

    @Override
    public void pause() {
        lock.lock();
        try {
            paused = true;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void resume() {
        lock.lock();
        try {
            paused = false;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isPaused() {
        return paused;
    }

    @Override
    public void stopNow() {
        List<Item> dropped = new ArrayList<>();
        lock.lock();
        try {
            epoch++;
            paused = false;
            queue.drainTo(dropped);
            for (Runnable r : due.drain()) {
                dropped.add(new Marker(r, -1));
            }
            line.stop();
            line.flush();
            line.start();
            clockFrames = 0;
            clockStart = System.nanoTime();
            if (resampler != null) {
                resampler.reset();
            }
            tap.flushed();
            wake.signalAll();
        } finally {
            lock.unlock();
        }
        for (Item i : dropped) {
            if (i instanceof Marker m) {
                m.callback().run();
            }
        }
    }

    @Override
    public boolean isPlaying() {
        if (busyEpoch == epoch || !queue.isEmpty()) {
            return true;
        }
        lock.lock();
        try {
            return clockFrames > 0 && System.nanoTime() < clockStart + framesToNanos(clockFrames);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long samplesWritten() {
        return totalFrames;
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
                        if (c.epoch() == epoch && failure == null) {
                            busyEpoch = c.epoch();
                            try {
                                writeChunk(c);
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

    private void writeChunk(Chunk c) throws InterruptedException {
        PcmAudio a = c.audio();
        if (a.sampleRate() != sampleRate) {
            if (resampler == null || resampler.inRate() != a.sampleRate()) {
                resampler = new Resampler(a.sampleRate(), sampleRate);
            }
            a = new PcmAudio(resampler.process(a.samples(), 0, a.length()), sampleRate);
        }
        byte[] bytes = a.toLittleEndianBytes();
        int pieceBytes = sampleRate * PIECE_MILLIS / 1000 * 2;
        byte[] silence = new byte[pieceBytes];
        for (int off = 0; off < bytes.length; off += pieceBytes) {
            int n = Math.min(pieceBytes, bytes.length - off);
            while (true) {
                due.runDue();
                Step step = nextStep(c, bytes, off, n, silence);
                if (step == Step.STOPPED) {
                    return;
                }
                if (step == Step.WAIT) {
                    continue;
                }
                boolean audio = step == Step.AUDIO;
                if (!write(audio ? bytes : silence, audio ? off : 0, audio ? n : pieceBytes, c.epoch(), audio)) {
                    return;
                }
                if (audio) {
                    break;
                }
            }
        }
    }

    /** What the writer does next for a piece: write it, write a piece of silence (paused), wait, or give up. */
    private enum Step { AUDIO, SILENCE, WAIT, STOPPED }

    /**
     * Under the lock: waits a little (for the lead, a resume or the next marker) and says {@link Step#WAIT}, or hands
     * the piece, or a piece of silence while paused, to the tap on the clock and says which is to be written.
     */
    private Step nextStep(Chunk c, byte[] bytes, int off, int n, byte[] silence) throws InterruptedException {
        lock.lock();
        try {
            if (c.epoch() != epoch) {
                return Step.STOPPED;
            }
            long now = System.nanoTime();
            boolean running = clockFrames > 0 && now <= clockStart + framesToNanos(clockFrames);
            if (paused && !running) {
                wake.awaitNanos(due.untilDue(IDLE_POLL_NANOS));
                return Step.WAIT;
            }
            if (!running) {
                clockStart = now;        // idle or underrun: restart the clock
                clockFrames = 0;
            }
            long ahead = clockStart + framesToNanos(clockFrames) - now;
            if (ahead > LEAD_MILLIS * 1_000_000L) {
                wake.awaitNanos(due.untilDue(ahead - LEAD_MILLIS * 1_000_000L));
                return Step.WAIT;
            }
            long startsAt = clockStart + framesToNanos(clockFrames);
            if (paused) {
                // held: the stream goes on with silence, so that it goes on sample for sample when the reply resumes
                clockFrames += silence.length / 2;
                tap.played(PcmAudio.fromLittleEndianBytes(silence, 0, silence.length, sampleRate), startsAt);
                return Step.SILENCE;
            }
            clockFrames += n / 2;
            // Under the lock: once stopNow() returns, no piece of the stopped audio reaches the tap. This
            // piece is written even if a stop comes before the write, and then it does sound (after the flush).
            tap.played(PcmAudio.fromLittleEndianBytes(bytes, off, n, sampleRate), startsAt);
            return Step.AUDIO;
        } finally {
            lock.unlock();
        }
    }

    /** Writes to the line; false when the line failed (and says so) or a stop cut the write short. */
    private boolean write(byte[] bytes, int off, int n, long chunkEpoch, boolean audio) {
        int written = line.write(bytes, off, n);
        if (audio) {
            totalFrames += Math.max(0, written) / 2;
        }
        if (written < n && chunkEpoch == epoch && !closed) {
            // a blocking write returns less only when a stop flushed it (the epoch changes first) or the line
            // failed: closed under us, or ALSA's -ENODEV of an unplugged device
            fail(new IOException("the speaker (" + device + ") stopped taking audio (a write took " + written
                    + " of " + n + " bytes" + (line.isOpen() ? "" : ", the line was closed")
                    + "): it was disconnected or taken by another program"));
            return false;
        }
        return written == n;
    }

    /**
     * A marker: its callback runs once the clock has passed everything written before it (at once if that has
     * played out or a stop dropped it), while the writer goes on.
     */
    private void schedule(Marker m) {
        lock.lock();
        try {
            long end = clockStart + framesToNanos(clockFrames);
            if (m.epoch() == epoch && clockFrames > 0 && end > System.nanoTime()) {
                due.add(m.callback(), end);
                return;
            }
        } finally {
            lock.unlock();
        }
        m.callback().run();
    }

    /** The line failed: the writer ends, and whoever set {@link #onFailure} replaces the sink. */
    private void fail(IOException e) {
        failure = e;
        onFailure.accept(e);
    }

    /** Called once, on the writer thread, when the line fails; the writer then stops writing (see {@link ResilientSpeaker}). */
    void onFailure(Consumer<IOException> handler) {
        this.onFailure = handler;
        if (failure != null) {
            handler.accept(failure);
        }
    }

    /**
     * Whether the device takes audio: writes {@value #PROBE_MILLIS} ms of silence (more than the 100 ms device buffer,
     * which takes writes before the device does) before anything is queued. A device can open and still refuse every
     * write (ALSA's file device on a path it cannot write, a device half gone).
     */
    boolean takesAudio() {
        byte[] silence = new byte[sampleRate * PROBE_MILLIS / 1000 * 2];
        int written = line.write(silence, 0, silence.length);
        totalFrames += Math.max(0, written) / 2;
        return written == silence.length && line.isOpen();
    }

    static final int PROBE_MILLIS = 250;

    /** Why the line failed, or null while it works. */
    IOException failure() {
        return failure;
    }

    private long framesToNanos(long frames) {
        return frames * 1_000_000_000L / sampleRate;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the speaker sink is closed");
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
        try {
            writer.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        line.stop();
        line.close();
    }
}
