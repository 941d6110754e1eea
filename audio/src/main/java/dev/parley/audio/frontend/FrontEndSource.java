package dev.parley.audio.frontend;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.AudioSource;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A source whose frames have been through the {@link AudioFrontEnd}, processed on a thread of its own
 * ({@code parley-frontend}) as soon as the inner source delivers them. The echo canceller must see each captured
 * frame when it is recorded, not when the listen thread gets to it: the listen thread runs the recognizer and falls
 * behind by seconds at times (measured: 0.6 s of audio processed in the first 1.75 s of a loop, while Vosk warmed
 * up), and the render reference is timed by the clock. Cleaned frames wait in a bounded queue (drops are counted).
 */
public final class FrontEndSource implements AudioSource {
    private record Cleaned(PcmAudio audio, double reductionDb) {
    }

    /** Enough captured audio for a frame of up to 100 ms held back by up to 100 ms. */
    private static final int CAPTURE_HISTORY_SAMPLES = AudioFrontEnd.SAMPLE_RATE / 5;

    private static final Cleaned END = new Cleaned(new PcmAudio(new short[0], AudioFrontEnd.SAMPLE_RATE), 0);

    private final AudioSource inner;
    private final AudioFrontEnd frontEnd;
    private final BlockingQueue<Cleaned> queue;
    private volatile double lastReduction;
    private final AtomicLong dropped = new AtomicLong();
    /** The captured audio of late, to set each cleaned frame against the capture it came from. */
    private final CaptureHistory captured = new CaptureHistory(CAPTURE_HISTORY_SAMPLES);
    /** How many processed samples the front end has given so far (the front end's thread). */
    private long cleaned;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile IOException failure;
    /** What each {@link AudioFrontEnd#process} call cost per frame it put out (the front end's thread). */
    private final FrameCost cost = new FrameCost();
    /** The time of calls that put out no frame yet (a remainder held back), counted with the next frame. */
    private long pendingNanos;

    /** Starts processing {@code inner}'s frames at once. */
    public FrontEndSource(AudioSource inner, AudioFrontEnd frontEnd, int queueFrames) {
        this.inner = inner;
        this.frontEnd = frontEnd;
        this.queue = new ArrayBlockingQueue<>(queueFrames);
        this.thread = Thread.ofPlatform().name("parley-frontend").daemon().start(this::run);
    }

    private void run() {
        try {
            PcmAudio f;
            while (running && (f = inner.read()) != null) {
                captured.add(f.samples());
                long t0 = System.nanoTime();
                PcmAudio clean = frontEnd.process(f);
                pendingNanos += System.nanoTime() - t0;
                int frames = clean.length() / AudioFrontEnd.FRAME_SAMPLES;
                if (frames > 0) {
                    cost.add(pendingNanos, frames);
                    pendingNanos = 0;
                }
                // processed sample k stands for captured sample k - latency (a remainder the front end holds back
                // for its next 10 ms frame is not in clean yet, so positions are counted, not taken from the end)
                long from = cleaned - frontEnd.latencySamples();
                cleaned += clean.length();
                double reduction = captured.levelDbfs(from, from + clean.length()) - LevelMeter.rmsDbfs(clean);
                if (clean.length() > 0 && !queue.offer(new Cleaned(clean, reduction))) {
                    dropped.incrementAndGet();
                }
            }
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException("the audio front end failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            // closed, or failed: what is queued is dropped and the reader learns at once; where the microphone's
            // stream simply ended, the reader still gets every frame cleaned before it (clearing them raced the
            // reader: FrontEndSourceTest read 24 frames of 100 in a clean-clone CI run)
            if (!running || failure != null) {
                queue.clear();
            }
            running = false;
            queue.offer(END);   // a full queue takes no END: read() ends once the thread is gone and the queue drained
        }
    }

    @Override
    public int sampleRate() {
        return inner.sampleRate();
    }

    @Override
    public PcmAudio read() throws IOException, InterruptedException {
        while (true) {
            Cleaned f = queue.poll(50, TimeUnit.MILLISECONDS);
            if (f == END) {
                queue.offer(END);
                if (failure != null) {
                    throw failure;
                }
                return null;
            }
            if (f != null) {
                lastReduction = f.reductionDb();
                return f.audio();
            }
            if (!thread.isAlive() && queue.isEmpty()) {
                if (failure != null) {
                    throw failure;
                }
                return null;
            }
        }
    }

    /**
     * How much quieter the front end made the frame {@link #read()} returned last, dB: the level of the captured
     * audio it came from (its {@link AudioFrontEnd#latencySamples()} earlier) less its own. Large while only echo comes
     * in (the canceller removes it), small where the user's voice dominates. Set against the capture of the same
     * moment, not the frame captured last: with the linear canceller's 26 ms the user's onset measured 10-20 dB of
     * reduction for its first frames, the capture's rise set against the output's quiet before it.
     */
    public double lastReductionDb() {
        return lastReduction;
    }

    /**
     * What the front end has cost so far per 10 ms frame (a snapshot): wall-clock time of its calls on its own thread,
     * which is about its CPU time unless the machine is short of cores.
     */
    public FrameCost frameCost() {
        return cost.copy();
    }

    @Override
    public long droppedFrames() {
        return inner.droppedFrames() + dropped.get();
    }

    @Override
    public void close() throws IOException {
        running = false;
        try {
            inner.close();
        } finally {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
