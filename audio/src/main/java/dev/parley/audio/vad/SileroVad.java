package dev.parley.audio.vad;

import ai.onnxruntime.OrtEnvironment;
import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The neural voice-activity detector: the Silero VAD v5 model run by ONNX Runtime on 512-sample windows of 16 kHz
 * mono audio, with the hysteresis of {@link SileroVadSettings} over its speech probability. Frames of any length are
 * buffered into windows; each window is fed with the last 64 samples before it (the model's context) and the
 * recurrent state the previous window left, so the events depend only on the samples, never on how they were cut
 * into frames. Not thread-safe: one detector per audio stream. {@link #close()} frees its ONNX Runtime session; the
 * {@link OrtEnvironment} is the caller's (see {@link VadFactory}).
 */
public final class SileroVad implements VoiceActivityDetector {
    private static final int WINDOW = SileroVadSettings.WINDOW;
    private static final int CONTEXT = SileroSession.CONTEXT;

    private final SileroSession session;
    private final SileroVadSettings settings;
    private final float[] input = new float[SileroSession.INPUT];
    private final float[] state = new float[SileroSession.STATE];
    private int filled;                 // samples of the current window in input[CONTEXT..]
    private long samplesSeen;           // samples fed since creation or reset
    private long windows;
    private boolean inSpeech;
    private long candidateSamples;      // consecutive samples at or above the start threshold (not in speech)
    private long candidateFrom = -1;
    private long silentSamples;         // consecutive samples below the end threshold (in speech)
    private long lastVoicedEnd = -1;
    private long speechStartSample = -1;
    private long speechEndSample = -1;
    private double lastProbability;

    private SileroVad(SileroSession session, SileroVadSettings settings) {
        this.session = session;
        this.settings = settings;
    }

    /**
     * Opens the model file {@code model} in {@code env} (which stays the caller's).
     *
     * @throws IOException when the file is missing, unreadable or not a Silero VAD v5 model
     */
    public static SileroVad open(OrtEnvironment env, Path model, SileroVadSettings settings) throws IOException {
        if (env == null || settings == null) {
            throw new IllegalArgumentException("expected an ONNX Runtime environment and settings but found null");
        }
        return new SileroVad(SileroSession.open(env, model), settings);
    }

    /** The settings in use. */
    public SileroVadSettings settings() {
        return settings;
    }

    @Override
    public VadEvent process(PcmAudio frame) {
        List<VadTransition> t = feed(frame);
        return t.isEmpty() ? VadEvent.NONE : t.getLast().event();
    }

    /**
     * Feeds one frame and returns every change of speech state it completed, in order. A frame of up to 512 samples
     * (10 to 32 ms, as captured) completes at most one window and so holds at most one change; a longer frame can
     * hold several, which {@link #process} reduces to the last.
     *
     * @throws IllegalArgumentException when the frame is not 16 kHz
     */
    public List<VadTransition> feed(PcmAudio frame) {
        if (frame.sampleRate() != SileroVadSettings.SAMPLE_RATE) {
            throw new IllegalArgumentException("the Silero VAD expects 16000 Hz mono audio but found "
                    + frame.sampleRate() + " Hz: resample the audio to 16 kHz first");
        }
        List<VadTransition> out = List.of();
        short[] s = frame.samples();
        int i = 0;
        while (i < s.length) {
            int n = Math.min(WINDOW - filled, s.length - i);
            for (int k = 0; k < n; k++) {
                input[CONTEXT + filled + k] = s[i + k] / 32768f;
            }
            filled += n;
            i += n;
            samplesSeen += n;
            if (filled == WINDOW) {
                VadEvent e = window();
                if (e != VadEvent.NONE) {
                    if (out.isEmpty()) {
                        out = new ArrayList<>(2);
                    }
                    out.add(new VadTransition(e, samplesSeen));
                }
            }
        }
        return out;
    }

    /** Runs the model on the full window and applies the hysteresis. */
    private VadEvent window() {
        double p = session.run(input, state);
        lastProbability = p;
        windows++;
        // the last CONTEXT samples of this input become the next window's context
        System.arraycopy(input, SileroSession.INPUT - CONTEXT, input, 0, CONTEXT);
        filled = 0;
        long end = samplesSeen;
        long start = end - WINDOW;
        if (!inSpeech) {
            if (p >= settings.startThreshold()) {
                if (candidateFrom < 0) {
                    candidateFrom = start;
                }
                candidateSamples += WINDOW;
                if (candidateSamples >= settings.minSpeechSamples()) {
                    inSpeech = true;
                    speechStartSample = candidateFrom;
                    speechEndSample = -1;
                    lastVoicedEnd = end;
                    silentSamples = 0;
                    return VadEvent.SPEECH_START;
                }
            } else {
                candidateSamples = 0;
                candidateFrom = -1;
            }
            return VadEvent.NONE;
        }
        if (p >= settings.endThreshold()) {
            silentSamples = 0;
            lastVoicedEnd = end;
            return VadEvent.NONE;
        }
        silentSamples += WINDOW;
        if (silentSamples >= Math.max(settings.minSilenceSamples(), 1)) {
            inSpeech = false;
            speechEndSample = lastVoicedEnd;
            candidateSamples = 0;
            candidateFrom = -1;
            return VadEvent.SPEECH_END;
        }
        return VadEvent.NONE;
    }

    @Override
    public boolean inSpeech() {
        return inSpeech;
    }

    /** The speech probability of the last complete window (0 before the first). */
    @Override
    public double lastProbability() {
        return lastProbability;
    }

    /** Where the speech in progress or last heard began: the first sample of the run of windows that started it, or -1. */
    public long speechStartSample() {
        return speechStartSample;
    }

    /** Where the last speech ended: the end of its last window at or above the end threshold, or -1 while in speech. */
    public long speechEndSample() {
        return speechEndSample;
    }

    /** Samples fed since creation or the last reset. */
    public long samplesSeen() {
        return samplesSeen;
    }

    /** Windows the model has judged since creation (a reset does not clear it). */
    public long windowsRun() {
        return windows;
    }

    @Override
    public void reset() {
        Arrays.fill(input, 0);
        Arrays.fill(state, 0);
        filled = 0;
        samplesSeen = 0;
        inSpeech = false;
        candidateSamples = 0;
        candidateFrom = -1;
        silentSamples = 0;
        lastVoicedEnd = -1;
        speechStartSample = -1;
        speechEndSample = -1;
        lastProbability = 0;
    }

    @Override
    public String name() {
        return "silero";
    }

    /** Frees the ONNX Runtime session; the detector cannot be used afterwards. */
    @Override
    public void close() {
        session.close();
    }
}
