package dev.parley.app.serve;

/**
 * How {@link ApiServer} listens.
 *
 * @param host         the address to bind (loopback by default: only programs on this machine reach it)
 * @param port         the TCP port; 0 picks a free one
 * @param apiKey       the key clients must send as {@code Authorization: Bearer}; null for none
 * @param maxBodyBytes larger request bodies get 413
 * @param threads      HTTP worker threads (each open stream holds one)
 * @param queue        connections waiting for a worker before new ones are refused
 */
public record ServeOptions(String host, int port, String apiKey, int maxBodyBytes, int threads, int queue) {
    public static final int DEFAULT_MAX_BODY = 1 << 20;

    public ServeOptions {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("expected a host to bind, such as 127.0.0.1, but found none");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("expected a port in [0, 65535] but found " + port);
        }
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey;
        if (maxBodyBytes < 1024) {
            throw new IllegalArgumentException("expected a body limit of at least 1024 bytes but found " + maxBodyBytes);
        }
        if (threads < 1 || queue < 1) {
            throw new IllegalArgumentException("expected at least 1 worker thread and queue place but found " + threads
                    + " and " + queue);
        }
    }

    /** Loopback, the given port and key, a 1 MiB body limit, 32 workers, 256 waiting connections. */
    public static ServeOptions local(int port, String apiKey) {
        return new ServeOptions("127.0.0.1", port, apiKey, DEFAULT_MAX_BODY, 32, 256);
    }
}
