package dev.parley.app.serve;

/**
 * A request the server refuses, answered with its HTTP status and OpenAI's error shape
 * {@code {"error": {"message", "type", "param", "code"}}}.
 */
public final class ApiError extends RuntimeException {
    private final int status;
    private final String type;
    private final String param;
    private final String code;

    public ApiError(int status, String message, String type, String param, String code) {
        super(message);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    /** 400: a field is missing, of the wrong type or out of range. */
    public static ApiError invalid(String message, String param, String code) {
        return new ApiError(400, message, "invalid_request_error", param, code);
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String param() {
        return param;
    }

    public String code() {
        return code;
    }
}
