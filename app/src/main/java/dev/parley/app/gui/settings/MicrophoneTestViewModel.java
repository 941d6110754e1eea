package dev.parley.app.gui.settings;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The Settings microphone test: start it and the level meter follows the chosen input device; "Say something"
 * transcribes the next words and shows them. Devices open and Vosk loads on the background executor; properties
 * change on the UI executor only.
 */
public final class MicrophoneTestViewModel {
    /** Finds the Vosk model folder for the speech-model setting ("" = the installed default). */
    @FunctionalInterface
    public interface VoskModels {
        Path locate(String chosen) throws IOException;
    }

    private final Supplier<String> device;
    private final Supplier<String> voskSetting;
    private final VoskModels vosk;
    private final Executor ui;
    private final Executor background;
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper listening = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper level = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper transcript = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final AtomicReference<Double> pendingLevel = new AtomicReference<>();
    private MicrophoneCheck check;       // background executor only

    /**
     * @param device      the input device of the settings being edited ("" = the system's default)
     * @param voskSetting the speech-model folder of the settings being edited ("" = the installed default)
     */
    public MicrophoneTestViewModel(Supplier<String> device, Supplier<String> voskSetting, VoskModels vosk, Executor ui,
                                   Executor background) {
        this.device = device;
        this.voskSetting = voskSetting;
        this.vosk = vosk;
        this.ui = ui;
        this.background = background;
    }

    /** Starts or stops following the microphone's level (UI thread). */
    public void setRunning(boolean on) {
        if (on == running.get()) {
            return;
        }
        running.set(on);
        if (!on) {
            listening.set(false);
            level.set(0);
            background.execute(this::closeCheck);
            status.set("");
            return;
        }
        String name = device.get();
        status.set("Opening the microphone…");
        background.execute(() -> {
            closeCheck();
            try {
                check = MicrophoneCheck.open(name, this::showLevel, problem -> ui.execute(() -> fail(problem)));
                ui.execute(() -> status.set("Listening to " + (name.isBlank() ? "the default microphone" : name)
                        + ": speak and watch the meter"));
            } catch (IOException | RuntimeException e) {
                ui.execute(() -> fail(e.getMessage()));
            }
        });
    }

    /** Transcribes the next thing said (UI thread); starts the test first when it is off. */
    public void saySomething() {
        if (!running.get()) {
            setRunning(true);
        }
        String setting = voskSetting.get();
        listening.set(true);
        transcript.set("");
        status.set("Loading speech recognition…");
        background.execute(() -> {
            try {
                Path model = vosk.locate(setting);
                MicrophoneCheck c = check;
                if (c == null) {
                    throw new IOException("the microphone is not open");
                }
                c.listen(model, partial -> ui.execute(() -> transcript.set(partial)), heard -> ui.execute(() -> {
                    listening.set(false);
                    transcript.set(heard.transcript());
                    status.set(heard.problem() == null ? "Heard: \u201c" + heard.transcript() + "\u201d"
                            : "No words: " + heard.problem());
                }));
                ui.execute(() -> status.set("Say something…"));
            } catch (IOException | RuntimeException e) {
                ui.execute(() -> {
                    listening.set(false);
                    status.set("Cannot transcribe: " + e.getMessage());
                });
            }
        });
    }

    /** Stops the test and releases the device (call when the dialog closes). */
    public void close() {
        running.set(false);
        background.execute(this::closeCheck);
    }

    private void showLevel(double dbfs) {
        double v = Double.isFinite(dbfs) ? Math.clamp((dbfs + 60) / 60, 0, 1) : 0;
        if (pendingLevel.getAndSet(v) == null) {       // at most one UI update in flight
            ui.execute(() -> {
                Double latest = pendingLevel.getAndSet(null);
                if (latest != null && running.get()) {
                    level.set(latest);
                }
            });
        }
    }

    private void fail(String problem) {
        running.set(false);
        listening.set(false);
        level.set(0);
        status.set("Microphone test: " + problem);
    }

    private void closeCheck() {
        if (check != null) {
            check.close();
            check = null;
        }
    }

    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty listeningProperty() {
        return listening.getReadOnlyProperty();
    }

    /** 0..1 (-60..0 dBFS). */
    public ReadOnlyDoubleProperty levelProperty() {
        return level.getReadOnlyProperty();
    }

    /** The words heard (live while listening, final after). */
    public ReadOnlyStringProperty transcriptProperty() {
        return transcript.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
