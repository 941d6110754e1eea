package dev.parley.engine.gguf;

import java.io.IOException;

/** A GGUF file that cannot be read: the message says what was expected and what was found. */
public class GgufException extends IOException {
    public GgufException(String message) {
        super(message);
    }

    public GgufException(String message, Throwable cause) {
        super(message, cause);
    }
}
