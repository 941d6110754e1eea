package dev.parley.engine.generate;

/** Why a generation ended. */
public enum StopReason {
    /** The model produced an end-of-generation token (EOS or EOT); that token is not part of the output. */
    EOS,
    /** The text reached one of the stop strings; the stop string and what follows are not emitted. */
    STOP_STRING,
    /** The requested number of new tokens was produced. */
    MAX_TOKENS,
    /** The caller cancelled through its {@link CancellationToken}. */
    CANCELLED,
    /** The session's context window has no room for another token. */
    CONTEXT_FULL
}
