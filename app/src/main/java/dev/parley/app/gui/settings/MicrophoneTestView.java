package dev.parley.app.gui.settings;

import atlantafx.base.theme.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/** Settings' microphone test: a toggle, the level meter, "Say something" and what was heard. */
public final class MicrophoneTestView extends VBox {

    public MicrophoneTestView(MicrophoneTestViewModel vm) {
        setId("mic-test");
        setSpacing(4);
        ToggleButton test = new ToggleButton("Test microphone");
        test.setId("mic-test-toggle");
        test.setTooltip(new Tooltip("Open the input device above and show its level"));
        test.setSelected(vm.runningProperty().get());
        test.selectedProperty().addListener((o, a, on) -> vm.setRunning(on));
        vm.runningProperty().addListener((o, a, on) -> test.setSelected(on));
        ProgressBar level = new ProgressBar(0);
        level.setId("mic-test-level");
        level.setPrefWidth(140);
        level.progressProperty().bind(vm.levelProperty());
        Button say = new Button("Say something");
        say.setId("mic-test-say");
        say.getStyleClass().add(Styles.SMALL);
        say.setTooltip(new Tooltip("Transcribe what you say next with the speech model above"));
        say.disableProperty().bind(vm.listeningProperty());
        say.setOnAction(e -> vm.saySomething());
        Label heard = new Label();
        heard.setId("mic-test-transcript");
        heard.setMnemonicParsing(false);
        heard.textProperty().bind(vm.transcriptProperty());
        HBox row = new HBox(8, test, level, say, heard);
        row.setAlignment(Pos.CENTER_LEFT);
        Label status = new Label();
        status.setId("mic-test-status");
        status.getStyleClass().add(Styles.TEXT_MUTED);
        status.setWrapText(true);
        status.textProperty().bind(vm.statusProperty());
        getChildren().addAll(row, status);
    }
}
