package dev.parley.audio;

import dev.parley.audio.capture.AudioSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.Control;
import javax.sound.sampled.DataLine;
import javax.sound.sampled.LineListener;
import javax.sound.sampled.SourceDataLine;

/**
 * A simulated room in process (the hardware is all that is simulated): a 16 kHz "air" timeline driven by the wall
 * clock. Its {@link #speaker()} is an output line: what is written sounds at real-time pace from where the previous
 * piece ended (or now, after an underrun), and {@code flush()} silences what had not sounded yet. Its
 * {@link #microphone()} delivers 20 ms frames in real time: the speaker's sound convolved with the room's impulse
 * response (which holds the playback-to-capture latency), plus the user's speech and other sounds placed on the
 * timeline.
 */
public final class LoopbackRoom {
    static final int RATE = 16_000;
    private static final int FRAME = 320;

    private final double[] ir;
    private final double echoGain;
    private final short[] air;           // what the speaker sounded, by air position
    private final double[] direct;       // the user's speech and other sounds, by air position
    private final long t0 = System.nanoTime();
    private final List<Pending> pending = new ArrayList<>();
    private long writeCursor;
    /**
     * Where the speaker's sound ends on the timeline: its last sample that was not silence (the sink keeps the stream
     * running with silence while a reply is held, and what a flush silenced does not count).
     */
    private long soundedUntil;
    private long firstSound = -1;
    private volatile boolean closed;

    private record Pending(short[] sound, int afterPlaybackMillis, double gain) {
    }

    /** @param seconds length of the timeline (the test's whole run) */
    public LoopbackRoom(double[] impulseResponse, double echoGain, int seconds) {
        this.ir = impulseResponse;
        this.echoGain = echoGain;
        this.air = new short[seconds * RATE];
        this.direct = new double[seconds * RATE];
    }

    /** The air position now. */
    long now() {
        return (System.nanoTime() - t0) * RATE / 1_000_000_000L;
    }

    /** Places {@code sound} on the timeline at {@code atMillis} from the start. */
    public synchronized void say(short[] sound, int atMillis, double gain) {
        place(sound, (long) atMillis * RATE / 1000, gain);
    }

    /** Places {@code sound} {@code millis} after the speaker first sounded (once it has). */
    public synchronized void sayDuringPlayback(short[] sound, int millis, double gain) {
        if (firstSound >= 0) {
            place(sound, firstSound + (long) millis * RATE / 1000, gain);
        } else {
            pending.add(new Pending(sound, millis, gain));
        }
    }

    /** Where the speaker first sounded, ms from the start, or -1. */
    public synchronized long firstSoundMillis() {
        return firstSound < 0 ? -1 : firstSound * 1000 / RATE;
    }

    /** Where the speaker's sound so far ends, ms from the start (0 before any). */
    public synchronized long soundedUntilMillis() {
        return soundedUntil * 1000 / RATE;
    }

    private void place(short[] sound, long at, double gain) {
        for (int i = 0; i < sound.length && at + i < direct.length; i++) {
            direct[(int) (at + i)] += gain * sound[i];
        }
    }

    private synchronized void write(short[] s) {
        long now = now();
        if (writeCursor < now) {
            writeCursor = now;      // idle or underrun: sounds from now on
        }
        if (firstSound < 0) {
            firstSound = writeCursor;
            for (Pending p : pending) {
                place(p.sound, firstSound + (long) p.afterPlaybackMillis * RATE / 1000, p.gain);
            }
            pending.clear();
        }
        for (short v : s) {
            if (writeCursor < air.length) {
                air[(int) writeCursor] = v;
            }
            writeCursor++;
            if (v != 0) {
                soundedUntil = Math.max(soundedUntil, writeCursor);
            }
        }
    }

    private synchronized void flush() {
        long now = now();
        for (long p = Math.max(now, 0); p < writeCursor && p < air.length; p++) {
            air[(int) p] = 0;
        }
        writeCursor = Math.min(writeCursor, now);
        soundedUntil = Math.min(soundedUntil, Math.max(writeCursor, 0));
    }

