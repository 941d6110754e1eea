package dev.parley.app.gui.voice;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * State of the voice controls: availability, push-to-talk, hands-free, mute, the input level (0..1),
 * the live partial transcript and whether Parley is speaking. Every call into the {@link VoiceControl}
 * (starting it, which loads Vosk and MaryTTS, restarting it in another mode or on other devices, and
 * the buttons) runs in order on one background thread, never on the UI thread. Loop events arrive on
 * other threads and are coalesced: the level and the partial text keep only their latest value until
 * the UI thread takes them.
 */
public final class VoiceViewModel implements VoiceEvents {
    /** What the voice bar says about echo: Parley does not hear itself, it only listens for barge-in. */
    public static final String HALF_DUPLEX = "Half-duplex: no echo cancellation. While Parley speaks, the "
            + "microphone only listens for you to interrupt (barge-in); headphones work best.";

    private final VoiceControl voice;
    private final Executor ui;
    private final Executor background;

    // Properties
    private final ReadOnlyBooleanWrapper available = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper deviceFault = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyBooleanWrapper talking = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper speaking = new ReadOnlyBooleanWrapper();
    private final BooleanProperty handsFree = new SimpleBooleanProperty();
    private final BooleanProperty muted = new SimpleBooleanProperty();
    private final ReadOnlyDoubleWrapper level = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper partial = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");

    private final AtomicReference<Double> pendingLevel = new AtomicReference<>();
    private final AtomicReference<String> pendingPartial = new AtomicReference<>();
    private SpokenTurns turns;
    private boolean started;      // the loop runs (UI thread only)

    /** With a background thread of its own ({@code parley-voice-control}, a daemon). */
    public VoiceViewModel(VoiceControl voice, Executor ui) {
        this(voice, ui, controlThread());
    }

    /**
     * @param ui         runs work on the UI thread
     * @param background runs the calls into {@code voice} one at a time, in order
     */
    public VoiceViewModel(VoiceControl voice, Executor ui, Executor background) {
        this.voice = voice;
        this.ui = ui;
        this.background = background;
        status.set(voice.unavailableReason().map(VoiceViewModel::unavailable).orElse("Voice not started"));
        handsFree.addListener((o, a, on) -> {
            boolean running = started;
            if (running) {
                available.set(false);
                loading.set(true);
                status.set(on ? "Switching to hands-free…" : "Switching to push-to-talk…");
            }
            background.execute(() -> {
                try {
                    voice.setHandsFree(on);
                    if (running) {
                        ui.execute(this::ready);
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    ui.execute(() -> failed(e));
                }
            });
        });
        muted.addListener((o, a, on) -> control(() -> voice.setMuted(on)));
    }

    /**
     * Starts the loop in the background with the chat's handler for spoken turns; when it cannot
     * start (no Vosk model, no microphone) the status says why and typed chat goes on.
     */
    public void start(SpokenTurns turns) {
        this.turns = turns;
        loading.set(true);
        available.set(false);
        status.set("Loading voice: speech recognition and MaryTTS…");
        background.execute(() -> {
            try {
                var reason = voice.unavailableReason();
                if (reason.isPresent()) {
                    ui.execute(() -> {
                        loading.set(false);
                        status.set(unavailable(reason.get()));
                    });
                    return;
                }
                voice.start(turns, this);
                ui.execute(() -> {
                    started = true;
                    ready();
                });
            } catch (java.io.IOException | RuntimeException e) {
                ui.execute(() -> failed(e));
            }
        });
    }

    // Commands

    /** Tries to start the loop again when it could not start (a missing model was just installed, say). */
    public void retry() {
        if (turns != null && !started && !loading.get()) {
            start(turns);
        }
    }

    public void pushToTalk(boolean pressed) {
        if (!available.get() || talking.get() == pressed) {
            return;
        }
        talking.set(pressed);
        control(() -> voice.pushToTalk(pressed));
        status.set(pressed ? "Listening…" : readyText());
    }

    /** Stops Parley speaking and cancels its reply. */
    public void interrupt() {
        control(voice::interrupt);
    }

    /**
     * Applies new voice settings in the background: a running loop restarts with them, one that could
     * not start is tried again (the settings may now name a Vosk model or another device).
     */
    public void apply(VoiceOptions options) {
        if (turns == null || !started) {
            boolean starting = loading.get();
            control(() -> {
                try {
                    voice.apply(options);
                } catch (java.io.IOException | RuntimeException e) {
                    // not running: start() below reports what is wrong
                }
            });
            if (turns != null && !starting) {
                start(turns);       // a start under way picks the new options up when it is done
            }
            return;
        }
        available.set(false);
        loading.set(true);
        status.set("Applying the voice settings…");
        background.execute(() -> {
            try {
                voice.apply(options);
                ui.execute(this::ready);
            } catch (java.io.IOException | RuntimeException e) {
                ui.execute(() -> failed(e));
            }
        });
    }

    private void control(Runnable call) {
        background.execute(call);
    }

    private void failed(Exception e) {
        started = false;
        loading.set(false);
        available.set(false);
        status.set(unavailable(e.getMessage()));
    }

    private void ready() {
        loading.set(false);
        available.set(true);
        if (!deviceFault.get()) {
            status.set(readyText());        // a device fault said during the start stays until the device is back
        }
    }

    private String readyText() {
        return handsFree.get() ? "Hands-free: listening (a pause ends your turn)" : "Voice ready: hold to talk";
    }

    private static String unavailable(String reason) {
        return "Voice unavailable: " + reason + " (typed chat works)";
    }

    private static Executor controlThread() {
        ExecutorService e = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "parley-voice-control");
            t.setDaemon(true);
            return t;
        });
        return e;
    }

    // VoiceEvents (loop threads)

    @Override
    public void level(double dbfs) {
        double v = Double.isFinite(dbfs) ? Math.clamp((dbfs + 60) / 60, 0, 1) : 0;
        if (pendingLevel.getAndSet(v) == null) {
            ui.execute(() -> level.set(pendingLevel.getAndSet(null)));
        }
    }

    @Override
    public void partial(String text) {
        if (pendingPartial.getAndSet(text) == null) {
            ui.execute(() -> partial.set(pendingPartial.getAndSet(null)));
        }
    }

    @Override
    public void speaking(boolean on) {
        ui.execute(() -> speaking.set(on));
    }

    @Override
    public void error(String message) {
        ui.execute(() -> status.set("Voice error: " + message));
    }

    @Override
    public void deviceFault(String message) {
        ui.execute(() -> {
            deviceFault.set(true);
            status.set(message);
        });
    }

    @Override
    public void deviceRecovered() {
        ui.execute(() -> {
            if (deviceFault.get()) {
                deviceFault.set(false);
                status.set(readyText());
            }
        });
    }

    /** True while the microphone or speaker is unavailable (the status says which; Parley retries). */
    public ReadOnlyBooleanProperty deviceFaultProperty() {
        return deviceFault.getReadOnlyProperty();
    }

    // Property accessors

    /** True while the loop runs and takes commands (false while it loads or restarts). */
    public ReadOnlyBooleanProperty availableProperty() {
        return available.getReadOnlyProperty();
    }

    /** True while the loop starts or restarts in the background. */
    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty talkingProperty() {
        return talking.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty speakingProperty() {
        return speaking.getReadOnlyProperty();
    }

    public BooleanProperty handsFreeProperty() {
        return handsFree;
    }

    public BooleanProperty mutedProperty() {
        return muted;
    }

    public ReadOnlyDoubleProperty levelProperty() {
        return level.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty partialProperty() {
        return partial.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
