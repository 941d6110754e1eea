package dev.parley.app.gui.models;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on localhost serving one file with byte ranges ({@code Range: bytes=N-} answered 206), as
 * Hugging Face's CDN does. {@link #holdAfter} makes the next response send its first bytes and then wait until
 * {@link #release()}, so a test can pause or cancel a download while it is surely running, without timing.
 */
public final class ModelServer implements AutoCloseable {
    private final HttpServer server;
    private final byte[] body;
    private final List<String> ranges = new CopyOnWriteArrayList<>();
    private volatile long holdAt = -1;
    private volatile CountDownLatch gate = new CountDownLatch(0);

    public ModelServer(String path, byte[] body) throws IOException {
        this.body = body;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(path, this::serve);
        server.start();
    }

    private void serve(HttpExchange exchange) throws IOException {
        String range = exchange.getRequestHeaders().getFirst("Range");
        ranges.add(range == null ? "" : range);
        long start = range != null && range.startsWith("bytes=") ? Long.parseLong(range.substring(6,
                range.indexOf('-'))) : 0;
        long hold = holdAt;
        holdAt = -1;
        CountDownLatch wait = gate;
        try (OutputStream out = exchange.getResponseBody()) {
            if (start > 0) {
                exchange.getResponseHeaders().set("Content-Range", "bytes " + start + "-" + (body.length - 1) + "/"
                        + body.length);
                exchange.sendResponseHeaders(206, body.length - start);
            } else {
                exchange.sendResponseHeaders(200, body.length);
            }
            int from = (int) start;
            if (hold > 0) {
                out.write(body, from, (int) hold);
                out.flush();
                from += (int) hold;
                if (!wait.await(60, TimeUnit.SECONDS)) {
                    return;
                }
            }
            out.write(body, from, body.length - from);
        } catch (IOException | InterruptedException e) {
            // the client stopped reading (a pause or cancel): nothing more to send
        }
    }

    /** The next response sends {@code bytes} bytes, then waits for {@link #release()}. */
    public void holdAfter(long bytes) {
        gate = new CountDownLatch(1);
        holdAt = bytes;
    }

    /** Lets a held response send the rest. */
    public void release() {
        gate.countDown();
    }

    /** The Range header of each request so far ("" for none). */
    public List<String> ranges() {
        return List.copyOf(ranges);
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public String sha256() {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public int size() {
        return body.length;
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
