package dev.parley.audio.frontend;

import dev.onvoid.webrtc.media.audio.AudioProcessing;
import dev.onvoid.webrtc.media.audio.AudioProcessingConfig;
import dev.onvoid.webrtc.media.audio.AudioProcessingStats;
import dev.onvoid.webrtc.media.audio.AudioProcessingStreamConfig;
import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import java.util.Arrays;

/**
 * The front end on WebRTC's AudioProcessing (webrtc-java): echo cancellation (Parley's {@link LinearEchoCanceller}
 * ahead of WebRTC's module, or WebRTC's AEC3 in it), noise suppression, high-pass filter and adaptive digital gain,
 * per {@link FrontEndSettings}, on 10 ms frames at 16 kHz mono.
 *
 * <p>Threads. WebRTC's native module takes render and capture calls from two threads (it has a render and a
 * capture lock; its own locking test drives them from two threads), but webrtc-java adds no locking of its own and
 * {@code getStatistics()} writes into one shared Java object. So every native call is made here on the capture
 * thread: the sink's thread only lays the render reference on the capture's timeline ({@link RenderTimeline}), and
 * each captured 10 ms frame first takes the 10 ms of render that sounded at the same time (silence when nothing
 * played) through the linear canceller or AEC3's {@code processReverseStream}, then goes through
 * {@code processStream}. So render and capture stay in step, silence included, even when the capture thread falls
 * behind. {@link #close} waits for a frame in progress.
 */
public final class WebRtcFrontEnd implements AudioFrontEnd {
    private static final System.Logger LOG = System.getLogger(WebRtcFrontEnd.class.getName());
    /** Render reference kept: how far the capture thread may fall behind (4 s) before its render is lost. */
    private static final int RENDER_CAPACITY = 4 * SAMPLE_RATE;
    private static final int STATS_EVERY_FRAMES = 50;
    private static final int RENDER_LEVEL_FRAMES = 30;
    /** The linear canceller's filter: device latency plus the body of a room's response. */
    private static final int TAIL_MILLIS = 320;

    private final FrontEndSettings settings;
    /** WebRTC's module; null where its library could not load and only the linear canceller runs. */
    private final AudioProcessing apm;
    private final AudioProcessingStreamConfig streamConfig;
    /** Why WebRTC's module is missing (null when it runs). */
    private final String withoutWebRtc;
    private final FrameChunker chunker = new FrameChunker(FRAME_SAMPLES);
    private final RenderTimeline render;
    private long capturePosition;
    private long received;
    private final short[] frame = new short[FRAME_SAMPLES];
    private final short[] renderFrame = new short[FRAME_SAMPLES];
    /** The frame as captured, before the linear canceller (for {@link #noteConvergence}). */
    private final short[] capturedFrame = new short[FRAME_SAMPLES];
    private final byte[] in = new byte[2 * FRAME_SAMPLES];
    private final byte[] out = new byte[2 * FRAME_SAMPLES];
    private final byte[] renderIn = new byte[2 * FRAME_SAMPLES];
    private final byte[] renderOut = new byte[2 * FRAME_SAMPLES];
    private final double[] renderLevels = new double[RENDER_LEVEL_FRAMES];
    private int renderLevelIndex;
    private volatile double renderLevel = LevelMeter.SILENCE_DBFS;
    /** Frames since the last one with playback at or above {@link #PLAYING_DBFS} (counted up to {@link
     * #NOISE_AFTER_PLAYING_FRAMES}; set where the render level is measured). */
    private int sincePlayed = NOISE_AFTER_PLAYING_FRAMES;
    private volatile FrontEndStats stats;
    private long frames;
    private long errors;
    /** Energy in and out over the frames with playback (smoothed), for {@link #echoConverged()}. */
    private double playingIn;
    private double playingOut;
    private int playingFrames;
    /** The captured energy of the room's quiet frames, for {@link #noteConvergence}. */
    private double roomQuiet = Double.MAX_VALUE;
    private volatile boolean converged;
    private boolean closed;
    /** Parley's own canceller, where the settings ask for it (then AEC3 is off). */
    private final LinearEchoCanceller linear;
    /** Keeps each run of playback at the lag the linear canceller learnt (see {@link RunAligner}). */
    private final RunAligner aligner = new RunAligner();
    /** For {@link NoiseSuppression#AUTO}: whether the room's noise is steady, so that the suppressor's output is used. */
    private final SteadyNoise steadyNoise = new SteadyNoise();
    /**
     * For {@link NoiseSuppression#AUTO}: a second WebRTC module with only its noise suppressor (at high), fed every
     * frame the first one puts out, so that its estimate of the noise is learnt whether or not its output is used (a
     * suppressor switched on afresh learnt the user's question as noise: in the offline sweep's fan, 29 barge-ins heard
     * exactly of 50 against 36 with it on from the start). Null otherwise.
     */
    private final AudioProcessing denoiser;
    private final byte[] denoised = new byte[2 * FRAME_SAMPLES];
    private final short[] plain = new short[FRAME_SAMPLES];
    private final short[] quieter = new short[FRAME_SAMPLES];
    /** Whether the output is noise-suppressed now (fixed but for {@link NoiseSuppression#AUTO}). */
    private volatile boolean suppressing;
    /** {@link #suppressing} as of the frame before (a change is crossfaded over one frame). */
    private boolean suppressed;

