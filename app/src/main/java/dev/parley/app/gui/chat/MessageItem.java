package dev.parley.app.gui.chat;

import dev.parley.engine.tokenizer.Role;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** A message as the chat view shows it; an assistant reply's text grows while it streams. */
public final class MessageItem {
    private final Role role;
    private final boolean spoken;
    private final StringProperty text = new SimpleStringProperty("");
    private final BooleanProperty streaming = new SimpleBooleanProperty();
    private final BooleanProperty interrupted = new SimpleBooleanProperty();

    public MessageItem(Role role, String text, boolean spoken, boolean streaming, boolean interrupted) {
        this.role = role;
        this.spoken = spoken;
        this.text.set(text);
        this.streaming.set(streaming);
        this.interrupted.set(interrupted);
    }

    public Role role() {
        return role;
    }

    public boolean spoken() {
        return spoken;
    }

    public StringProperty textProperty() {
        return text;
    }

    public BooleanProperty streamingProperty() {
        return streaming;
    }

    public BooleanProperty interruptedProperty() {
        return interrupted;
    }

    public String text() {
        return text.get();
    }
}
