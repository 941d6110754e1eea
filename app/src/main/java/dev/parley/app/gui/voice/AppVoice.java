package dev.parley.app.gui.voice;

import dev.parley.audio.Exchange;
import dev.parley.audio.Speculation;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import java.io.IOException;
import dev.parley.audio.AudioDevices;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The window's voice loop: finds the Vosk model ({@link VoskModelLocator}), starts MaryTTS once (it
 * takes seconds: the first {@link #start} pays for it, so call it off the UI thread) and runs a
 * {@link PipelineVoice} on the devices of the {@link VoiceOptions}. New options restart the loop (a
 * new voice also restarts MaryTTS). Every method may block while the loop (re)starts: the view model
 * calls them on its background thread.
 */
public final class AppVoice implements VoiceControl {
    private final VoskModelLocator locator;
    private final List<Consumer<Exchange>> exchangeListeners = new CopyOnWriteArrayList<>();
    private VoiceOptions options;
    private MaryTtsSynthesizer tts;
    private volatile PipelineVoice loop;     // read without the lock by push-to-talk and interrupt
    private SpokenTurns turns;
    private VoiceEvents events;
    private boolean handsFree;
    private boolean muted;

    public AppVoice(VoskModelLocator locator, VoiceOptions options) {
        this.locator = Objects.requireNonNull(locator, "locator");
        this.options = Objects.requireNonNull(options, "options");
    }

    /** Only checks that a Vosk model is there (cheap); devices and MaryTTS are tried by {@link #start}. */
    @Override
    public synchronized Optional<String> unavailableReason() {
        try {
            locator.locate(options.voskModel());
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Starts the loop (does nothing when it runs already). */
    @Override
    public synchronized void start(SpokenTurns turns, VoiceEvents events) throws IOException {
        this.turns = turns;
        this.events = events;
        if (loop != null) {
            return;
        }
        launch();
    }

    /** Adopts new options; a running loop restarts with them when they changed (a stopped one stays stopped). */
    @Override
    public synchronized void apply(VoiceOptions next) throws IOException {
        if (next.equals(options)) {
            return;
        }
        boolean newVoice = !next.voice().equals(options.voice());
        boolean onlyRate = next.equals(options.withSpeakingRate(next.speakingRate()));
        options = next;
        if (onlyRate) { // no restart: the next sentence is spoken at the new rate
            if (tts != null) {
                tts.speakingRate(next.speakingRate());
            }
            return;
        }
        if (newVoice && tts != null && loop == null) {
            tts.close();
            tts = null;
        }
        if (loop == null) {
            return;
        }
        loop.close();
        loop = null;
        if (newVoice) {
            tts.close();
            tts = null;
        }
        launch();
    }

    @Override
    public Optional<dev.parley.audio.frontend.FrontEndStats> frontEndStats() {
        PipelineVoice l = loop;
        return l == null ? Optional.empty() : l.frontEndStats();
    }

    private void launch() throws IOException {
        Path vosk = locator.locate(options.voskModel());
        // Named devices are checked before MaryTTS's seconds of start-up, so a wrong name fails at once.
        List<String> devices = AudioDevices.names();
        checkDevice("microphone", options.inputDevice(), devices);
        checkDevice("speaker", options.outputDevice(), devices);
        if (tts == null) {
            tts = MaryTtsSynthesizer.start(options.voice().isEmpty() ? MaryTtsSynthesizer.DEFAULT_VOICE : options.voice());
        }
        tts.speakingRate(options.speakingRate());
        VoiceSettings settings = VoiceSettings.defaults().withEndOfTurnSilence(options.endOfTurnSilenceMs())
                .withMode(handsFree ? VoiceSettings.Mode.HANDS_FREE : VoiceSettings.Mode.PUSH_TO_TALK)
                .withHalfDuplex(options.halfDuplex()).withListeningCue(options.listeningCue());
        PipelineVoice next = new PipelineVoice(vosk, blankToNull(options.inputDevice()),
                blankToNull(options.outputDevice()), tts, settings);
        next.setMuted(muted);
        next.frontEndSettings(options.frontEnd());
        next.voiceActivity(options.vad(), locator.sileroModel().orElse(null));
        exchangeListeners.forEach(next::addExchangeListener);
        next.start(turns, events);
        loop = next;
    }

    @Override
    public void pushToTalk(boolean pressed) {
        PipelineVoice l = loop;
        if (l != null) {
            l.pushToTalk(pressed);
        }
    }

    @Override
    public synchronized void setHandsFree(boolean on) throws IOException {
        handsFree = on;
        if (loop != null) {
            loop.setHandsFree(on);
        }
    }

    @Override
    public synchronized void setMuted(boolean on) {
        muted = on;
        if (loop != null) {
            loop.setMuted(on);
        }
    }

    @Override
    public void interrupt() {
        PipelineVoice l = loop;
        if (l != null) {
            l.interrupt();
        }
    }

    /** Whether the loop is listening. */
    public synchronized boolean running() {
        return loop != null && loop.running();
    }

    /** The speculative replies of the running loop (started, confirmed) since it last (re)started. */
    public synchronized Speculation speculation() {
        return loop == null ? new Speculation(0, 0) : loop.speculation();
    }

    /** Calls {@code listener} with every finished exchange of this loop and of the loops it restarts as. */
    public synchronized void addExchangeListener(Consumer<Exchange> listener) {
        exchangeListeners.add(listener);
        if (loop != null) {
            loop.addExchangeListener(listener);
        }
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.close();
            loop = null;
        }
        if (tts != null) {
            tts.close();
            tts = null;
        }
    }

    private static void checkDevice(String what, String name, List<String> known) throws IOException {
        if (!name.isBlank() && !known.contains(name)) {
            throw new IOException("no " + what + " named '" + name + "': expected one of " + known
                    + " (or none for the system default; see Settings)");
        }
    }

    private static String blankToNull(String s) {
        return s.isBlank() ? null : s;
    }
}