    /**
     * Creates the native module. Throws {@link LinkageError} (or a {@link RuntimeException}) where the native
     * library cannot load: {@link FrontEnds#open} turns that into the pass-through front end.
     */
    public WebRtcFrontEnd(FrontEndSettings settings) {
        this(settings, System::nanoTime);
    }

    /** With the clock that times playback against capture (a simulated one in tests). */
    WebRtcFrontEnd(FrontEndSettings settings, java.util.function.LongSupplier nanoClock) {
        this(settings, nanoClock, null);
    }

    /**
     * Parley's linear canceller alone, where WebRTC's library could not load ({@code why}): echo cancellation and
     * full duplex still, but no high-pass filter, noise suppression or gain control.
     */
    static WebRtcFrontEnd linearOnly(FrontEndSettings settings, java.util.function.LongSupplier nanoClock, String why) {
        if (settings.echoCanceller() != EchoCanceller.LINEAR) {
            throw new IllegalArgumentException("expected settings with the linear echo canceller but found "
                    + settings.echoCanceller());
        }
        return new WebRtcFrontEnd(settings, nanoClock, why);
    }

    private WebRtcFrontEnd(FrontEndSettings settings, java.util.function.LongSupplier nanoClock, String withoutWebRtc) {
        this.settings = settings;
        this.withoutWebRtc = withoutWebRtc;
        this.render = new RenderTimeline(RENDER_CAPACITY, nanoClock);
        Arrays.fill(renderLevels, LevelMeter.SILENCE_DBFS);
        this.linear = settings.echoCanceller() == EchoCanceller.LINEAR
                ? new LinearEchoCanceller(SAMPLE_RATE, TAIL_MILLIS, true) : null;
        stats = new FrontEndStats(settings.echoCancellation(), 0, 0, 0, 0);
        if (withoutWebRtc != null) {
            this.apm = null;
            this.denoiser = null;
            this.streamConfig = null;
            return;
        }
        this.streamConfig = new AudioProcessingStreamConfig(SAMPLE_RATE, 1);
        this.apm = new AudioProcessing();
        NoiseSuppression ns = settings.noiseSuppression();
        suppressing = ns != NoiseSuppression.OFF && ns != NoiseSuppression.AUTO;
        suppressed = suppressing;
        AudioProcessingConfig c = new AudioProcessingConfig();
        c.echoCanceller.enabled = settings.echoCanceller() == EchoCanceller.AEC3;
        c.echoCanceller.enforceHighPassFiltering = c.echoCanceller.enabled;
        c.highPassFilter.enabled = settings.highPassFilter();
        c.noiseSuppression.enabled = suppressing;
        c.noiseSuppression.level = level(ns);
        c.gainControl.enabled = settings.gainControl();
        c.gainControl.adaptiveDigital.enabled = settings.gainControl();
        apm.applyConfig(c);
        if (ns == NoiseSuppression.AUTO) {
            this.denoiser = new AudioProcessing();
            AudioProcessingConfig d = new AudioProcessingConfig();
            d.echoCanceller.enabled = false;
            d.highPassFilter.enabled = false;
            d.noiseSuppression.enabled = true;
            d.noiseSuppression.level = level(ns);
            d.gainControl.enabled = false;
            denoiser.applyConfig(d);
        } else {
            this.denoiser = null;
        }
    }

    private static AudioProcessingConfig.NoiseSuppression.Level level(NoiseSuppression ns) {
        return switch (ns) {
            case LOW -> AudioProcessingConfig.NoiseSuppression.Level.LOW;
            case MODERATE -> AudioProcessingConfig.NoiseSuppression.Level.MODERATE;
            case HIGH, AUTO -> AudioProcessingConfig.NoiseSuppression.Level.HIGH;
            case VERY_HIGH, OFF -> AudioProcessingConfig.NoiseSuppression.Level.VERY_HIGH;
        };
    }

