package dev.parley.engine.tokenizer;

/** Who wrote a chat message. */
public enum Role {
    SYSTEM, USER, ASSISTANT;

    /** The lower-case name chat templates use ({@code system}, {@code user}, {@code assistant}). */
    public String templateName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
