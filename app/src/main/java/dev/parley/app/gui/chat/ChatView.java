package dev.parley.app.gui.chat;

import atlantafx.base.theme.Styles;
import dev.parley.app.gui.voice.VoiceView;
import dev.parley.engine.tokenizer.Role;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/** The conversation: message bubbles, the message field (Enter sends, Shift+Enter breaks the line), send/stop, regenerate. */
public final class ChatView extends BorderPane {

    public ChatView(ChatViewModel vm, VoiceView voice) {
        setId("chat-view");
        getStylesheets().add(ChatView.class.getResource("/dev/parley/app/gui/chat/chat.css").toExternalForm());

        VBox list = new VBox();
        list.setId("message-list");
        list.getStyleClass().add("message-list");
        ScrollPane scroll = new ScrollPane(list);
        scroll.setId("message-scroll");
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("edge-to-edge");
        list.heightProperty().addListener((o, a, b) -> scroll.setVvalue(1.0));
        vm.messages().addListener((ListChangeListener<MessageItem>) change ->
                list.getChildren().setAll(vm.messages().stream().map(ChatView::node).toList()));
        list.getChildren().setAll(vm.messages().stream().map(ChatView::node).toList());

        Label empty = new Label("Ask anything. Parley runs entirely on this computer.");
        empty.getStyleClass().addAll(Styles.TITLE_4, Styles.TEXT_MUTED, "empty-chat");
        empty.visibleProperty().bind(javafx.beans.binding.Bindings.isEmpty(vm.messages()));
        empty.setMouseTransparent(true);
        StackPane center = new StackPane(scroll, empty);
        setCenter(center);

        TextArea input = new TextArea();
        input.setId("message-input");
        input.setPromptText("Message Parley  (Enter to send, Shift+Enter for a new line)");
        input.setWrapText(true);
        input.setPrefRowCount(2);
        input.textProperty().bindBidirectional(vm.inputProperty());
        input.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER && !e.isShiftDown()) {
                e.consume();
                vm.send();
            } else if (e.getCode() == KeyCode.ENTER) {
                e.consume();
                input.insertText(input.getCaretPosition(), "\n");
            }
        });
        HBox.setHgrow(input, Priority.ALWAYS);

        Button send = new Button("Send");
        send.setId("send-button");
        send.getStyleClass().add(Styles.ACCENT);
        send.setDefaultButton(false);
        send.setOnAction(e -> vm.send());
        send.disableProperty().bind(vm.busyProperty().or(vm.modelReadyProperty().not()));
        Button stop = new Button("Stop");
        stop.setId("stop-button");
        stop.getStyleClass().add(Styles.DANGER);
        stop.setTooltip(new Tooltip("Stop the reply; what was written so far is kept"));
        stop.setOnAction(e -> vm.stop());
        stop.visibleProperty().bind(vm.busyProperty());
        stop.managedProperty().bind(vm.busyProperty());
        send.visibleProperty().bind(vm.busyProperty().not());
        send.managedProperty().bind(vm.busyProperty().not());
        Button regenerate = new Button("Regenerate");
        regenerate.setId("regenerate-button");
        regenerate.setTooltip(new Tooltip("Answer the last message again"));
        regenerate.setOnAction(e -> vm.regenerate());
        regenerate.disableProperty().bind(vm.busyProperty().or(vm.modelReadyProperty().not())
                .or(javafx.beans.binding.Bindings.isEmpty(vm.messages())));
        VBox buttons = new VBox(6, send, stop, regenerate);
        buttons.setAlignment(Pos.TOP_CENTER);
        for (Button b : java.util.List.of(send, stop, regenerate)) {
            b.setMaxWidth(Double.MAX_VALUE);
        }

        Label status = new Label();
        status.setId("chat-status");
        status.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        status.textProperty().bind(vm.statusProperty());

        HBox row = new HBox(8, input, buttons);
        VBox composer = new VBox(6, row, voice, status);
        composer.getStyleClass().add("composer");
        setBottom(composer);
    }

    /** A message bubble, or for a SYSTEM item (the context notice) a muted line across the chat. */
    private static javafx.scene.Node node(MessageItem item) {
        if (item.role() != Role.SYSTEM) {
            return new MessageBubble(item);
        }
        Label notice = new Label(item.text());
        notice.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL, "context-notice");
        notice.setWrapText(true);
        notice.setMaxWidth(Double.MAX_VALUE);
        notice.setAlignment(Pos.CENTER);
        return notice;
    }
}
