package dev.parley.models.download;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real HTTP server on 127.0.0.1 serving one byte array, with switchable misbehaviour: ignore ranges, cut the
 * connection after some bytes, answer a status instead of the file. It records every request it saw.
 */
final class FileServer implements AutoCloseable {
    /** What the server saw and sent for one request. */
    record Seen(String range, int status, long bytesSent) {
    }

    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-");

    private final HttpServer server;
    private final byte[] content;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    volatile boolean honourRanges = true;
    /** For request number i (0-based): bytes of the body to send before dropping the connection; -1 = all. */
    volatile IntUnaryOperator cutAfter = i -> -1;
    /** For request number i (0-based): a status to answer instead of the file; 0 = serve the file. */
    volatile IntUnaryOperator statusFor = i -> 0;

    FileServer(byte[] content) throws IOException {
        this.content = content;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        // like Hugging Face's /resolve/ URLs: a redirect to where the bytes are (the CDN)
        server.createContext("/redirect/", ex -> {
            try (ex) {
                ex.getResponseHeaders().add("Location", "/" + ex.getRequestURI().getPath().substring(10));
                ex.sendResponseHeaders(302, -1);
            }
        });
        server.start();
    }

    URI uri(String name) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/" + name);
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    private void handle(HttpExchange ex) throws IOException {
        int index = requests.getAndIncrement();
        String range = ex.getRequestHeaders().getFirst("Range");
        try (ex) {
            int status = statusFor.applyAsInt(index);
            if (status != 0) {
                // recorded before answering, so that the client cannot finish before the record exists
                seen.add(new Seen(range, status, 0));
                ex.sendResponseHeaders(status, -1);
                return;
            }
            long start = 0;
            Matcher m = range == null ? null : RANGE.matcher(range);
            if (honourRanges && m != null && m.matches()) {
                start = Long.parseLong(m.group(1));
                if (start >= content.length) {
                    seen.add(new Seen(range, 416, 0));
                    ex.getResponseHeaders().add("Content-Range", "bytes */" + content.length);
                    ex.sendResponseHeaders(416, -1);
                    return;
                }
                ex.getResponseHeaders().add("Content-Range",
                        "bytes " + start + "-" + (content.length - 1) + "/" + content.length);
                ex.sendResponseHeaders(206, content.length - start);
            } else {
                ex.sendResponseHeaders(200, content.length);
            }
            int cut = cutAfter.applyAsInt(index);
            long toSend = content.length - start;
            long sending = cut >= 0 ? Math.min(cut, toSend) : toSend;
            seen.add(new Seen(range, start > 0 ? 206 : 200, sending));
            OutputStream os = ex.getResponseBody();
            os.write(content, (int) start, (int) sending);
            os.flush();
            if (sending < toSend) {
                // drop the connection mid-body: the client sees a short read
                throw new IOException("cut on purpose");
            }
        } catch (IOException e) {
            // closing a fixed-length response early throws here; that is the point
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
