package dev.parley.app.gui.voice;

import dev.parley.app.voice.KeepOpenSynthesizer;
import dev.parley.audio.CancellationSignal;
import dev.parley.audio.Exchange;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.Responder;
import dev.parley.audio.Speculation;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.ResilientMicrophone;
import dev.parley.audio.device.AudioLines;
import dev.parley.audio.device.DeviceFault;
import dev.parley.audio.device.DeviceWatcher;
import dev.parley.audio.device.JavaSoundLines;
import dev.parley.audio.device.RetryPolicy;
import dev.parley.audio.playback.ResilientSpeaker;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.FrontEndStats;
import dev.parley.audio.frontend.FrontEnds;
import dev.parley.audio.vad.SileroVadSettings;
import dev.parley.audio.vad.VadChoice;
import dev.parley.audio.vad.VadFactory;
import dev.parley.audio.tts.SpeechSynthesizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The real {@link VoiceControl}: the audio module's {@link VoicePipeline} on the microphone and
 * speaker, with Vosk from {@code voskModel} and a synthesizer the app owns (MaryTTS starts once).
 * Spoken turns go to {@link SpokenTurns} (the chat service: stored marked spoken), live state to
 * {@link VoiceEvents}, each finished exchange (with its stage latencies) to the exchange listeners and,
 * paired with the chat turn that answered it, to {@link SpokenTurns#measured}.
 * Every captured frame goes through the same audio front end as {@code parley talk} ({@link FrontEnds}: WebRTC echo
 * cancellation, full duplex where it runs, half-duplex where it cannot load).
 * Hands-free turns are answered speculatively, as in {@code parley talk}: the reply starts after
 * {@link VoiceSettings#speculateAfterMillis()} of silence and is heard (and stored) only when the end of the turn
 * confirms the same words; the user speaking on withdraws it unheard.
 * Switching hands-free on or off restarts the pipeline in the other mode.
 */
public final class PipelineVoice implements VoiceControl {
    private static final System.Logger LOG = System.getLogger(PipelineVoice.class.getName());
    private final Path voskModel;
    private final String inputDevice;
    private volatile AudioLines lines = new JavaSoundLines();
    private final String outputDevice;
    private final SpeechSynthesizer tts;
    private final List<Consumer<Exchange>> exchangeListeners = new CopyOnWriteArrayList<>();
    private VoiceSettings settings;
    private volatile VoicePipeline pipeline;    // read without the lock by frontEndStats
    private MutableSource source;
    private SpokenTurns turns;
    private VoiceEvents events;
    private volatile boolean muted;
    private FrontEndSettings frontEnd = FrontEndSettings.defaults();
    /** Opens the voice activity detector of each start; holds ONNX Runtime's environment, so one for the window. */
    private final VadFactory vads = new VadFactory(m -> LOG.log(System.Logger.Level.WARNING, m));
    private VadChoice vadChoice = VadChoice.ENERGY;
    private Path sileroModel;

    /**
     * @param voskModel    Vosk model folder
     * @param inputDevice  capture mixer name, or null for the default
     * @param outputDevice playback mixer name, or null for the default
     * @param tts          the speech synthesizer (not closed here)
     * @param settings     the loop's settings (the mode follows {@link #setHandsFree})
     */
    public PipelineVoice(Path voskModel, String inputDevice, String outputDevice, SpeechSynthesizer tts, VoiceSettings settings) {
        this.voskModel = voskModel;
        this.inputDevice = inputDevice;
        this.outputDevice = outputDevice;
        this.tts = tts;
        this.settings = settings;
    }

    /** Where the next start opens its microphone and speaker lines (Java Sound unless a test says otherwise). */
    public void audioLines(AudioLines lines) {
        this.lines = lines;
    }

    /** Calls {@code listener} with every finished exchange (interrupted ones marked), on the loop's thread. */
    public void addExchangeListener(Consumer<Exchange> listener) {
        exchangeListeners.add(listener);
    }

    @Override
    public Optional<String> unavailableReason() {
        try {
            VoskRecognizer.checkModelFolder(voskModel);
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    @Override
    public synchronized void start(SpokenTurns turns, VoiceEvents events) throws IOException {
        if (pipeline != null) {
            throw new IllegalStateException("the voice loop is already running");
        }
        this.turns = turns;
        this.events = events;
        MicrophoneSource.Options options = MicrophoneSource.Options.defaults();
        // a device that is busy or absent, at start or later, is said in the voice bar and tried again until it works
        ResilientMicrophone mic = ResilientMicrophone.open(inputDevice == null ? options : options.withMixer(inputDevice),
                lines, RetryPolicy.defaults());
        ResilientSpeaker sink = ResilientSpeaker.open(outputDevice, tts.sampleRate(), lines, RetryPolicy.defaults());
        VoskRecognizer vosk;
        try {
            vosk = VoskRecognizer.load(voskModel);
        } catch (IOException | RuntimeException e) {
            mic.close();
            sink.close();
            throw e;
        }
        source = new MutableSource(mic);
        // Turn numbers start again with each pipeline, so each start pairs its own turns.
        VoiceTurnLink link = new VoiceTurnLink((chatTurn, latency) -> turns.measured(chatTurn, latency));
        AtomicLong replying = new AtomicLong(-1);
        pipeline = new VoicePipeline(source, vosk, new TurnsResponder(turns, link, replying),
                new KeepOpenSynthesizer(tts), sink, settings, FrontEnds.open(frontEnd),
                vads.open(vadChoice, sileroModel, settings.vad(), SileroVadSettings.defaults()));
        pipeline.addListener(new Events(events, link, replying));
        pipeline.start();
    }

    @Override
    public synchronized void pushToTalk(boolean pressed) {
        if (pipeline != null) {
            pipeline.pushToTalk(pressed);
        }
    }

    @Override
    public synchronized void setHandsFree(boolean on) throws IOException {
        VoiceSettings.Mode mode = on ? VoiceSettings.Mode.HANDS_FREE : VoiceSettings.Mode.PUSH_TO_TALK;
        if (settings.mode() == mode) {
            return;
        }
        settings = settings.withMode(mode);
        if (pipeline != null) {
            stop();
            try {
                start(turns, events);
            } catch (IOException e) {
                throw new IOException("could not restart the voice loop in " + mode + " mode: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void setMuted(boolean muted) {
        this.muted = muted;
    }

    @Override
    public synchronized void interrupt() {
        if (pipeline != null) {
            pipeline.interrupt();
        }
    }

    /** The front end the next start uses (a running loop keeps its own until restarted). */
    /**
     * The voice activity detector of the next start: Silero on {@code model} where it loads, else the energy
     * detector (the factory says why once).
     */
    public synchronized void voiceActivity(VadChoice choice, Path model) {
        this.vadChoice = choice;
        this.sileroModel = model;
    }

    public synchronized void frontEndSettings(FrontEndSettings settings) {
        this.frontEnd = settings;
    }

    /** The echo canceller's live figures (ERLE, delay) for the dashboard, or none while the loop is stopped. */
    @Override
    public Optional<FrontEndStats> frontEndStats() {
        VoicePipeline p = pipeline;
        return p == null ? Optional.empty() : Optional.of(p.frontEndStats());
    }

    /** Whether the loop is listening. */
    public synchronized boolean running() {
        return pipeline != null;
    }

    /** The speculative replies of the running loop (started, confirmed); zero when it is not running. */
    public synchronized Speculation speculation() {
        return pipeline == null ? new Speculation(0, 0) : pipeline.speculation();
    }

    @Override
    public synchronized void close() {
        stop();
    }

    private void stop() {
        if (pipeline != null) {
            try {
                pipeline.close();
            } catch (IOException e) {
                if (events != null) {
                    events.error("voice: " + e.getMessage());
                }
            }
            pipeline = null;
        }
    }

    /**
     * The pipeline's responder on the app's {@link SpokenTurns}: speculative when they can be (as {@code parley
     * talk}: the reply starts at a pause and is heard, shown and stored only once the end of the turn confirms it);
     * a withdrawn speculation left nothing behind, so there is nothing to retract.
     */
    private static final class TurnsResponder implements Responder {
        private final SpokenTurns turns;
        private final VoiceTurnLink link;
        private final AtomicLong replying;

        TurnsResponder(SpokenTurns turns, VoiceTurnLink link, AtomicLong replying) {
            this.turns = turns;
            this.link = link;
            this.replying = replying;
        }

        @Override
        public void respond(String text, Consumer<String> pieces, CancellationSignal cancel) throws Exception {
            replying.set(-1);
            answered(turns.respond(text, pieces, cancel::isCancelled));
        }

        @Override
        public void respondSpeculatively(String text, Consumer<String> pieces, CancellationSignal cancel,
                                         CompletionStage<Boolean> heard) throws Exception {
            replying.set(-1);
            answered(turns.speculate(text, pieces, cancel::isCancelled, heard));
        }

        @Override
        public boolean canRetract() {
            return turns.speculates();
        }

        @Override
        public void retract() {
            // nothing to undo: the spoken turns stored and showed nothing of a withdrawn speculation
        }

        private void answered(long chatTurn) {
            long voiceTurn = replying.get();
            if (voiceTurn >= 0 && chatTurn >= 0) {
                link.answered(voiceTurn, chatTurn);
            }
        }
    }

    /** The microphone, delivering silence while muted (frames keep flowing, so end-of-turn silence still works). */
    private final class MutableSource implements AudioSource {
        private final AudioSource inner;

        MutableSource(AudioSource inner) {
            this.inner = inner;
        }

        @Override
        public int sampleRate() {
            return inner.sampleRate();
        }

        @Override
        public PcmAudio read() throws IOException, InterruptedException {
            PcmAudio frame = inner.read();
            return frame == null || !muted ? frame : new PcmAudio(new short[frame.length()], frame.sampleRate());
        }

        @Override
        public long droppedFrames() {
            return inner.droppedFrames();
        }

        @Override
        public void watch(DeviceWatcher watcher) {
            inner.watch(watcher);
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }

    /** Hands the pipeline's events to the UI's and the exchange listeners. */
    private final class Events implements VoiceListener {
        private final VoiceEvents ui;
        private final VoiceTurnLink link;
        private final AtomicLong replying;

        Events(VoiceEvents ui, VoiceTurnLink link, AtomicLong replying) {
            this.ui = ui;
            this.link = link;
            this.replying = replying;
        }

        @Override
        public void replyText(long turn, String piece) {
            replying.set(turn);       // called while the responder of this turn runs
        }

        @Override
        public void level(double dbfs) {
            ui.level(dbfs);
        }

        @Override
        public void partial(Transcript.Partial partial) {
            ui.partial(partial.text());
        }

        @Override
        public void speaking(long turn, String sentence) {
            ui.speaking(true);
        }

        @Override
        public void bargeIn(long turn) {
            ui.speaking(false);
        }

        @Override
        public void turnFinished(Exchange exchange) {
            ui.speaking(false);
            link.finished(exchange.turn(), exchange.latency());
            for (Consumer<Exchange> l : exchangeListeners) {
                l.accept(exchange);
            }
        }

        @Override
        public void deviceFault(DeviceFault fault) {
            ui.deviceFault(fault.message());
        }

        @Override
        public void deviceRecovered(DeviceFault.Kind kind, String device) {
            ui.deviceRecovered();
        }

        @Override
        public void error(Throwable error) {
            ui.error("voice: " + error.getMessage());
        }
    }
}
