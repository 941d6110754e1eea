package dev.parley.audio;

import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.SpeechRecognizer;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.device.DeviceFault;
import dev.parley.audio.device.DeviceWatcher;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.FrameCost;
import dev.parley.audio.frontend.FrontEndSource;
import dev.parley.audio.frontend.FrontEndStats;
import dev.parley.audio.frontend.PassThroughFrontEnd;
import dev.parley.audio.playback.AudioSink;
import dev.parley.audio.playback.ListeningCue;
import dev.parley.audio.playback.PlaybackTap;
import dev.parley.audio.text.SentenceSplitter;
import dev.parley.audio.text.SpeechNormalizer;
import dev.parley.audio.tts.SpeechSynthesizer;
import dev.parley.audio.vad.EnergyVad;
import dev.parley.audio.vad.VoiceActivityDetector;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The voice loop: capture -> voice activity + recognition -> {@link Responder} -> sentence splitter
 * -> speech normalizer -> synthesis -> sink. Three threads (listen, respond, speak) plus the sink's
 * own, joined by bounded queues. When the user speaks while a reply is being generated or played
 * (barge-in), playback stops, the reply is cancelled and the new turn begins; the interrupted
 * exchange stays in {@link #history()}. Every turn's stage stamps are reported as a
 * {@link TurnLatency} in {@link VoiceListener#turnFinished}.
 *
 * <p>Every captured frame goes through the {@link AudioFrontEnd} first, which hears what the sink plays through
 * the sink's {@link PlaybackTap}. Where it cancels echo and half-duplex is off, the loop is full duplex (see
 * {@link ListenLoop}): speech over a reply holds it, words stop it, no words resume it.
 *
 * <p>The pipeline owns the components it is given and closes them all in {@link #close()}.
 */
public final class VoicePipeline implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(VoicePipeline.class.getName());
    private static final Turn NO_MORE_TURNS = new Turn(-1, "", -1, -1);

    private final AudioSource rawSource;
    private volatile AudioSource source;   // read without the lock by frontEndCost (the dashboard's timer)
    private final SpeechRecognizer recognizer;
    private final Responder responder;
    private final SpeechSynthesizer synthesizer;
    private final AudioSink sink;
    private final VoiceSettings settings;
    private final AudioFrontEnd frontEnd;
    private final VoiceActivityDetector vad;
    /** The sentences Parley spoke last (the echo words of full duplex). */
    private final Deque<String> spokenLately = new ArrayDeque<>();
    private final SpeechNormalizer normalizer = new SpeechNormalizer();
    private final List<VoiceListener> listeners = new CopyOnWriteArrayList<>();
    private final List<Exchange> history = new CopyOnWriteArrayList<>();
    private final BlockingQueue<Turn> turns;
    private final SpeakStage speak;
    private final AtomicReference<Turn> current = new AtomicReference<>();
    /** A reply started speculatively, waiting for the end of the turn to be heard (or withdrawn). */
    private final AtomicReference<Turn> tentative = new AtomicReference<>();
    private final AtomicLong speculated = new AtomicLong();
    private final AtomicLong confirmed = new AtomicLong();
    private final AtomicLong turnIds = new AtomicLong();
    private RecognitionStream stream;
    private volatile ListenLoop listen;
    private Thread listenThread;
    private Thread respondThread;
    private volatile boolean running;
    private boolean closed;

    /** A pipeline without audio front end (pass-through: half-duplex) and with the energy VAD. */
    public VoicePipeline(AudioSource source, SpeechRecognizer recognizer, Responder responder,
                         SpeechSynthesizer synthesizer, AudioSink sink, VoiceSettings settings) {
        this(source, recognizer, responder, synthesizer, sink, settings,
                new PassThroughFrontEnd("no audio front end (half-duplex)"), new EnergyVad(settings.vad()));
    }

    /**
     * @param frontEnd cleans every captured frame; it is given the sink's playback as its echo reference
     * @param vad      the voice-activity detector on the cleaned frames
     */
    public VoicePipeline(AudioSource source, SpeechRecognizer recognizer, Responder responder,
                         SpeechSynthesizer synthesizer, AudioSink sink, VoiceSettings settings,
                         AudioFrontEnd frontEnd, VoiceActivityDetector vad) {
        if (source.sampleRate() != AudioFrontEnd.SAMPLE_RATE && frontEnd.cancelsEcho()) {
            throw new IllegalArgumentException("expected " + AudioFrontEnd.SAMPLE_RATE
                    + " Hz capture for the audio front end but found " + source.sampleRate() + " Hz");
        }
        this.frontEnd = frontEnd;
        this.vad = vad;
        this.rawSource = source;
        this.source = source;
        this.recognizer = recognizer;
        this.responder = responder;
        this.synthesizer = synthesizer;
        this.sink = sink;
        this.settings = settings;
        this.turns = new ArrayBlockingQueue<>(settings.queueCapacity());
        this.speak = new SpeakStage(synthesizer, sink, settings.queueCapacity(), new SpeakStage.Host() {
            @Override
            public void speaking(Turn t, String sentence) {
                synchronized (spokenLately) {
                    spokenLately.addLast(sentence + " " + normalizer.normalize(sentence));
                    while (spokenLately.size() > 3) {
                        spokenLately.removeFirst();
                    }
                }
                fire(l -> l.speaking(t.id, sentence));
            }

            @Override
            public void played(Turn t) {
                finish(t);
            }

            @Override
            public void error(Exception e) {
                fire(l -> l.error(e));
            }
        });
    }

    /** Adds an observer (before or after start). */
    public void addListener(VoiceListener listener) {
        listeners.add(listener);
    }

    /** Opens the recognition stream and starts the stage threads. */
    public synchronized void start() throws IOException {
        if (running || closed) {
            throw new IllegalStateException(closed ? "the voice pipeline is closed" : "the voice pipeline is already running");
        }
        stream = recognizer.openStream(source.sampleRate());
        if (!(frontEnd instanceof PassThroughFrontEnd)) {
            source = new FrontEndSource(rawSource, frontEnd, settings.queueCapacity() * 4);
        }
        AudioSource cleaned = source;
        listen = new ListenLoop(source, stream, settings, new ListenHost(), frontEnd, vad,
                () -> cleaned instanceof FrontEndSource f ? f.lastReductionDb() : 0);
        sink.tap(frontEnd);
        DeviceWatcher devices = new Devices();
        rawSource.watch(devices);
        sink.watch(devices);
        running = true;
        respondThread = Thread.ofPlatform().name("parley-respond").daemon().start(this::respondLoop);
        speak.start();
        if (fullDuplex() && settings.listeningCue()) {
            // the echo canceller learns the room from it (ListeningCue), once the loop has heard the room's quiet
            speak.cue(ListeningCue.sound(), ListeningCue.DELAY_MILLIS);
        }
        listenThread = Thread.ofPlatform().name("parley-listen").daemon().start(listen);
    }

    /** Push-to-talk button state (only used in {@link VoiceSettings.Mode#PUSH_TO_TALK}). */
    public void pushToTalk(boolean pressed) {
        if (listen != null) {
            listen.setPushToTalk(pressed);
        }
    }

    /** Stops the current reply as if the user had barged in (e.g. a stop button). */
    public void interrupt() {
        bargeIn();
    }

    /** Finished exchanges, oldest first (interrupted ones included, marked). */
    public List<Exchange> history() {
        return List.copyOf(history);
    }

    /** Whether a reply is being generated or played. */
    public boolean isReplying() {
        return current.get() != null;
    }

    /** Replies started speculatively, and how many of them the end of the turn confirmed (the rest were withdrawn). */
    public Speculation speculation() {
        return new Speculation(speculated.get(), confirmed.get());
    }

    /** The audio front end's live figures (echo return loss enhancement, delay, its cost per frame). */
    public FrontEndStats frontEndStats() {
        return frontEnd.stats().withCost(frontEndCost());
    }

    /**
     * What the audio front end has cost per 10 ms frame since {@link #start()} (a snapshot; empty where no front end
     * runs, or before the start).
     */
    public FrameCost frontEndCost() {
        return source instanceof FrontEndSource f ? f.frameCost() : new FrameCost();
    }

    /** What the front end does (or why it does less than asked). */
    public String frontEndDescription() {
        return frontEnd.description();
    }

    /** Whether the loop listens while it talks: echo is cancelled and half-duplex is off. */
    public boolean fullDuplex() {
        return !settings.halfDuplex() && frontEnd.cancelsEcho();
    }

    /** The VAD's name ("energy", "silero"). */
    public String vadName() {
        return vad.name();
    }

    /** Frames the capture dropped because the pipeline fell behind. */
    public long droppedFrames() {
        return source.droppedFrames();
    }

    /** A microphone or speaker outage, said to the listeners; a turn the microphone lost mid-way is dropped. */
    private final class Devices implements DeviceWatcher {
        @Override
        public void fault(DeviceFault fault) {
            LOG.log(System.Logger.Level.WARNING, fault.message());
            ListenLoop l = listen;
            if (fault.kind() == DeviceFault.Kind.MICROPHONE && l != null) {
                l.deviceGap();
            }
            fire(v -> v.deviceFault(fault));
        }

        @Override
        public void recovered(DeviceFault.Kind kind, String device) {
            LOG.log(System.Logger.Level.INFO, "the " + kind.word() + " (" + device + ") works again");
            fire(v -> v.deviceRecovered(kind, device));
        }
    }

    private final class ListenHost implements ListenLoop.Host {
        @Override
        public boolean assistantActive() {
            return current.get() != null || sink.isPlaying();
        }

        @Override
        public void bargeIn() {
            VoicePipeline.this.bargeIn();
        }

        @Override
        public void pauseReply() {
            sink.pause();
            Turn t = current.get();
            fire(l -> l.replyHeld(t == null ? -1 : t.id, true));
        }

        @Override
        public void resumeReply() {
            sink.resume();
            Turn t = current.get();
            fire(l -> l.replyHeld(t == null ? -1 : t.id, false));
        }

        @Override
        public Set<String> echoWords() {
            Set<String> words = new HashSet<>();
            synchronized (spokenLately) {
                for (String sentence : spokenLately) {
                    for (String w : sentence.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}']+")) {
                        if (!w.isEmpty()) {
                            words.add(w);
                        }
                    }
                }
            }
            return words;
        }

        @Override
        public void userTurn(Transcript.Final text, long speechEnd, long finalStamp) {
            onUserTurn(text, speechEnd, finalStamp);
        }

        @Override
        public void tentativeTurn(String text, long speechEnd, long stamp) {
            onTentativeTurn(text, speechEnd, stamp);
        }

        @Override
        public void tentativeWithdrawn() {
            withdrawTentative();
        }

        @Override
        public void level(double dbfs) {
            fire(l -> l.level(dbfs));
        }

        @Override
        public void partial(Transcript.Partial partial) {
            fire(l -> l.partial(partial));
        }

        @Override
        public void error(Throwable t) {
            fire(l -> l.error(t));
        }
    }

    /** Starts the reply to what was heard so far, unheard until the turn ends with the same words. */
    private void onTentativeTurn(String text, long speechEnd, long stamp) {
        String words = text.replace("[unk]", "").strip();
        if (words.isEmpty() || !responder.canRetract() || current.get() != null) {
            return;
        }
        withdrawTentative();
        Turn t = new Turn(turnIds.incrementAndGet(), text, speechEnd, stamp, true);
        if (turns.offer(t)) {
            tentative.set(t);
            speculated.incrementAndGet();
        }
    }

    /** The user went on speaking: cancels the speculative reply, which the responder then retracts. */
    private void withdrawTentative() {
        Turn t = tentative.getAndSet(null);
        if (t != null) {
            t.withdrawn = true;
            t.cancel.cancel();
            t.release();
        }
    }

    private static String words(String transcript) {
        return transcript.replace("[unk]", " ").strip().replaceAll("\\s+", " ");
    }

    private void onUserTurn(Transcript.Final text, long speechEnd, long finalStamp) {
        Turn speculative = tentative.getAndSet(null);
        if (speculative != null) {
            if (!speculative.cancel.isCancelled() && words(speculative.userText).equals(words(text.text()))) {
                // The final transcript says what the reply was started on: let it be heard.
                confirmed.incrementAndGet();
                bargeIn();
                current.set(speculative);
                synchronized (speculative) {
                    // Listeners hear of the turn first, then of the reply text generated so far.
                    fire(l -> l.userTurn(speculative.id, text));
                    speculative.release();
                    String sofar = speculative.replyText();
                    if (!sofar.isEmpty()) {
                        fire(l -> l.replyText(speculative.id, sofar));
                    }
                }
                return;
            }
            speculative.withdrawn = true;
            speculative.cancel.cancel();
            speculative.release();
        }
        long id = turnIds.incrementAndGet();
        fire(l -> l.userTurn(id, text));
        String words = text.text().replace("[unk]", "").strip();
        if (words.isEmpty()) {
            return;                 // silence or speech the recognizer could not match: no reply
        }
        bargeIn();                  // full duplex: a new turn replaces a running one
        Turn t = new Turn(id, text.text(), speechEnd, finalStamp);
        current.set(t);
        if (!turns.offer(t)) {
            current.compareAndSet(t, null);
            fire(l -> l.error(new IllegalStateException("turn " + id + " dropped: the responder is " + turns.size() + " turns behind")));
        }
    }

    private void bargeIn() {
        Turn t = current.get();
        if (t == null) {
            if (sink.isPlaying()) {
                sink.stopNow();
            }
            return;
        }
        t.interrupted = true;
        t.cancel.cancel();
        sink.stopNow();
        t.lastSample = System.nanoTime();
        fire(l -> l.bargeIn(t.id));
        finish(t);
    }

    private void finish(Turn t) {
        if (t.finished.compareAndSet(false, true)) {
            if (t.lastSample < 0) {
                t.lastSample = System.nanoTime();
            }
            current.compareAndSet(t, null);
            Exchange e = t.exchange();
            history.add(e);
            LOG.log(System.Logger.Level.INFO, e.latency().toString());
            fire(l -> l.turnFinished(e));
        }
    }

    private void respondLoop() {
        try {
            while (running) {
                Turn t = turns.take();
                if (t == NO_MORE_TURNS) {
                    return;
                }
                if (!t.cancel.isCancelled()) {
                    respond(t);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void respond(Turn t) throws InterruptedException {
        SentenceSplitter splitter = new SentenceSplitter(settings.firstClauseMinChars(), settings.clauseMinChars());
        try {
            java.util.function.Consumer<String> pieces = piece -> {
                if (t.cancel.isCancelled() || piece == null || piece.isEmpty()) {
                    return;
                }
                Turn.stampOnce(t.firstText);
                synchronized (t) {
                    t.appendReply(piece);
                    if (t.released()) {     // a speculative reply's text is reported once it is confirmed
                        fire(l -> l.replyText(t.id, piece));
                    }
                }
                for (String s : splitter.feed(piece)) {
                    sendSentence(t, s);
                }
            };
            if (t.speculative) {
                responder.respondSpeculatively(t.userText, pieces, t.cancel, t.verdict());
            } else {
                responder.respond(t.userText, pieces, t.cancel);
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            if (!t.cancel.isCancelled()) {
                fire(l -> l.error(new IOException("the responder failed on turn " + t.id + ": " + e.getMessage(), e)));
            }
        }
        if (!t.cancel.isCancelled()) {
            for (String s : splitter.flush()) {
                sendSentence(t, s);
            }
            speak.endOfReply(t);
        }
        if (t.speculative) {
            // The next turn is this one confirmed, or one that comes after it was withdrawn: wait for that.
            t.awaitRelease();
            if (t.withdrawn) {
                try {
                    responder.retract();
                } catch (RuntimeException e) {
                    fire(l -> l.error(new IllegalStateException("the responder could not retract a speculative reply: "
                            + e.getMessage(), e)));
                }
            }
        }
    }

    private void sendSentence(Turn t, String sentence) {
        Turn.stampOnce(t.firstSentence);
        try {
            speak.sentence(t, sentence);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            t.cancel.cancel();
        }
    }

    private void fire(Consumer<VoiceListener> event) {
        for (VoiceListener l : listeners) {
            try {
                event.accept(l);
            } catch (RuntimeException e) {
                // a listener's bug must not stop the voice loop
                LOG.log(System.Logger.Level.WARNING, "voice listener failed", e);
            }
        }
    }

    /** Stops every thread and closes the source, recognizer, synthesizer and sink. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        boolean wasRunning = running;
        running = false;
        Turn t = current.get();
        if (t != null) {
            t.cancel.cancel();
        }
        withdrawTentative();
        IOException failure = null;
        try {
            sink.stopNow();
            if (listen != null) {
                listen.stop();
            }
            source.close();
        } catch (IOException e) {
            failure = e;
        }
        if (wasRunning) {
            turns.clear();
            turns.offer(NO_MORE_TURNS);
            speak.stop();
            join(listenThread);
            join(respondThread);
        }
        if (stream != null) {
            stream.close();
        }
        sink.tap(PlaybackTap.NONE);
        recognizer.close();
        synthesizer.close();
        frontEnd.close();
        vad.close();
        try {
            sink.close();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Waits for {@code th} a few seconds, interrupting it if it does not end. */
    static void join(Thread th) {
        if (th == null) {
            return;
        }
        try {
            th.join(3000);
            if (th.isAlive()) {
                th.interrupt();
                th.join(2000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
