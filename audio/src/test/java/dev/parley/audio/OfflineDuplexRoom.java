package dev.parley.audio;

import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.SimulatedClockFrontEnds;
import dev.parley.audio.vad.SileroModelFile;
import dev.parley.audio.vad.SileroVadSettings;
import dev.parley.audio.vad.VadChoice;
import dev.parley.audio.vad.VadFactory;
import dev.parley.audio.vad.VoiceActivityDetector;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A room for the listen loop in full duplex, run as fast as the machine goes and the same on every run: the reply
 * plays through an impulse response into the microphone beside what the room holds, the front end cancels it on a
 * simulated clock, and the loop's host starts, holds, resumes and stops the reply as the voice pipeline would. The
 * speaker is simulated (hardware); the front end, the VAD and the recognizer are the real ones. Sounds can be placed
 * from the start, from when the first reply starts, and from when it has played out. Frames of 20 ms; the reply's
 * reference is handed to the front end 60 ms ahead of the capture, as {@code SpeakerSink} does. Not thread-safe: the
 * loop's thread drives it.
 */
final class OfflineDuplexRoom implements AudioSource, ListenLoop.Host {
    static final int RATE = 16_000;
    private static final boolean TRACE = Boolean.getBoolean("room.trace");
    private static final int FRAME = 320;
    private static final int LEAD = 3 * FRAME;

    private final double[] ir;
    private final double echoGain;
    private final short[] reply;
    private final Set<String> replyWords;
    private final double[] direct;
    private final short[] played;
    private final short[] captured;
    /** The front end's output set against the capture of the same moment (its latency taken out). */
    private final short[] cleanedAll;
    private final List<Placed> afterReplyStarts = new ArrayList<>();
    private final List<Placed> afterReplyEnds = new ArrayList<>();
    private final AtomicLong clock;
    private AudioFrontEnd frontEnd;
    private int capturePos;
    private int renderPos;
    private int replyPos = -1;
    private boolean paused;
    private boolean replying;
    private int replies;
    private int replyEndedAt = -1;
    private int lastReplySample;
    private long cleaned;
    private double lastReduction;
    private final List<String> turns = new ArrayList<>();
    private int holds;
    private int resumes;
    private final List<Throwable> errors = new ArrayList<>();
    private final List<Event> events = new ArrayList<>();
    private int replyStartedAt = -1;

    /** What the loop asked of the reply, and where on the room's timeline (ms from the start, at the capture). */
    record Event(String what, int atMillis) {
    }

    private record Placed(short[] sound, int afterSamples) {
    }

    /** A sound the speaker plays at a fixed moment (the listening cue), and where it starts, in samples. */
    private short[] cue;
    private int cueAt = -1;

    /**
     * @param seconds    the room's length
     * @param ir         the impulse response from the speaker to the microphone (its leading zeros: the latency)
     * @param echoGain   the reply's echo is {@code ir} convolved with it, times this
     * @param reply      what Parley says to every turn
     * @param replyText  its words (what the loop may hear of its echo)
     * @param clock      the front end's clock, ns: advanced 20 ms a captured frame
     */
    OfflineDuplexRoom(int seconds, double[] ir, double echoGain, short[] reply, String replyText, AtomicLong clock) {
        this.ir = ir;
        this.echoGain = echoGain;
        this.reply = reply;
        this.replyWords = new TreeSet<>(List.of(replyText.toLowerCase(Locale.ROOT).replaceAll("[^a-z' ]", " ")
                .strip().split("\\s+")));
        this.direct = new double[seconds * RATE];
        this.played = new short[seconds * RATE + LEAD];
        this.captured = new short[seconds * RATE];
        this.cleanedAll = new short[seconds * RATE];
        this.clock = clock;
    }

    /**
     * Runs the listen loop over the whole room, in full duplex, with Parley's front end on the room's clock, the Silero
     * VAD and Vosk's fixture model; returns whether the loop listened in full duplex. Skips the test where WebRTC's
     * library cannot load.
     */
    /** The product's front end, or another noise suppression where {@code -Dns=LEVEL} asks for it (tuning). */
    private static FrontEndSettings frontEndSettings() {
        String ns = System.getProperty("ns");
        return ns == null ? FrontEndSettings.defaults()
                : FrontEndSettings.defaults().withNoiseSuppression(dev.parley.audio.frontend.NoiseSuppression.parse(ns));
    }

