package dev.parley.app.gui.voice;

import atlantafx.base.theme.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/** The voice bar under the message field: push-to-talk, hands-free, mute, level, live transcript. */
public final class VoiceView extends HBox {

    public VoiceView(VoiceViewModel vm, String pushToTalkKey) {
        setId("voice-bar");
        getStylesheets().add(VoiceView.class.getResource("/dev/parley/app/gui/voice/voice.css").toExternalForm());
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(8);

        Button talk = new Button("Hold to talk");
        talk.setId("push-to-talk");
        talk.getStyleClass().add(Styles.ACCENT);
        talk.setTooltip(new Tooltip("Hold to speak a message (or hold " + pushToTalkKey + ")"));
        talk.setOnMousePressed(e -> vm.pushToTalk(true));
        talk.setOnMouseReleased(e -> vm.pushToTalk(false));
        vm.talkingProperty().addListener((o, a, on) -> talk.setText(on ? "Listening…" : "Hold to talk"));

        ToggleButton handsFree = new ToggleButton("Hands-free");
        handsFree.setId("hands-free");
        handsFree.setTooltip(new Tooltip("Listen continuously; a pause ends your turn"));
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
        speaking.visibleProperty().bind(vm.speakingProperty());
        speaking.managedProperty().bind(vm.speakingProperty());

        Label partial = new Label();
        partial.setId("partial-transcript");
        partial.getStyleClass().add("partial");
        partial.textProperty().bind(vm.partialProperty());
        partial.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(partial, Priority.ALWAYS);

        Label status = new Label();
        status.setId("voice-status");
        status.getStyleClass().add(Styles.TEXT_MUTED);
        status.textProperty().bind(vm.statusProperty());

        for (var control : java.util.List.of(talk, handsFree, mute, level)) {
            control.disableProperty().bind(vm.availableProperty().not());
        }
        getChildren().addAll(talk, handsFree, mute, level, speaking, partial, status);
    }
}
