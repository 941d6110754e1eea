package dev.parley.app.gui.voice;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * State of the voice controls: availability, push-to-talk, hands-free, mute, the input level (0..1),
 * the live partial transcript and whether Parley is speaking. Loop events arrive on other threads
 * and are coalesced: the level and the partial text keep only their latest value until the UI
 * thread takes them.
 */
public final class VoiceViewModel implements VoiceEvents {
    private final VoiceControl voice;
    private final Executor ui;

    // Properties
    private final ReadOnlyBooleanWrapper available = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper talking = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper speaking = new ReadOnlyBooleanWrapper();
    private final BooleanProperty handsFree = new SimpleBooleanProperty();
    private final BooleanProperty muted = new SimpleBooleanProperty();
    private final ReadOnlyDoubleWrapper level = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper partial = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");

    private final AtomicReference<Double> pendingLevel = new AtomicReference<>();
    private final AtomicReference<String> pendingPartial = new AtomicReference<>();

    public VoiceViewModel(VoiceControl voice, Executor ui) {
        this.voice = voice;
        this.ui = ui;
        available.set(voice.unavailableReason().isEmpty());
        status.set(voice.unavailableReason().map(r -> "Voice unavailable: " + r).orElse("Voice ready"));
        handsFree.addListener((o, a, on) -> voice.setHandsFree(on));
        muted.addListener((o, a, on) -> voice.setMuted(on));
    }

    /** Starts the loop (when available) with the chat's handler for spoken turns. */
    public void start(SpokenTurns turns) {
        if (!available.get()) {
            return;
        }
        try {
            voice.start(turns, this);
        } catch (java.io.IOException e) {
            available.set(false);
            status.set("Voice unavailable: " + e.getMessage());
        }
    }

    // Commands

    public void pushToTalk(boolean pressed) {
        if (!available.get() || talking.get() == pressed) {
            return;
        }
        talking.set(pressed);
        voice.pushToTalk(pressed);
        status.set(pressed ? "Listening…" : "Voice ready");
    }

    public void interrupt() {
        voice.interrupt();
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

    // Property accessors

    public ReadOnlyBooleanProperty availableProperty() {
        return available.getReadOnlyProperty();
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
