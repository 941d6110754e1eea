package dev.parley.app.gui.voice;

import atlantafx.base.theme.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;

/** The voice bar's download row: "Download NAME (SIZE)", its progress and Cancel; hidden when nothing is missing. */
public final class VoiceDownloadView extends HBox {

    public VoiceDownloadView(VoiceDownloadViewModel vm) {
        setId("voice-download");
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(8);
        Button download = new Button();
        download.setId("download-voice-models");
        download.setMnemonicParsing(false);          // model names are shown as written
        download.getStyleClass().addAll(Styles.SUCCESS, Styles.SMALL);
        download.textProperty().bind(vm.offerProperty());
        download.setTooltip(new Tooltip("Download what voice needs into the model store (verified, resumable)"));
        download.setOnAction(e -> vm.download());
        download.visibleProperty().bind(vm.offeredProperty());
        download.managedProperty().bind(vm.offeredProperty());
        download.setMinWidth(USE_PREF_SIZE);

        ProgressBar progress = new ProgressBar();
        progress.setId("voice-download-progress");
        progress.setPrefWidth(120);
        progress.progressProperty().bind(vm.progressProperty());
        Button cancel = new Button("Cancel");
        cancel.setId("cancel-voice-download");
        cancel.getStyleClass().add(Styles.SMALL);
        cancel.setOnAction(e -> vm.cancel());
        for (var node : java.util.List.of(progress, cancel)) {
            node.visibleProperty().bind(vm.downloadingProperty());
            node.managedProperty().bind(vm.downloadingProperty());
        }
        Label status = new Label();
        status.setId("voice-download-status");
        status.getStyleClass().add(Styles.TEXT_MUTED);
        status.textProperty().bind(vm.statusProperty());
        status.setMinWidth(0);
        var shown = vm.offeredProperty().or(vm.downloadingProperty()).or(vm.statusProperty().isNotEmpty());
        visibleProperty().bind(shown);
        managedProperty().bind(shown);
        getChildren().addAll(download, progress, cancel, status);
    }
}
