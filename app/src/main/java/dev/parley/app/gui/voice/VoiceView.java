package dev.parley.app.gui.voice;

import atlantafx.base.theme.Styles;
import java.util.function.Supplier;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The voice bar under the message field: push-to-talk, hands-free, mute, level meter, speaking
 * indicator with a stop button, the live transcript, the loop's status and the half-duplex note.
 */
public final class VoiceView extends HBox {

    /** @param pushToTalkKey the current push-to-talk key, for the button's tooltip */
    public VoiceView(VoiceViewModel vm, Supplier<String> pushToTalkKey) {
        this(vm, pushToTalkKey, null);
    }

    /** As {@link #VoiceView(VoiceViewModel, Supplier)} with the row that downloads missing voice models (or null). */
    public VoiceView(VoiceViewModel vm, Supplier<String> pushToTalkKey, VoiceDownloadViewModel downloads) {
        setId("voice-bar");
        getStylesheets().add(VoiceView.class.getResource("/dev/parley/app/gui/voice/voice.css").toExternalForm());
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(8);

        Button talk = new Button("Hold to talk");
        talk.setId("push-to-talk");
        talk.getStyleClass().add(Styles.ACCENT);
        Tooltip talkTip = new Tooltip();
        talkTip.setOnShowing(e -> talkTip.setText("Hold to speak a message (or hold " + pushToTalkKey.get() + ")"));
        talk.setTooltip(talkTip);
        talk.setOnMousePressed(e -> vm.pushToTalk(true));
        talk.setOnMouseReleased(e -> vm.pushToTalk(false));
        vm.talkingProperty().addListener((o, a, on) -> talk.setText(on ? "Listening…" : "Hold to talk"));

        ToggleButton handsFree = new ToggleButton("Hands-free");
        handsFree.setId("hands-free");
        handsFree.setTooltip(new Tooltip("Listen continuously; a pause ends your turn (the pause is set in Settings)"));
        handsFree.selectedProperty().bindBidirectional(vm.handsFreeProperty());

        ToggleButton mute = new ToggleButton("Mute");
        mute.setId("mute");
        mute.setTooltip(new Tooltip("Stop sending microphone audio"));
        mute.selectedProperty().bindBidirectional(vm.mutedProperty());

        ProgressBar level = new ProgressBar(0);
        level.setId("level-meter");
        level.setPrefWidth(90);
        level.progressProperty().bind(vm.levelProperty());
        Tooltip.install(level, new Tooltip("Microphone level (-60 to 0 dBFS)"));

        Label speaking = new Label("Speaking");
        speaking.setId("speaking-indicator");
        Tooltip.install(speaking, new Tooltip("Parley is speaking; talk over it or press Stop to interrupt"));
        Button stop = new Button("Stop");
        stop.setId("stop-speaking");
        stop.getStyleClass().addAll(Styles.SMALL, Styles.DANGER);
        stop.setTooltip(new Tooltip("Stop Parley speaking and cancel the reply"));
        stop.setOnAction(e -> vm.interrupt());
        for (var node : java.util.List.of(speaking, stop)) {
            node.visibleProperty().bind(vm.speakingProperty());
            node.managedProperty().bind(vm.speakingProperty());
        }

        Label partial = new Label();
        partial.setId("partial-transcript");
        partial.getStyleClass().add("partial");
        partial.textProperty().bind(vm.partialProperty());
        partial.setMaxWidth(Double.MAX_VALUE);
        partial.setMinWidth(0);
        HBox.setHgrow(partial, Priority.ALWAYS);

        ProgressIndicator loading = new ProgressIndicator();
        loading.setId("voice-loading");
        loading.setPrefSize(16, 16);
        loading.visibleProperty().bind(vm.loadingProperty());
        loading.managedProperty().bind(vm.loadingProperty());

        Label status = new Label();
        status.setId("voice-status");
        status.getStyleClass().add(Styles.TEXT_MUTED);
        status.textProperty().bind(vm.statusProperty());
        status.setMinWidth(0);
        Tooltip statusTip = new Tooltip();
        statusTip.textProperty().bind(vm.statusProperty());
        status.setTooltip(statusTip);

        Label duplex = new Label("Half-duplex");
        duplex.setId("half-duplex");
        duplex.getStyleClass().addAll(Styles.TEXT_MUTED, "duplex");
        duplex.setTooltip(new Tooltip(VoiceViewModel.HALF_DUPLEX));
        duplex.setMinWidth(USE_PREF_SIZE);

        for (var control : java.util.List.of(talk, handsFree, mute, level)) {
            control.disableProperty().bind(vm.availableProperty().not());
        }
        // The controls keep their size; the status text gives way (its tooltip has all of it).
        for (var fixed : java.util.List.of(talk, handsFree, mute, level, speaking, stop)) {
            fixed.setMinWidth(USE_PREF_SIZE);
        }
        getChildren().addAll(talk, handsFree, mute, level, speaking, stop, partial, loading, status, duplex);
        if (downloads != null) {
            getChildren().add(getChildren().indexOf(status), new VoiceDownloadView(downloads));
        }
    }
}