    /**
     * {@link NoiseSuppression#AUTO}: judges the room's noise on each frame that nothing has played into for {@value
     * #NOISE_AFTER_PLAYING_FRAMES} frames (the canceller's output, before WebRTC's module), and switches between the plain
     * and the noise-suppressed output when the judgement changes (rarely: {@link SteadyNoise} holds it between two
     * spreads).
     */
    private void judgeNoise() {
        if (sincePlayed < NOISE_AFTER_PLAYING_FRAMES || !steadyNoise.add(LevelMeter.rmsDbfs(frame, 0, FRAME_SAMPLES))) {
            return;
        }
        suppressing = steadyNoise.steady();
        LOG.log(System.Logger.Level.DEBUG, String.format(java.util.Locale.ROOT,
                "noise suppression %s %.2f s into the capture: the room's noise at %.1f dBFS varies by %.1f dB (steady at "
                        + "%.1f or less, above %.0f dBFS)", suppressing ? "on" : "off", frames / 100.0,
                steadyNoise.floorDbfs(), steadyNoise.spreadDb(),
                SteadyNoise.STEADY_DB, SteadyNoise.AUDIBLE_DBFS));
    }

    @Override
    public void played(PcmAudio audio) {
        if (settings.echoCancellation()) {
            render.add(audio, Long.MIN_VALUE);
        }
    }

    @Override
    public void played(PcmAudio audio, long startsAtNanos) {
        if (settings.echoCancellation()) {
            render.add(audio, startsAtNanos);
        }
    }

    @Override
    public void flushed() {
        render.flush();
    }

    @Override
    public synchronized PcmAudio process(PcmAudio captured) {
        if (captured.sampleRate() != SAMPLE_RATE) {
            throw new IllegalArgumentException("expected " + SAMPLE_RATE + " Hz capture audio but found "
                    + captured.sampleRate() + " Hz");
        }
        received += captured.length();
        render.captured(received);
        int ready = chunker.add(captured.samples());
        short[] result = new short[ready * FRAME_SAMPLES];
        for (int f = 0; f < ready && chunker.next(frame); f++) {
            if (closed) {
                System.arraycopy(frame, 0, result, f * FRAME_SAMPLES, FRAME_SAMPLES);
                continue;
            }
            if (settings.echoCancellation()) {
                render.take(capturePosition, renderFrame);
                noteRenderLevel();
                if (linear == null) {
                    toBytes(renderFrame, renderIn);
                    check(apm.processReverseStream(renderIn, streamConfig, streamConfig, renderOut),
                            "processReverseStream");
                }
            }
            System.arraycopy(frame, 0, capturedFrame, 0, FRAME_SAMPLES);
            if (linear != null) {
                long run = render.run();
                long offset = aligner.frame(run, render.runStart(), capturePosition, renderFrame, capturedFrame);
                if (offset != 0) {
                    render.offsetRun(run, offset);
                    LOG.log(System.Logger.Level.DEBUG, "playback run " + run + " sounds " + offset
                            + " samples off the echo canceller's lag (" + aligner.learntLag() + "): moved back onto it");
                }
                boolean measuring = aligner.holding();
                if (measuring && !aligning) {
                    linear.beginTrial();
                } else if (!measuring && aligning) {
                    linear.endTrial();
                }
                aligning = measuring;
                linear.process(renderFrame, frame, frame);
            }
            if (apm == null) {
                System.arraycopy(frame, 0, result, f * FRAME_SAMPLES, FRAME_SAMPLES);
                noteConvergence(capturedFrame, result, f * FRAME_SAMPLES);
                capturePosition += FRAME_SAMPLES;
                frames++;
                if (frames % STATS_EVERY_FRAMES == 0) {
                    updateStats();
                }
                continue;
            }
            if (denoiser != null) {
                judgeNoise();           // NoiseSuppression.AUTO
            }
            toBytes(frame, in);
            int rc = apm.processStream(in, streamConfig, streamConfig, out);
            if (check(rc, "processStream")) {
                if (denoiser != null) {
                    choose(result, f * FRAME_SAMPLES);
                } else {
                    fromBytes(out, result, f * FRAME_SAMPLES);
                }
                if (settings.echoCancellation()) {
                    noteConvergence(capturedFrame, result, f * FRAME_SAMPLES);
                }
            } else {
                System.arraycopy(frame, 0, result, f * FRAME_SAMPLES, FRAME_SAMPLES);
            }
            capturePosition += FRAME_SAMPLES;
            frames++;
            if (frames % STATS_EVERY_FRAMES == 0) {
                updateStats();
            }
        }
        return new PcmAudio(result, SAMPLE_RATE);
    }

