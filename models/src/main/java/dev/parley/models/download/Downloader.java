package dev.parley.models.download;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Downloads one file over HTTP(S) so that bad networks do not hurt: bytes go to {@code <target>.part}; an
 * interrupted transfer resumes with a {@code Range: bytes=N-} request (a server that ignores ranges and answers
 * 200 makes it restart cleanly from 0); transient failures (I/O errors, 5xx, 429) are retried with bounded
 * exponential back-off and jitter; size and SHA-256 are verified (hashing incrementally, the resumed prefix
 * included); only then is the part file renamed atomically to the target, so a half-written file never looks
 * complete. Every failure is a {@link DownloadException} whose message can be shown as it is.
 */
public final class Downloader {
    private static final int BUFFER = 64 * 1024;
    private static final long REPORT_EVERY = 256 * 1024;
    /** A host that refuses connections is tried at most this often: an offline user should hear it quickly. */
    static final int MAX_UNREACHABLE_ATTEMPTS = 2;

    private final HttpClient client;
    private final RetryPolicy retry;
    private final Sleeper sleeper;
    private final SpaceProbe space;
    private final DoubleSupplier random;
    private final LongSupplier nanoClock;
    private final Duration requestTimeout;

    /** A downloader with the default client, retry policy, real sleeping and the file store's free space. */
    public Downloader() {
        this(defaultClient(), RetryPolicy.DEFAULT, Sleeper.SYSTEM, SpaceProbe.FILE_STORE);
    }

    public Downloader(HttpClient client, RetryPolicy retry, Sleeper sleeper, SpaceProbe space) {
        this(client, retry, sleeper, space, () -> ThreadLocalRandom.current().nextDouble(), System::nanoTime,
                Duration.ofSeconds(60));
    }

    public Downloader(HttpClient client, RetryPolicy retry, Sleeper sleeper, SpaceProbe space, DoubleSupplier random,
                      LongSupplier nanoClock, Duration requestTimeout) {
        this.client = client;
        this.retry = retry;
        this.sleeper = sleeper;
        this.space = space;
        this.random = random;
        this.nanoClock = nanoClock;
        this.requestTimeout = requestTimeout;
    }

