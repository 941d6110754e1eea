package dev.parley.app.gui.conversations;

import dev.parley.app.store.ConversationStore;
import dev.parley.app.store.ConversationSummary;
import java.util.function.LongConsumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The conversation list: stored conversations filtered by the search text, the selection, and the
 * commands new, rename, delete. Store calls are short local SQLite statements.
 */
public final class ConversationListViewModel {
    /** The title of a conversation made with "New conversation"; its first message renames it. */
    public static final String NEW_TITLE = "New conversation";

    private final ConversationStore store;
    private final LongConsumer deleted;

    // Properties
    private final ObservableList<ConversationSummary> items = FXCollections.observableArrayList();
    private final StringProperty search = new SimpleStringProperty("");
    private final ObjectProperty<ConversationSummary> selected = new SimpleObjectProperty<>();

    /** @param deleted told the id of each deleted conversation (to drop its engine state) */
    public ConversationListViewModel(ConversationStore store, LongConsumer deleted) {
        this.store = store;
        this.deleted = deleted;
        search.addListener((o, a, b) -> refresh());
        refresh();
    }

    // Commands

    /** Reloads the list, keeping the selection when it still matches. */
    public void refresh() {
        long keep = selected.get() == null ? -1 : selected.get().id();
        items.setAll(store.search(search.get()));
        select(keep);
    }

    /** Selects the conversation with {@code id} when listed (-1 clears the selection). */
    public void select(long id) {
        selected.set(items.stream().filter(c -> c.id() == id).findFirst().orElse(null));
    }

    /** Creates and selects an empty conversation. */
    public ConversationSummary newConversation() {
        ConversationSummary c = store.create(NEW_TITLE);
        search.set("");
        refresh();
        select(c.id());
        return c;
    }

    public void rename(long id, String title) {
        store.rename(id, title);
        refresh();
    }

    public void delete(long id) {
        store.delete(id);
        deleted.accept(id);
        if (selected.get() != null && selected.get().id() == id) {
            selected.set(null);
        }
        refresh();
    }

    // Property accessors

    public ObservableList<ConversationSummary> items() {
        return items;
    }

    public StringProperty searchProperty() {
        return search;
    }

    public ObjectProperty<ConversationSummary> selectedProperty() {
        return selected;
    }
}