    /**
     * {@link NoiseSuppression#AUTO}: runs the module's output through the denoiser (always, so that it keeps learning
     * the noise) and puts out one or the other, crossfading over the frame where the choice changed.
     */
    private void choose(short[] result, int offset) {
        fromBytes(out, plain, 0);
        boolean denoisedOk = check(denoiser.processStream(out, streamConfig, streamConfig, denoised), "processStream");
        if (denoisedOk) {
            fromBytes(denoised, quieter, 0);
        } else {
            System.arraycopy(plain, 0, quieter, 0, FRAME_SAMPLES);
        }
        boolean now = suppressing;
        for (int i = 0; i < FRAME_SAMPLES; i++) {
            double to = now ? quieter[i] : plain[i];
            double from = suppressed ? quieter[i] : plain[i];
            double t = now == suppressed ? 1 : (i + 1) / (double) FRAME_SAMPLES;
            result[offset + i] = (short) Math.round(from + (to - from) * t);
        }
        suppressed = now;
    }

    /**
     * Frames (10 ms) after the last one that played before the room's noise is judged again (1 s): the echo's tail,
     * and the residual suppressor's hold over it, which takes the room's noise down with the echo. Judged from 300 ms
     * on, the frames after the listening cue made a fan look unsteady (its 5th percentile 2 dB lower) in every room of
     * the offline sweep at SNR 20, and the suppressor went off again for the first question.
     */
    static final int NOISE_AFTER_PLAYING_FRAMES = 100;

    /** Playback at or above this level (dBFS) counts as playing: for convergence, and against judging the room's noise. */
    static final double PLAYING_DBFS = -50;

    /** A frame holds echo where it is this much (energy, 10 dB) above the room's quiet. */
    static final double ECHO_ABOVE_QUIET = 10;
    /** How fast the room's quiet may rise per 10 ms frame (0.04 dB). */
    private static final double QUIET_RISE = 1.01;

    /**
     * The energies in and out over the frames with echo are smoothed over about the last 20 of them (200 ms). Over
     * half a second (0.98), the frames before the canceller had learnt the room weighed on for as long: after the
     * listening cue had trained it, the first reply still counted as unconverged for 0.25-0.5 s in {@code bench duplex}
     * while the canceller took 20-35 dB off its echo (in the offline replica of its rooms: converged 0.02-0.18 s into
     * the reply at SNR 20 against 0.04-0.23 s, and without the cue 0.7-1.7 s against 0.7-3.4 s).
     */
    static final double CONVERGENCE_SMOOTHING = 0.95;

    /** Frames of playback (10 ms) before AEC3 may count as converged. */
    static final int AEC3_CONVERGENCE_FRAMES = 100;
    /** The same for Parley's canceller. */
    static final int LINEAR_CONVERGENCE_FRAMES = 30;

    /**
     * Frames with playback above -50 dBFS whose capture stands 10 dB above the room's quiet (its echo has come)
     * count towards convergence: 10 dB removed over at least
     * {@value #AEC3_CONVERGENCE_FRAMES} frames of playback with AEC3, {@value #LINEAR_CONVERGENCE_FRAMES} with Parley's
     * canceller, whose suppressor takes the echo down from its first estimates (docs/audio.md): held a second, the
     * first reply was deaf to a barge-in. Counted on every frame with playback, the 10 dB came from the room's noise
     * before the echo arrived (the duplex benchmark's kitchen, 120 ms of latency): the first echo then passed at
     * 0.5-2 dB of reduction and looked like the user's voice.
     */
    private void noteConvergence(short[] captured, short[] cleaned, int offset) {
        if (converged) {
            return;
        }
        double in = 0;
        double out = 0;
        for (int i = 0; i < FRAME_SAMPLES; i++) {
            in += (double) captured[i] * captured[i];
            out += (double) cleaned[offset + i] * cleaned[offset + i];
        }
        // the room's quiet: the quietest frames of late (it falls at once, rises by about 4 dB a second)
        roomQuiet = Math.min(roomQuiet * QUIET_RISE, Math.max(in, 1));
        if (LevelMeter.rmsDbfs(renderFrame, 0, FRAME_SAMPLES) < PLAYING_DBFS || in < ECHO_ABOVE_QUIET * roomQuiet) {
            return;         // nothing plays, or its echo has not reached the microphone yet (the device's latency)
        }
        playingIn = CONVERGENCE_SMOOTHING * playingIn + in;
        playingOut = CONVERGENCE_SMOOTHING * playingOut + out;
        playingFrames++;
        int needed = linear != null ? LINEAR_CONVERGENCE_FRAMES : AEC3_CONVERGENCE_FRAMES;
        if (playingFrames >= needed && playingIn > 0 && playingIn >= 10 * Math.max(playingOut, 1)) {
            converged = true;
            LOG.log(System.Logger.Level.DEBUG, String.format(java.util.Locale.ROOT,
                    "echo canceller converged after %d frames of playback with echo: %.1f dB removed", playingFrames,
                    10 * Math.log10(playingIn / Math.max(playingOut, 1))));
        }
    }

