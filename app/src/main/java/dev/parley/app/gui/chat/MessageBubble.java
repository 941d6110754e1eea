package dev.parley.app.gui.chat;

import atlantafx.base.theme.Styles;
import dev.parley.engine.generate.ThinkingFilter;
import dev.parley.engine.tokenizer.Role;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TitledPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * One message: a user bubble on the right, a Markdown-rendered assistant bubble on the left, with copy; an
 * assistant's thinking block, when it has one, is folded under "Thinking".
 */
final class MessageBubble extends HBox {

    MessageBubble(MessageItem item) {
        boolean user = item.role() == Role.USER;
        getStyleClass().addAll("message-row", user ? "from-user" : "from-assistant");
        setAlignment(user ? Pos.CENTER_RIGHT : Pos.CENTER_LEFT);

        Label who = new Label(user ? "You" : "Parley");
        who.getStyleClass().add("message-author");
        HBox header = new HBox(6, who);
        header.setAlignment(Pos.CENTER_LEFT);
        if (item.spoken()) {
            Label spoken = new Label("spoken");
            spoken.getStyleClass().addAll("message-tag", "tag-spoken");
            header.getChildren().add(spoken);
        }
        Label interrupted = new Label("stopped");
        interrupted.getStyleClass().addAll("message-tag", "tag-interrupted");
        interrupted.visibleProperty().bind(item.interruptedProperty());
        interrupted.managedProperty().bind(item.interruptedProperty());
        ProgressIndicator streaming = new ProgressIndicator();
        streaming.getStyleClass().add("streaming-indicator");
        streaming.setPrefSize(14, 14);
        streaming.visibleProperty().bind(item.streamingProperty());
        streaming.managedProperty().bind(item.streamingProperty());
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        Button copy = new Button("Copy");
        copy.getStyleClass().addAll(Styles.FLAT, Styles.SMALL, "copy-button");
        copy.setTooltip(new Tooltip("Copy this message"));
        copy.setOnAction(e -> {
            ClipboardContent content = new ClipboardContent();
            content.putString(item.text());
            Clipboard.getSystemClipboard().setContent(content);
        });
        header.getChildren().addAll(interrupted, streaming, grow, copy);

        VBox card = new VBox(4, header);
        card.getStyleClass().addAll("bubble", user ? "bubble-user" : "bubble-assistant");
        card.setMaxWidth(760);
        if (user) {
            Label text = new Label();
            text.getStyleClass().add("user-text");
            text.setWrapText(true);
            text.textProperty().bind(item.textProperty());
            card.getChildren().add(text);
        } else {
            // A reasoning model's <think> block (Qwen3 with thinking on) is folded away above the answer.
            Label thoughts = new Label();
            thoughts.getStyleClass().add("thinking-text");
            thoughts.setWrapText(true);
            TitledPane thinking = new TitledPane("Thinking", thoughts);
            thinking.getStyleClass().add("thinking");
            thinking.setExpanded(false);
            MarkdownView markdown = new MarkdownView();
            markdown.getStyleClass().add("assistant-text");
            Consumer<String> show = text -> {
                String reasoning = ThinkingFilter.thoughts(text);
                thoughts.setText(reasoning);
                thinking.setVisible(!reasoning.isEmpty());
                thinking.setManaged(!reasoning.isEmpty());
                markdown.setMarkdown(ThinkingFilter.strip(text));
            };
            show.accept(item.text());
            item.textProperty().addListener((o, a, text) -> show.accept(text));
            card.getChildren().addAll(thinking, markdown);
        }
        getChildren().add(card);
    }
}
