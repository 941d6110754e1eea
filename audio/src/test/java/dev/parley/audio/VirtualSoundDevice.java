package dev.parley.audio;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The user-space ALSA device of ../shared/TOOLCHAIN.md for tests: HOME (set by surefire) holds an
 * {@code .asoundrc} whose default capture reads {@code in.raw} and whose default playback writes
 * {@code out.raw}. Here {@code in.raw} is a named pipe, so the test decides when "the microphone
 * hears" something: capture blocks until audio is fed, like a real microphone in a quiet room.
 */
public final class VirtualSoundDevice implements AutoCloseable {
    private final Path home;
    private final Path in;
    private final Path out;
    private final LinkedBlockingQueue<byte[]> pending = new LinkedBlockingQueue<>();
    private volatile Thread writer;
    private volatile IOException failure;
    private static final byte[] END = new byte[0];

    private VirtualSoundDevice(Path home) {
        this.home = home;
        this.in = home.resolve("in.raw");
        this.out = home.resolve("out.raw");
        writer = Thread.ofPlatform().name("test-mic-feed").daemon().start(this::pump);
    }

    /** Sets the device up, or skips the test saying why it cannot run here. */
    public static VirtualSoundDevice create() throws IOException, InterruptedException {
        String homeEnv = System.getenv("HOME");
        assumeTrue(homeEnv != null && homeEnv.endsWith("alsa-home"),
                "skipped: HOME must point at target/alsa-home (set by surefire) for the virtual ALSA device, found " + homeEnv);
        assumeTrue(Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libasound.so.2")) || Files.exists(Path.of("/usr/lib/libasound.so.2")),
                "skipped: libasound2 (ALSA) is not installed");
        Path home = Path.of(homeEnv);
        Files.createDirectories(home);
        Path in = home.resolve("in.raw");
        Files.deleteIfExists(in);
        Process p = new ProcessBuilder("mkfifo", in.toString()).redirectErrorStream(true).start();
        assumeTrue(p.waitFor() == 0, "skipped: mkfifo failed");
        writeConfig(home);
        return new VirtualSoundDevice(home);
    }

    /**
     * Writes the {@code .asoundrc} of the virtual device into {@code home} (always the same text for the same
     * folder). ALSA reads its configuration once per process, so a test JVM must have it before anything touches
     * Java Sound: {@link AlsaConfigSessionListener} writes it when the test session opens.
     */
    public static void writeConfig(Path home) throws IOException {
        Files.createDirectories(home);
        Files.writeString(home.resolve(".asoundrc"), """
                pcm.!default { type asym  playback.pcm "vplay"  capture.pcm "vcap" }
                pcm.vplay { type file slave.pcm "vnull" file "%s" format "raw" }
                pcm.vcap  { type file slave.pcm "vnull" file "/dev/null" infile "%s" format "raw" }
                pcm.vnull { type null }
                """.formatted(home.resolve("out.raw"), home.resolve("in.raw")));
    }