    boolean run() throws Exception {
        try (AudioFrontEnd fe = SimulatedClockFrontEnds.open(frontEndSettings(), clock::get);
             VoskRecognizer vosk = VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant"));
             RecognitionStream asr = vosk.openStream(RATE);
             VoiceActivityDetector vad = new VadFactory(m -> {
                 throw new AssertionError("the Silero VAD did not open: " + m);
             }).open(VadChoice.SILERO, SileroModelFile.require(), VoiceSettings.defaults().vad(),
                     SileroVadSettings.defaults())) {
            frontEnd = fe;
            ListenLoop loop = new ListenLoop(this, asr, VoiceSettings.defaults(), this, fe, vad, this::lastReductionDb);
            loop.run();
            return loop.fullDuplex();
        }
    }

    /** The speaker plays {@code sound} at {@code atMillis} from the start (Parley is active meanwhile). */
    void playAt(short[] sound, int atMillis) {
        cue = sound;
        cueAt = atMillis * RATE / 1000;
    }

    /** {@code sound} at {@code atMillis} from the start, times {@code gain}. */
    void say(short[] sound, int atMillis, double gain) {
        place(sound, atMillis * RATE / 1000, gain);
    }

    /** {@code sound} {@code millis} after the first reply starts to play. */
    void sayAfterReplyStarts(short[] sound, int millis) {
        afterReplyStarts.add(new Placed(sound, millis * RATE / 1000));
    }

    /** {@code sound} {@code millis} after the first reply has played out. */
    void sayAfterReplyEnds(short[] sound, int millis) {
        afterReplyEnds.add(new Placed(sound, millis * RATE / 1000));
    }

    private void place(short[] sound, int at, double gain) {
        for (int i = 0; i < sound.length && at + i < direct.length; i++) {
            direct[at + i] += gain * sound[i];
        }
    }

    @Override
    public int sampleRate() {
        return RATE;
    }

