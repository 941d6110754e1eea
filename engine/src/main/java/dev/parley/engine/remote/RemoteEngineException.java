package dev.parley.engine.remote;

/**
 * A remote server's refusal or failure: its HTTP status and the fields of OpenAI's error shape
 * ({@code {"error": {"message", "type", "param", "code"}}}) when it sent them.
 */
public final class RemoteEngineException extends RuntimeException {
    private final int status;
    private final String type;
    private final String code;

    public RemoteEngineException(int status, String message, String type, String code) {
        super(message);
        this.status = status;
        this.type = type;
        this.code = code;
    }

    public RemoteEngineException(String message, Throwable cause) {
        super(message, cause);
        this.status = -1;
        this.type = null;
        this.code = null;
    }

    /** The HTTP status, or -1 when no response came (connection refused, timeout). */
    public int status() {
        return status;
    }

    /** The error's {@code type} (e.g. {@code invalid_request_error}), or null. */
    public String type() {
        return type;
    }

    /** The error's {@code code} (e.g. {@code model_not_found}), or null. */
    public String code() {
        return code;
    }
}