    /** HTTP/1.1 client that follows redirects (Hugging Face answers with a redirect to its CDN). */
    public static HttpClient defaultClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(20))
                .build();
    }

    /**
     * Fetches {@code request.url()} into {@code request.target()}, resuming from an existing part file.
     *
     * @throws DownloadCancelledException when {@code cancel} is triggered (the part file stays)
     * @throws DownloadException          for every other failure, with a message for the user
     */
    public DownloadResult download(DownloadRequest request, ProgressListener listener, CancelToken cancel)
            throws DownloadException {
        Path part = request.partFile();
        Path dir = request.target().toAbsolutePath().getParent();
        String what = request.target().getFileName().toString();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw LocalFiles.mapLocal(e, dir, "cannot create folder " + dir);
        }
        ProgressMeter meter = new ProgressMeter(listener, nanoClock, REPORT_EVERY);
        if (request.expectedSize() != null) {
            meter.total(request.expectedSize());
            checkSpace(dir, request.expectedSize() - LocalFiles.sizeOf(part));
        }
        Transfer transfer = new Transfer(request, part, dir, what, meter, cancel);
        meter.phase(DownloadProgress.Phase.CONNECTING, LocalFiles.sizeOf(part));
        int failures = 0;
        int attempts = 0;
        while (true) {
            checkCancel(cancel, part);
            attempts++;
            long before = LocalFiles.sizeOf(part);
            try {
                transfer.attempt();
                break;
            } catch (TransientFailure f) {
                long after = LocalFiles.sizeOf(part);
                // an attempt that moved the download forward starts a fresh series of retries
                failures = after > before ? 1 : failures + 1;
                int allowed = f.unreachable() ? Math.min(MAX_UNREACHABLE_ATTEMPTS, retry.maxAttempts())
                        : retry.maxAttempts();
                if (failures >= allowed) {
                    throw f.finalError(request.url(), what, attempts);
                }
                Duration delay = retry.delayAfter(failures, f.retryAfter(), random);
                try {
                    sleeper.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new DownloadCancelledException(part, LocalFiles.sizeOf(part));
                }
            }
        }
        checkCancel(cancel, part);
        return finish(request, transfer, meter, attempts);
    }

    private DownloadResult finish(DownloadRequest request, Transfer transfer, ProgressMeter meter, int attempts)
            throws DownloadException {
        Path part = transfer.part;
        long size = LocalFiles.sizeOf(part);
        meter.phase(DownloadProgress.Phase.VERIFYING, size);
        if (request.expectedSize() != null && size != request.expectedSize()) {
            LocalFiles.deleteQuietly(part);
            throw new SizeMismatchException(transfer.what, request.expectedSize(), size);
        }
        String actual;
        try {
            transfer.hash.sync(part, size);
        } catch (IOException e) {
            throw LocalFiles.mapLocal(e, transfer.dir, "cannot read " + part);
        }
        actual = transfer.hash.hex();
        if (request.expectedSha256() != null && !request.expectedSha256().equals(actual)) {
            LocalFiles.deleteQuietly(part);
            throw new ChecksumMismatchException(transfer.what, request.expectedSha256(), actual);
        }
        try {
            Files.move(part, request.target(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw LocalFiles.mapLocal(e, transfer.dir, "cannot move " + part + " to " + request.target());
        }
        meter.total(size);
        meter.phase(DownloadProgress.Phase.DONE, size);
        return new DownloadResult(request.target(), size, actual, transfer.fetched, attempts);
    }

    /** The state of one download across its attempts. */
    private final class Transfer {
        final DownloadRequest request;
        final Path part;
        final Path dir;
        final String what;
        final ProgressMeter meter;
        final CancelToken cancel;
        final IncrementalSha256 hash = new IncrementalSha256();
        long fetched;

        Transfer(DownloadRequest request, Path part, Path dir, String what, ProgressMeter meter, CancelToken cancel) {
            this.request = request;
            this.part = part;
            this.dir = dir;
            this.what = what;
            this.meter = meter;
            this.cancel = cancel;
        }

        /** One HTTP request; returns when the part file holds the whole file. */
        void attempt() throws TransientFailure, DownloadException {
            long have = LocalFiles.sizeOf(part);
            Long expected = request.expectedSize();
            if (expected != null && have > expected) {
                truncate(0);
                have = 0;
            }
            try {
                hash.sync(part, have);
            } catch (IOException e) {
                throw LocalFiles.mapLocal(e, dir, "cannot read " + part);
            }
            if (expected != null && have == expected && have > 0) {
                return; // a previous run fetched everything; verification decides
            }
            HttpRequest.Builder builder = HttpRequest.newBuilder(request.url()).GET().timeout(requestTimeout)
                    .header("Accept-Encoding", "identity");
            if (have > 0) {
                builder.header("Range", "bytes=" + have + "-");
            }
            HttpResponse<InputStream> response = send(builder.build());
            int status = response.statusCode();
            long offset;
            long total;
            switch (status) {
                case 206 -> {
                    String header = response.headers().firstValue("Content-Range").orElse(null);
                    ContentRange range = ContentRange.parse(header);
                    if (range == null || range.start() != have) {
                        close(response);
                        truncate(0);
                        throw TransientFailure.io(new IOException("asked to resume at byte " + have
                                + " but the server sent range '" + header + "'"));
                    }
                    offset = have;
                    total = range.total() > 0 ? range.total() : (expected != null ? expected : -1);
                }
                case 200 -> {
                    if (have > 0) {
                        truncate(0); // the server ignored the range: start over cleanly
                    }
                    offset = 0;
                    long length = response.headers().firstValueAsLong("Content-Length").orElse(-1);
                    total = length >= 0 ? length : (expected != null ? expected : -1);
                }
                case 416 -> {
                    close(response);
                    ContentRange range = ContentRange.parse(response.headers().firstValue("Content-Range")
                            .orElse(null));
                    if (range != null && range.total() == have && (expected == null || expected == have)) {
                        return; // already complete
                    }
                    truncate(0);
                    throw TransientFailure.io(new IOException("the server refused to resume at byte " + have));
                }
                default -> {
                    close(response);
                    if (status == 429 || status >= 500) {
                        throw TransientFailure.status(status, retryAfter(response));
                    }
                    throw new HttpStatusException(status, request.url(), 1);
                }
            }
            if (expected != null && total >= 0 && total != expected) {
                close(response);
                LocalFiles.deleteQuietly(part);
                throw new SizeMismatchException(what + " at " + request.url(), expected, total);
            }
            meter.total(total);
            if (total > 0) {
                checkSpace(dir, total - offset);
            }
            meter.startCounting(offset);
            meter.phase(DownloadProgress.Phase.DOWNLOADING, offset);
            receive(response, offset, total);
        }

        private void receive(HttpResponse<InputStream> response, long offset, long total)
                throws TransientFailure, DownloadException {
            long done = offset;
            try (InputStream in = response.body();
                 FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                out.truncate(offset);
                out.position(offset);
                byte[] buffer = new byte[BUFFER];
                int n;
                while ((n = in.read(buffer)) != -1) {
                    checkCancel(cancel, part);
                    ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
                    while (chunk.hasRemaining()) {
                        out.write(chunk);
                    }
                    hash.update(buffer, n);
                    done += n;
                    fetched += n;
                    if (total >= 0 && done > total) {
                        throw new SizeMismatchException(what, total, done);
                    }
                    meter.bytes(done);
                    checkCancel(cancel, part);
                }
            } catch (DownloadException e) {
                if (e instanceof SizeMismatchException) {
                    LocalFiles.deleteQuietly(part);
                }
                throw e;
            } catch (IOException e) {
                if (LocalFiles.isDiskFull(e)) {
                    throw new DiskFullException(dir, e);
                }
                throw TransientFailure.io(e);
            }
            if (total >= 0 && done < total) {
                throw TransientFailure.io(new IOException("the connection closed after " + done + " of " + total
                        + " bytes"));
            }
        }

        private HttpResponse<InputStream> send(HttpRequest httpRequest) throws TransientFailure, DownloadException {
            try {
                return client.send(httpRequest, HttpResponse.BodyHandlers.ofInputStream());
            } catch (UnknownHostException e) {
                throw new OfflineException(request.url().getHost(), e);
            } catch (IOException e) {
                if (LocalFiles.causedBy(e, UnknownHostException.class)) {
                    throw new OfflineException(request.url().getHost(), e);
                }
                if (LocalFiles.causedBy(e, ConnectException.class) || LocalFiles.causedBy(e, NoRouteToHostException.class)
                        || LocalFiles.causedBy(e, HttpConnectTimeoutException.class)) {
                    throw TransientFailure.unreachable(e);
                }
                throw TransientFailure.io(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DownloadCancelledException(part, LocalFiles.sizeOf(part));
            }
        }

        private void truncate(long size) throws DownloadException {
            try (FileChannel ch = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ch.truncate(size);
            } catch (IOException e) {
                throw LocalFiles.mapLocal(e, dir, "cannot truncate " + part);
            }
            hash.reset();
        }
    }

    private void checkSpace(Path dir, long needed) throws DownloadException {
        if (needed <= 0) {
            return;
        }
        long available;
        try {
            available = space.usableBytes(dir);
        } catch (IOException e) {
            return; // cannot tell: let the write itself report a full disk
        }
        if (available < needed) {
            throw new DiskFullException(dir, needed, available);
        }
    }

    private static void checkCancel(CancelToken cancel, Path part) throws DownloadCancelledException {
        if (cancel.isCancelled()) {
            throw new DownloadCancelledException(part, LocalFiles.sizeOf(part));
        }
    }

    private static Duration retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").map(v -> {
            try {
                return Duration.ofSeconds(Long.parseLong(v.trim()));
            } catch (NumberFormatException e) {
                return null; // an HTTP date: fall back to the policy's own delay
            }
        }).orElse(null);
    }

    private static void close(HttpResponse<InputStream> response) {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // the connection is being dropped anyway
        }
    }
}