    /** What the microphone hears at {@code [from, from + n)}. */
    private short[] capture(long from, int n) {
        short[] out = new short[n];
        int span = ir.length + n;
        short[] sound = new short[span];           // air[from - ir.length + 1 .. from + n), copied under the lock
        double[] near = new double[n];
        synchronized (this) {
            for (int j = 0; j < span; j++) {
                long p = from - ir.length + 1 + j;
                sound[j] = p >= 0 && p < air.length ? air[(int) p] : 0;
            }
            for (int i = 0; i < n; i++) {
                near[i] = from + i < direct.length ? direct[(int) (from + i)] : 0;
            }
        }
        for (int i = 0; i < n; i++) {
            double v = near[i];
            double e = 0;
            for (int k = 0; k < ir.length; k++) {
                short a = sound[i + ir.length - 1 - k];
                if (a != 0 && ir[k] != 0) {
                    e += ir[k] * a;
                }
            }
            v += echoGain * e;
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
        }
        return out;
    }

    /** The microphone: real-time 20 ms frames until {@link #close()}. */
    public AudioSource microphone() {
        return new AudioSource() {
            private long next = now();

            @Override
            public int sampleRate() {
                return RATE;
            }

            @Override
            public PcmAudio read() throws InterruptedException {
                if (closed) {
                    return null;
                }
                long end = next + FRAME;
                long waitNanos = (end - now()) * 1_000_000_000L / RATE;
                if (waitNanos > 0) {
                    TimeUnit.NANOSECONDS.sleep(waitNanos);   // a microphone delivers a frame once it is recorded
                }
                if (end >= air.length) {
                    return null;
                }
                PcmAudio frame = new PcmAudio(capture(next, FRAME), RATE);
                next = end;
                return frame;
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    /** The speaker: a 16 kHz mono 16-bit output line, already open. */
    public SourceDataLine speaker() {
        return new Line();
    }

    private final class Line implements SourceDataLine {
        private final AudioFormat format = new AudioFormat(RATE, 16, 1, true, false);
        private boolean open = true;
        private boolean running;
        private long written;

        @Override
        public void open(AudioFormat f, int bufferSize) {
            open = true;
        }

        @Override
        public void open(AudioFormat f) {
            open = true;
        }

        @Override
        public void open() {
            open = true;
        }

        @Override
        public int write(byte[] b, int off, int len) {
            write(PcmAudio.fromLittleEndianBytes(b, off, len, RATE).samples());
            written += len / 2;
            return len;
        }

        private void write(short[] s) {
            LoopbackRoom.this.write(s);
        }

        @Override
        public void drain() {
        }

        @Override
        public void flush() {
            LoopbackRoom.this.flush();
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public boolean isActive() {
            return running;
        }

        @Override
        public AudioFormat getFormat() {
            return format;
        }

        @Override
        public int getBufferSize() {
            return RATE / 5 * 2;
        }

        @Override
        public int available() {
            return getBufferSize();
        }

        @Override
        public int getFramePosition() {
            return (int) written;
        }

        @Override
        public long getLongFramePosition() {
            return written;
        }

        @Override
        public long getMicrosecondPosition() {
            return written * 1_000_000L / RATE;
        }

        @Override
        public float getLevel() {
            return AudioSystemNotSpecified.LEVEL;
        }

        @Override
        public javax.sound.sampled.Line.Info getLineInfo() {
            return new DataLine.Info(SourceDataLine.class, format);
        }

        @Override
        public void close() {
            open = false;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public Control[] getControls() {
            return new Control[0];
        }

        @Override
        public boolean isControlSupported(Control.Type control) {
            return false;
        }

        @Override
        public Control getControl(Control.Type control) {
            throw new IllegalArgumentException("the simulated speaker has no controls, asked for " + control);
        }

        @Override
        public void addLineListener(LineListener listener) {
        }

        @Override
        public void removeLineListener(LineListener listener) {
        }
    }

    private static final class AudioSystemNotSpecified {
        static final float LEVEL = javax.sound.sampled.AudioSystem.NOT_SPECIFIED;
    }
}