    /**
     * Feeds the pipe. It is opened read-write, which on Linux never blocks and keeps the pipe alive
     * while ALSA opens the capture file, closes it (probing the device) and opens it again: nothing
     * written in between is lost, and no open on either side can hang.
     */
    private void pump() {
        try (RandomAccessFile pipe = new RandomAccessFile(in.toFile(), "rw")) {
            while (true) {
                byte[] b = pending.take();
                if (b == END) {
                    return;
                }
                pipe.write(b);
            }
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Makes the microphone hear {@code audio} (16-bit mono at the capture rate). */
    public void speak(PcmAudio audio) {
        pending.add(audio.toLittleEndianBytes());
    }

    /**
     * Turns the microphone into a clocked one, as real hardware is: from now on it delivers 20 ms every 20 ms, what
     * {@link #speakInRealTime} queued or else silence, so the capture never reads ahead of real time nor stalls (fed
     * at once, the pipe lets the loop read seconds of speech and silence in a blink, and every latency measured from
     * speech end comes out too short; left unfed, capture stops, which no real microphone does). For measurements;
     * {@link #speak} must not be used after it. {@link #endInput()} stops the clock.
     */
    public synchronized void startClock(int sampleRate) {
        if (clock != null) {
            return;
        }
        clockRate = sampleRate;
        clock = Thread.ofPlatform().name("test-mic-clock").daemon().start(this::tick);
    }

    /** With {@link #startClock}: the microphone hears {@code audio} next, in real time; returns at once. */
    public void speakInRealTime(PcmAudio audio) {
        if (clock == null) {
            throw new IllegalStateException("expected startClock() before speakInRealTime");
        }
        short[] s = audio.samples();
        synchronized (queued) {
            for (short v : s) {
                queued.addLast(v);
            }
        }
    }

    /** Samples queued by {@link #speakInRealTime} and not yet heard. */
    private int queuedSamples() {
        synchronized (queued) {
            return queued.size();
        }
    }

    /**
     * The clock's piece: at least what one capture read asks for (20 ms in {@code MicrophoneSource}'s defaults), so
     * that no read finds less than it wants in the pipe: ALSA's file device reads the pipe once per read and leaves
     * the rest of the buffer as its null device's silence, cutting holes in the speech.
     */
    private static final int PIECE_MILLIS = 20;

    private final java.util.ArrayDeque<Short> queued = new java.util.ArrayDeque<>();
    private volatile Thread clock;
    private volatile int clockRate;

    private void tick() {
        int piece = clockRate * PIECE_MILLIS / 1000;
        long start = System.nanoTime();
        try {
            for (long n = 1; !Thread.currentThread().isInterrupted(); n++) {
                short[] out = new short[piece];
                if (pending.size() > 2 && queuedSamples() == 0) {
                    // nobody reads the microphone (the pipe is full): its silence is lost, as a driver's would be
                    sleepUntil(start + n * PIECE_MILLIS * 1_000_000L);
                    continue;
                }
                synchronized (queued) {
                    for (int i = 0; i < piece && !queued.isEmpty(); i++) {
                        out[i] = queued.removeFirst();
                    }
                }
                pending.add(new PcmAudio(out, clockRate).toLittleEndianBytes());
                sleepUntil(start + n * PIECE_MILLIS * 1_000_000L);
            }
        } catch (InterruptedException e) {
            // stopped by endInput or close
        }
    }

    private static void sleepUntil(long due) throws InterruptedException {
        long wait = due - System.nanoTime();
        if (wait > 0) {
            java.util.concurrent.TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    private void stopClock() throws InterruptedException {
        Thread c = clock;
        if (c != null) {
            c.interrupt();
            c.join(5000);
        }
    }

    /** Everything played so far, as 16-bit mono samples at {@code rate}. */
    public PcmAudio played(int rate) throws IOException {
        byte[] b = Files.exists(out) ? Files.readAllBytes(out) : new byte[0];
        return PcmAudio.fromLittleEndianBytes(b, 0, b.length & ~1, rate);
    }

    /** Ends the microphone's input (capture then reads silence, unpaced): do this before closing capture. */
    public void endInput() throws InterruptedException {
        stopClock();
        pending.add(END);
        writer.join(5000);
    }

    @Override
    public void close() throws Exception {
        stopClock();
        pending.add(END);
        writer.join(5000);
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Takes the microphone away as unplugging it would for ALSA: {@code in.raw} is deleted, so opening the capture
     * device fails in ALSA itself until {@link #plugInMicrophone()}. A line already open keeps reading the pipe (the
     * feeder stays, so it never sees the end of the pipe and never floods the loop with unpaced silence); the test
     * closes it under its user to make it "go" (see {@code UnpluggableLines#pullOut}).
     */
    public void unplugMicrophone() throws IOException {
        Files.deleteIfExists(in);
    }

    /** Gives the microphone back after {@link #unplugMicrophone()}: a new pipe and feeder. */
    public void plugInMicrophone() throws IOException, InterruptedException {
        pending.add(END);
        writer.join(5000);
        Process p = new ProcessBuilder("mkfifo", in.toString()).redirectErrorStream(true).start();
        if (p.waitFor() != 0) {
            throw new IOException("mkfifo " + in + " failed: " + new String(p.getInputStream().readAllBytes()));
        }
        writer = Thread.ofPlatform().name("test-mic-feed").daemon().start(this::pump);
    }

    /** Takes the speaker away: {@code out.raw} becomes a folder, so opening the playback device fails in ALSA. */
    public void unplugSpeaker() throws IOException {
        Files.deleteIfExists(out);
        Files.createDirectory(out);
    }

    /** Gives the speaker back after {@link #unplugSpeaker()}. */
    public void plugInSpeaker() throws IOException {
        Files.deleteIfExists(out);
    }

    public Path home() {
        return home;
    }
}
