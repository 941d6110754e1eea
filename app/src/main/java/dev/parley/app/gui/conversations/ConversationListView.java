package dev.parley.app.gui.conversations;

import atlantafx.base.theme.Styles;
import dev.parley.app.store.ConversationSummary;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputDialog;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The sidebar: search field, "New conversation", and the list with rename/delete/export on right click. */
public final class ConversationListView extends VBox {

    /** @param export called with the conversation to export (the window asks where) */
    public ConversationListView(ConversationListViewModel vm, Consumer<ConversationSummary> export) {
        setId("conversation-list");
        getStylesheets().add(ConversationListView.class.getResource(
                "/dev/parley/app/gui/conversations/conversations.css").toExternalForm());
        setSpacing(8);

        Button create = new Button("New conversation");
        create.setId("new-conversation");
        create.getStyleClass().add(Styles.ACCENT);
        create.setMaxWidth(Double.MAX_VALUE);
        create.setOnAction(e -> vm.newConversation());

        TextField search = new TextField();
        search.setId("conversation-search");
        search.setPromptText("Search conversations");
        search.textProperty().bindBidirectional(vm.searchProperty());

        ListView<ConversationSummary> list = new ListView<>(vm.items());
        list.setId("conversations");
        list.getStyleClass().add(Styles.DENSE);
        VBox.setVgrow(list, Priority.ALWAYS);
        DateTimeFormatter when = DateTimeFormatter.ofPattern("d MMM, HH:mm").withZone(ZoneId.systemDefault());
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(ConversationSummary c, boolean empty) {
                super.updateItem(c, empty);
                if (empty || c == null) {
                    setGraphic(null);
                    setText(null);
                    setContextMenu(null);
                    return;
                }
                Label title = new Label(c.title());
                title.getStyleClass().add("conversation-title");
                Label time = new Label(when.format(c.updated()));
                time.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
                setGraphic(new VBox(2, title, time));
                setText(null);
                MenuItem rename = new MenuItem("Rename…");
                rename.setOnAction(e -> {
                    TextInputDialog dialog = new TextInputDialog(c.title());
                    dialog.setTitle("Rename conversation");
                    dialog.setHeaderText(null);
                    dialog.setContentText("Title:");
                    dialog.showAndWait().filter(t -> !t.isBlank()).ifPresent(t -> vm.rename(c.id(), t));
                });
                MenuItem exportItem = new MenuItem("Export…");
                exportItem.setOnAction(e -> export.accept(c));
                MenuItem delete = new MenuItem("Delete");
                delete.setOnAction(e -> vm.delete(c.id()));
                setContextMenu(new ContextMenu(rename, exportItem, delete));
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.selectedProperty().set(b);
            }
        });
        vm.selectedProperty().addListener((o, a, b) -> {
            if (b == null) {
                list.getSelectionModel().clearSelection();
            } else if (list.getSelectionModel().getSelectedItem() != b) {
                list.getSelectionModel().select(b);
            }
        });
        getChildren().addAll(create, search, list);
    }
}
