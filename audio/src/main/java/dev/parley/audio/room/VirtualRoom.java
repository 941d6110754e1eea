package dev.parley.audio.room;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.capture.Resampler;
import dev.parley.audio.playback.AudioSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * A simulated room around a loudspeaker and a microphone, in real time, for the voice loop: a
 * {@link #speaker() speaker} ({@link AudioSink}) plays on the room's clock and a
 * {@link #microphone() microphone} ({@link AudioSource}) delivers {@value #FRAME_MILLIS} ms frames as
 * their last sample is "recorded". Each microphone frame is what the speaker played during that frame,
 * convolved with the room's echo path (its leading zeros are the device latency) and scaled to the
 * echo level, plus the user's scheduled speech (through its own path, or dry) at the speech level,
 * plus a looped noise bed at the SNR. A stop of the speaker drops what it had not played yet, as a
 * device flush does; the room's reverberation of what was played still reaches the microphone.
 */
public final class VirtualRoom implements AutoCloseable {
    public static final int RATE = RoomWav.ROOM_RATE;
    public static final int FRAME_MILLIS = 20;
    static final int FRAME = RATE * FRAME_MILLIS / 1000;
    /** How far the speaker may place audio ahead of the clock (like a device buffer). */
    static final int LEAD_SAMPLES = RATE * 60 / 1000;
    private static final int RING = RATE * 20;

    /**
     * What the room sounds like.
     *
     * @param echoPath     loudspeaker to microphone
     * @param userPath     the user's mouth to the microphone, or null for dry speech
     * @param levels       speech level at the microphone, echo level relative to it, SNR
     * @param echoUnitDbfs the active level at the microphone of the reply voice played at unit gain through
     *                     {@code echoPath} (see {@link #echoLevel}): the echo gain follows from it
     * @param noiseBed     looped noise (any level: it is scaled to the SNR), or null for none
     * @param seed         where in the noise bed the room starts
     */
    public record Setup(ImpulseResponse echoPath, ImpulseResponse userPath, RoomMixer.Levels3 levels, double echoUnitDbfs,
                        float[] noiseBed, long seed) {
        public Setup {
            if (echoPath == null || levels == null) {
                throw new IllegalArgumentException("expected an echo path and levels but found null");
            }
            for (ImpulseResponse ir : userPath == null ? List.of(echoPath) : List.of(echoPath, userPath)) {
                if (ir.sampleRate() != RATE) {
                    throw new IllegalArgumentException("expected a " + RATE + " Hz impulse response but " + ir.name() + " is at "
                            + ir.sampleRate() + " Hz");
                }
            }
        }
    }

    private final Setup setup;
    private final Object lock = new Object();
    private final long startNanos = System.nanoTime();
    private final float[] ring = new float[RING];
    private final BlockConvolver echo;
    private final float echoGain;
    private final float[] noise;
    private final List<Scheduled> speech = new CopyOnWriteArrayList<>();
    private final List<Consumer<PcmAudio>> playbackListeners = new CopyOnWriteArrayList<>();
    private final List<long[]> played = new ArrayList<>();   // [startSample, endSample) intervals of speaker audio
    private final RoomSpeaker speaker;
    private final RoomMicrophone microphone;
    private long writeEnd;
    private long consumed;
    private long noisePos;
    private volatile boolean closed;
    private volatile short[] recording;   // when kept: everything the microphone delivered
    private short[] speakerRecording;     // and what the speaker played in the same frames
    private int recorded;

    private record Scheduled(float[] samples, long startSample, ScheduledSpeech info) {
    }

    public VirtualRoom(Setup setup) {
        this.setup = setup;
        this.echo = new BlockConvolver(setup.echoPath().taps(), FRAME);
        this.echoGain = (float) Levels.gain(setup.echoUnitDbfs(), setup.levels().echoDbfs());
        if (setup.noiseBed() != null && setup.noiseBed().length > 0) {
            double g = RoomMixer.noiseGain(setup.noiseBed(), setup.levels().noiseDbfs());
            noise = new float[setup.noiseBed().length];
            for (int i = 0; i < noise.length; i++) {
                noise[i] = (float) (setup.noiseBed()[i] * g);
            }
            noisePos = new SplittableRandom(setup.seed()).nextInt(noise.length);
        } else {
            noise = null;
        }
        speaker = new RoomSpeaker(this);
        microphone = new RoomMicrophone(this);
    }

    /** The active level at the microphone of {@code voice} played at unit gain through {@code path}. */
    public static double echoLevel(PcmAudio voice, ImpulseResponse path) {
        float[] v = Levels.toFloat(Resampler.resample(voice, RATE).samples());
        return Levels.activeDb(BlockConvolver.convolve(v, path.taps()), RATE);
    }

    public Setup setup() {
        return setup;
    }

    /** The loudspeaker: plays in real time into the room. */
    public AudioSink speaker() {
        return speaker;
    }

    /** The microphone: {@value #FRAME_MILLIS} ms frames at {@value #RATE} Hz, paced by the room's clock. */
    public AudioSource microphone() {
        return microphone;
    }

    /**
     * Keeps everything the microphone delivers from now on (tests), up to {@code seconds}, and what the
     * speaker played in the same frames ({@link #speakerRecording()}, sample for sample aligned).
     */
    public void keepRecording(int seconds) {
        synchronized (lock) {
            recording = new short[seconds * RATE];
            speakerRecording = new short[seconds * RATE];
            recorded = 0;
        }
    }

    /** What the speaker played during the frames of {@link #recording()}. */
    public PcmAudio speakerRecording() {
        synchronized (lock) {
            short[] r = speakerRecording;
            return new PcmAudio(r == null ? new short[0] : Arrays.copyOf(r, recorded), RATE);
        }
    }

    /** What the microphone delivered since {@link #keepRecording}. */
    public PcmAudio recording() {
        synchronized (lock) {
            short[] r = recording;
            return new PcmAudio(r == null ? new short[0] : Arrays.copyOf(r, recorded), RATE);
        }
    }

    /** Hears each frame of what the speaker really played (silence included), as the microphone frame is taken. */
    public void addPlaybackListener(Consumer<PcmAudio> listener) {
        playbackListeners.add(listener);
    }

    /**
     * The user says {@code audio} starting {@code delayMillis} from now: through the user's path, at the
     * speech level.
     */
    public ScheduledSpeech say(String label, PcmAudio audio, int delayMillis) {
        float[] dry = Levels.toFloat(Resampler.resample(audio, RATE).samples());
        float[] wet = setup.userPath() == null ? dry : BlockConvolver.convolve(dry, setup.userPath().taps());
        double g = RoomMixer.speechGain(wet, RATE, setup.levels().speechDbfs());
        float[] s = new float[wet.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = (float) (wet[i] * g);
        }
        int onset = Math.max(0, Levels.onset(s, RATE));
        long start = sampleAt(System.nanoTime()) + (long) delayMillis * RATE / 1000;
        int direct = setup.userPath() == null ? 0 : setup.userPath().leadingZeros();
        int voiceEnd = Math.min(s.length, Math.max(onset, Levels.end(dry, RATE) + direct));
        ScheduledSpeech info = new ScheduledSpeech(label, nanosAt(start), nanosAt(start + onset), nanosAt(start + voiceEnd),
                nanosAt(start + s.length));
        speech.add(new Scheduled(s, start, info));
        return info;
    }

    /** Whether the speaker played anything audible within {@code [fromNanos, toNanos]}. */
    public boolean playedBetween(long fromNanos, long toNanos) {
        long a = sampleAt(fromNanos);
        long b = sampleAt(toNanos);
        synchronized (lock) {
            for (long[] iv : played) {
                if (iv[0] < b && iv[1] > a) {
                    return true;
                }
            }
            return false;
        }
    }

    long sampleAt(long nanos) {
        return Math.floorDiv((nanos - startNanos) * RATE, 1_000_000_000L);
    }

    long nanosAt(long sample) {
        return startNanos + sample * 1_000_000_000L / RATE;
    }

    long nowSample() {
        return sampleAt(System.nanoTime());
    }

    // ---- the speaker's side -------------------------------------------------------------------

    /**
     * Places {@code piece} on the timeline once it is at most {@link #LEAD_SAMPLES} ahead of the clock and
     * tells {@code placedAt} when it starts sounding ({@link System#nanoTime()}); returns false (placing nothing)
     * if {@code current} turned false while waiting.
     */
    boolean place(float[] piece, BooleanSupplier current, LongConsumer placedAt) throws InterruptedException {
        synchronized (lock) {
            while (true) {
                if (closed || !current.getAsBoolean()) {
                    return false;
                }
                long now = nowSample();
                long pos = Math.max(Math.max(writeEnd, consumed), now);
                long ahead = pos - now;
                boolean full = pos + piece.length - consumed > RING;
                if (ahead <= LEAD_SAMPLES && !full) {
                    for (int i = 0; i < piece.length; i++) {
                        ring[(int) ((pos + i) % RING)] = piece[i];
                    }
                    if (!played.isEmpty() && played.getLast()[1] == pos) {
                        played.getLast()[1] = pos + piece.length;
                    } else {
                        played.add(new long[] {pos, pos + piece.length});
                    }
                    writeEnd = pos + piece.length;
                    placedAt.accept(nanosAt(pos));      // under the lock: a stop cannot come between
                    return true;
                }
                long waitSamples = full ? FRAME : ahead - LEAD_SAMPLES;
                long nanos = Math.max(100_000L, waitSamples * 1_000_000_000L / RATE);
                lock.wait(nanos / 1_000_000, (int) (nanos % 1_000_000));
            }
        }
    }

    /** Drops everything placed ahead of the clock (a device flush). */
    void flush() {
        synchronized (lock) {
            long from = Math.max(consumed, nowSample());
            for (long i = from; i < writeEnd; i++) {
                ring[(int) (i % RING)] = 0;
            }
            if (writeEnd > from) {
                writeEnd = from;
                if (!played.isEmpty()) {
                    long[] last = played.getLast();
                    last[1] = Math.min(last[1], from);
                    if (last[1] <= last[0]) {
                        played.removeLast();
                    }
                }
            }
            lock.notifyAll();
        }
    }

    /** Where what was placed so far ends, in the room's samples. */
    long writeEnd() {
        synchronized (lock) {
            return writeEnd;
        }
    }

    /** Whether placed audio is still ahead of the clock. */
    boolean sounding() {
        synchronized (lock) {
            return writeEnd > nowSample();
        }
    }

    void wakeAll() {
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    // ---- the microphone's side ----------------------------------------------------------------

    private long nextFrame = -1;

    /** The next microphone frame, once its last sample is due; null after close. */
    PcmAudio nextMicFrame() throws InterruptedException {
        long k;
        synchronized (lock) {
            if (closed) {
                return null;
            }
            if (nextFrame < 0) {
                nextFrame = Math.floorDiv(nowSample(), FRAME);
                consumed = nextFrame * FRAME;
            }
            k = nextFrame++;
        }
        long due = nanosAt((k + 1) * FRAME);
        long wait = due - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        long from = k * FRAME;
        float[] spk = new float[FRAME];
        synchronized (lock) {
            if (closed) {
                return null;
            }
            for (int i = 0; i < FRAME; i++) {
                int idx = (int) ((from + i) % RING);
                if (from + i < writeEnd) {
                    spk[i] = ring[idx];
                }
                ring[idx] = 0;
            }
            consumed = from + FRAME;
            lock.notifyAll();
        }
        if (!playbackListeners.isEmpty()) {
            PcmAudio p = new PcmAudio(Levels.toShort(spk), RATE);
            for (Consumer<PcmAudio> l : playbackListeners) {
                l.accept(p);
            }
        }
        float[] mic = new float[FRAME];
        echo.process(spk, mic);
        for (int i = 0; i < FRAME; i++) {
            mic[i] *= echoGain;
        }
        for (Scheduled s : speech) {
            long a = Math.max(from, s.startSample);
            long b = Math.min(from + FRAME, s.startSample + s.samples.length);
            for (long i = a; i < b; i++) {
                mic[(int) (i - from)] += s.samples[(int) (i - s.startSample)];
            }
            if (s.startSample + s.samples.length <= from) {
                speech.remove(s);
            }
        }
        if (noise != null) {
            for (int i = 0; i < FRAME; i++) {
                mic[i] += noise[(int) (noisePos++ % noise.length)];
            }
        }
        short[] out = Levels.toShort(mic);
        synchronized (lock) {
            short[] r = recording;
            if (r != null) {
                int n = Math.min(out.length, r.length - recorded);
                System.arraycopy(out, 0, r, recorded, n);
                System.arraycopy(Levels.toShort(spk), 0, speakerRecording, recorded, n);
                recorded += n;
            }
        }
        return new PcmAudio(out, RATE);
    }

    boolean closed() {
        return closed;
    }

    /** Ends the microphone (reads return null) and the speaker. */
    @Override
    public void close() {
        closed = true;
        wakeAll();
        speaker.close();
    }
}