    @Override
    public PcmAudio read() {
        if (capturePos + FRAME > direct.length) {
            return null;
        }
        while (renderPos < capturePos + LEAD) {
            render();
        }
        short[] mic = new short[FRAME];
        for (int i = 0; i < FRAME; i++) {
            int t = capturePos + i;
            double echo = 0;
            for (int k = 0; k < ir.length && k <= t; k++) {
                if (played[t - k] != 0 && ir[k] != 0) {
                    echo += ir[k] * played[t - k];
                }
            }
            double v = direct[t] + echoGain * echo;
            mic[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
        }
        if (TRACE) {
            System.err.println("room t=" + capturePos / 16 + " ms");
        }
        System.arraycopy(mic, 0, captured, capturePos, FRAME);
        capturePos += FRAME;
        clock.addAndGet(FRAME * 1_000_000_000L / RATE);
        PcmAudio clean = frontEnd.process(new PcmAudio(mic, RATE));
        // as FrontEndSource does: set each cleaned frame against the capture of the same moment
        int from = (int) Math.max(0, cleaned - frontEnd.latencySamples());
        for (int i = 0; i < clean.length() && from + i < cleanedAll.length; i++) {
            cleanedAll[from + i] = clean.samples()[i];
        }
        cleaned += clean.length();
        lastReduction = LevelMeter.rmsDbfs(captured, from, Math.min(capturePos, from + clean.length()))
                - LevelMeter.rmsDbfs(clean);
        return clean;
    }

    /** The next 20 ms the speaker plays: the reply where it plays, else silence; handed to the front end as played. */
    private void render() {
        short[] piece = new short[FRAME];
        boolean cueing = cue != null && renderPos >= cueAt && renderPos < cueAt + cue.length;
        boolean streams = cueing || replying;      // before the reply's last piece ends it: that piece plays too
        if (cueing) {
            int n = Math.min(FRAME, cueAt + cue.length - renderPos);
            System.arraycopy(cue, renderPos - cueAt, piece, 0, n);
        } else if (replying && !paused) {
            int n = Math.min(FRAME, reply.length - replyPos);
            System.arraycopy(reply, replyPos, piece, 0, n);
            replyPos += n;
            lastReplySample = renderPos + n;
            if (replyPos >= reply.length) {
                replying = false;
                if (replyEndedAt < 0) {
                    replyEndedAt = renderPos + n;
                    for (Placed p : afterReplyEnds) {
                        place(p.sound(), replyEndedAt + p.afterSamples(), 1.0);
                    }
                }
            }
        }
        System.arraycopy(piece, 0, played, renderPos, FRAME);
        PcmAudio pcm = new PcmAudio(piece, RATE);
        if (!RUNS) {
            frontEnd.played(pcm);
        } else if (streams && !streaming) {
            // as the sink does: a stream that starts anew (after idle or a stop) is placed by the clock, RUN_OFFSET
            // samples off where it really sounds (a scheduling delay, a device's start)
            frontEnd.played(pcm, (renderPos + RUN_OFFSET) * 1_000_000_000L / RATE);
        } else if (streams) {
            frontEnd.played(pcm);
        }
        streaming = streams;
        renderPos += FRAME;
    }

    /**
     * {@code -Druns=true}: the reference as the product's sink hands it, each stream of playback (the cue, a reply after
     * idle or a stop) a run of its own, placed by the clock {@code -DrunOffset=N} samples off, and nothing while idle;
     * otherwise one stream from the start, silence included (the sweep before session 38).
     */
    private static final boolean RUNS = Boolean.getBoolean("runs");
    private static final int RUN_OFFSET = Integer.getInteger("runOffset", 0);
    private boolean streaming;

    /**
     * Writes what the microphone heard ({@code PREFIX-mic.wav}), what the front end left of it, set against the
     * capture ({@code -clean.wav}), the room without Parley's sound ({@code -direct.wav}: the user and the bed) and
     * what the speaker played ({@code -played.wav}, 60 ms longer, as handed to the front end): for listening to a case
     * and for replaying it through another front end ({@code ReplayCanceller}).
     */
    void dump(java.nio.file.Path prefix) throws java.io.IOException {
        short[] d = new short[direct.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(direct[i])));
        }
        dev.parley.audio.playback.WavWriter.write(prefix.resolveSibling(prefix.getFileName() + "-mic.wav"),
                new PcmAudio(captured, RATE));
        dev.parley.audio.playback.WavWriter.write(prefix.resolveSibling(prefix.getFileName() + "-clean.wav"),
                new PcmAudio(cleanedAll, RATE));
        dev.parley.audio.playback.WavWriter.write(prefix.resolveSibling(prefix.getFileName() + "-direct.wav"),
                new PcmAudio(d, RATE));
        dev.parley.audio.playback.WavWriter.write(prefix.resolveSibling(prefix.getFileName() + "-played.wav"),
                new PcmAudio(played, RATE));
    }

    double lastReductionDb() {
        return lastReduction;
    }

    List<String> turns() {
        return turns;
    }

    int holds() {
        return holds;
    }

    int resumes() {
        return resumes;
    }

    List<Throwable> errors() {
        return errors;
    }

    /** What the loop asked of the replies, in order. */
    List<Event> events() {
        return events;
    }

    /** Where the first reply started to play, ms from the start (-1 if none did). */
    int replyStartedMillis() {
        return replyStartedAt < 0 ? -1 : replyStartedAt * 1000 / RATE;
    }

    private int captureMillis() {
        return capturePos * 1000 / RATE;
    }

    /** Where the first reply played out, ms from the start (-1 if it never did). */
    int replyEndedMillis() {
        return replyEndedAt < 0 ? -1 : replyEndedAt * 1000 / RATE;
    }

    /**
     * Parley is active while a reply is held or rendered and until the capture has reached its last sample (as a sink
     * that drains before it says the reply has played), and over the cue.
     */
    @Override
    public boolean assistantActive() {
        boolean cueing = cue != null && capturePos >= cueAt && capturePos < cueAt + cue.length + LEAD;
        return replying || capturePos < lastReplySample || cueing;
    }

    @Override
    public void bargeIn() {
        replying = false;
        lastReplySample = 0;    // stopped: what was handed to the device is dropped
        paused = false;
        events.add(new Event("stop", captureMillis()));
    }

    @Override
    public void userTurn(Transcript.Final text, long speechEnd, long finalStamp) {
        turns.add(text.text());
        events.add(new Event("turn " + text.text(), captureMillis()));
        replying = true;
        paused = false;
        replyPos = 0;
        if (replies++ == 0) {
            replyStartedAt = renderPos;
            for (Placed p : afterReplyStarts) {
                place(p.sound(), renderPos + p.afterSamples(), 1.0);
            }
        }
    }

    @Override
    public void pauseReply() {
        paused = true;
        holds++;
        events.add(new Event("hold", captureMillis()));
    }

    @Override
    public void resumeReply() {
        paused = false;
        resumes++;
        events.add(new Event("resume", captureMillis()));
    }

    @Override
    public Set<String> echoWords() {
        return replyWords;
    }

    @Override
    public void level(double dbfs) {
    }

    @Override
    public void partial(Transcript.Partial partial) {
    }

    @Override
    public void error(Throwable t) {
        errors.add(t);
    }

    @Override
    public void close() {
    }
}
