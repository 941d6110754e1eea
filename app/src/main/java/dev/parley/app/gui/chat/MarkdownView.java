package dev.parley.app.gui.chat;

import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/** Renders a reply's Markdown basics as nodes; {@link #setMarkdown} rebuilds only when the text changed. */
public final class MarkdownView extends VBox {
    private final MarkdownParser parser = new MarkdownParser();
    private String shown;

    public MarkdownView() {
        getStyleClass().add("markdown");
        setSpacing(6);
    }

    public void setMarkdown(String text) {
        if (text.equals(shown)) {
            return;
        }
        shown = text;
        getChildren().setAll(parser.parse(text).stream().map(MarkdownView::node).toList());
    }

    private static Node node(MarkdownBlock block) {
        return switch (block) {
            case MarkdownBlock.Paragraph p -> flow(p.text(), "md-paragraph");
            case MarkdownBlock.Heading h -> flow(h.text(), "md-h" + Math.min(h.level(), 3));
            case MarkdownBlock.ListItem li -> {
                Label bullet = new Label(li.number() == 0 ? "•" : li.number() + ".");
                bullet.getStyleClass().add("md-bullet");
                bullet.setMinWidth(22);
                TextFlow text = flow(li.text(), "md-list-text");
                HBox.setHgrow(text, Priority.ALWAYS);
                HBox row = new HBox(4, bullet, text);
                row.getStyleClass().add("md-list-item");
                row.setStyle("-fx-padding: 0 0 0 " + (8 + 16 * li.indent()) + ";");
                yield row;
            }
            case MarkdownBlock.Code c -> {
                Label code = new Label(c.code());
                code.getStyleClass().add("md-code-text");
                code.setWrapText(true);
                code.setMaxWidth(Double.MAX_VALUE);
                VBox box = new VBox(code);
                box.getStyleClass().add("md-code");
                yield box;
            }
        };
    }

    private static TextFlow flow(String text, String styleClass) {
        List<Text> runs = InlineMarkdown.runs(text).stream().map(r -> {
            Text t = new Text(r.text());
            t.getStyleClass().addAll("md-text", "md-" + r.style().name().toLowerCase(java.util.Locale.ROOT));
            return t;
        }).toList();
        TextFlow flow = new TextFlow(runs.toArray(Node[]::new));
        flow.getStyleClass().add(styleClass);
        return flow;
    }
}