    @Override
    public boolean echoConverged() {
        return converged && !aligning;
    }

    /** A run of playback is being measured against the learnt lag (its echo may pass until it is moved back). */
    private volatile boolean aligning;

    private void noteRenderLevel() {
        double now = LevelMeter.rmsDbfs(renderFrame, 0, FRAME_SAMPLES);
        sincePlayed = now >= PLAYING_DBFS ? 0 : Math.min(sincePlayed, NOISE_AFTER_PLAYING_FRAMES) + 1;
        renderLevels[renderLevelIndex] = now;
        renderLevelIndex = (renderLevelIndex + 1) % renderLevels.length;
        double max = LevelMeter.SILENCE_DBFS;
        for (double l : renderLevels) {
            max = Math.max(max, l);
        }
        renderLevel = max;
    }

    /** True when {@code rc} is WebRTC's "no error"; other codes are logged once and the frame passes unchanged. */
    private boolean check(int rc, String call) {
        if (rc == 0) {
            return true;
        }
        if (errors++ == 0) {
            LOG.log(System.Logger.Level.WARNING, "WebRTC audio processing: " + call + " returned error " + rc
                    + "; the frame passes unprocessed (logged once)");
        }
        return false;
    }

    private void updateStats() {
        if (linear != null) {
            stats = new FrontEndStats(settings.echoCancellation(), linear.erleDb(), 0,
                    linear.delayMillis(SAMPLE_RATE) - LinearEchoCanceller.MARGIN * 1000 / SAMPLE_RATE, frames);
            return;
        }
        AudioProcessingStats s = apm.getStatistics();
        stats = new FrontEndStats(settings.echoCancellation(), s.echoReturnLossEnhancement, s.echoReturnLoss,
                s.delayMs, frames);
    }

    private static void toBytes(short[] s, byte[] b) {
        for (int i = 0; i < s.length; i++) {
            b[2 * i] = (byte) s[i];
            b[2 * i + 1] = (byte) (s[i] >> 8);
        }
    }

    private static void fromBytes(byte[] b, short[] s, int offset) {
        for (int i = 0; i < b.length / 2; i++) {
            s[offset + i] = (short) ((b[2 * i] & 0xff) | (b[2 * i + 1] << 8));
        }
    }

    @Override
    public boolean cancelsEcho() {
        return settings.echoCancellation();
    }

    @Override
    public String description() {
        String canceller = switch (settings.echoCanceller()) {
            case LINEAR -> "on (Parley's linear canceller, " + TAIL_MILLIS + " ms, and residual suppressor)";
            case AEC3 -> "on (WebRTC AEC3)";
            case OFF -> "off";
        };
        if (apm == null) {
            return "Parley's linear echo canceller (" + TAIL_MILLIS + " ms) and residual suppressor without WebRTC's "
                    + "module (" + withoutWebRtc + "): no high-pass filter, noise suppression or gain control";
        }
        return "WebRTC audio processing: echo cancellation " + canceller
                + ", noise suppression " + settings.noiseSuppression().label()
                + (settings.noiseSuppression() == NoiseSuppression.AUTO
                        ? " (high in steady noise, now " + (suppressing ? "on" : "off") + ")" : "")
                + ", high-pass filter " + (settings.highPassFilter() ? "on" : "off")
                + ", gain control " + (settings.gainControl() ? "on" : "off");
    }

    /** Whether WebRTC's noise suppressor runs now (with {@link NoiseSuppression#AUTO}: the room's noise is steady). */
    public boolean suppressingNoise() {
        return suppressing;
    }

    /** Parley's canceller holds the microphone back by its margin, block and hop; WebRTC's module adds nothing. */
    @Override
    public int latencySamples() {
        return linear != null ? linear.latencySamples() : 0;
    }

    @Override
    public double renderLevelDbfs() {
        return renderLevel;
    }

    @Override
    public FrontEndStats stats() {
        FrontEndStats s = stats;
        return new FrontEndStats(s.echoCancelling(), s.erleDb(), s.echoReturnLossDb(), s.delayMs(), frames);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            if (denoiser != null) {
                denoiser.dispose();
            }
            if (apm != null) {
                apm.dispose();
            }
        }
    }
}
