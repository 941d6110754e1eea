package dev.parley.engine.tokenizer;

/**
 * The kind of a vocabulary entry, as GGUF's {@code tokenizer.ggml.token_type} stores it (1..6).
 * CONTROL and USER_DEFINED entries are the "special" tokens that text can name directly.
 */
public enum TokenType {
    NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE;

    /**
     * The type for a GGUF code 1..6; other codes (0 = undefined in llama.cpp) give {@code null},
     * which callers treat as a token that is neither normal nor special.
     */
    static TokenType fromGguf(int code) {
        return code >= 1 && code <= 6 ? values()[code - 1] : null;
    }

    /** True for the types that llama.cpp's special-token partition looks for in text. */
    boolean isSpecial() {
        return this == CONTROL || this == USER_DEFINED || this == UNKNOWN;
    }
}
