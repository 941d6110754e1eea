package dev.parley.models.store;

import java.util.Locale;

/** Recognizes the conversation format of a GGUF's {@code tokenizer.chat_template} by its marker tokens. */
public enum ChatTemplateFamily {
    CHATML("<|im_start|>"),
    LLAMA3("<|start_header_id|>"),
    GEMMA("<start_of_turn>"),
    PHI3("<|user|>"),
    LLAMA2("[INST]"),
    OTHER(null),
    NONE(null);

    private final String marker;

    ChatTemplateFamily(String marker) {
        this.marker = marker;
    }

    /** The family of a template text; {@link #NONE} when there is no template. */
    public static ChatTemplateFamily of(String template) {
        if (template == null || template.isBlank()) {
            return NONE;
        }
        for (ChatTemplateFamily f : values()) {
            if (f.marker != null && template.contains(f.marker)) {
                return f;
            }
        }
        return OTHER;
    }

    /** The name used in the catalog ("chatml", "llama3", ...). */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
