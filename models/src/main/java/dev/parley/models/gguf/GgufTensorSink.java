package dev.parley.models.gguf;

import dev.parley.engine.gguf.GgufTensorInfo;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Receives the tensor data of a GGUF file being written by {@link GgufWriter}, tensor by tensor in
 * declaration order, each in as many chunks as convenient. Alignment padding is inserted between
 * tensors automatically. {@link #commit()} checks that every byte arrived, flushes, and renames
 * the temporary file onto the target atomically; {@link #close()} without a commit deletes it.
 */
public final class GgufTensorSink implements AutoCloseable {

    private static final int STAGING = 1 << 20;

    private final Path target;
    private final Path temp;
    private final FileChannel channel;
    private final List<GgufTensorInfo> tensors;
    private final int alignment;
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING);
    private int current;
    private long writtenOfCurrent;
    private long dataBytes;
    private boolean committed;
    private boolean closed;

    GgufTensorSink(Path target, byte[] header, List<GgufTensorInfo> tensors, int alignment) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        this.target = abs;
        // A fresh name beside the target (same file system, so the final rename is atomic); created with
        // the default permissions, unlike Files.createTempFile's owner-only ones.
        this.temp = abs.resolveSibling(abs.getFileName() + "." + Long.toHexString(System.nanoTime())
                + Long.toHexString(Thread.currentThread().threadId()) + ".part");
        this.tensors = List.copyOf(tensors);
        this.alignment = alignment;
        FileChannel ch = null;
        try {
            ch = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
            this.channel = ch;
            put(ByteBuffer.wrap(header));
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                ch.close();
            }
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    /** The temporary file being written (deleted or renamed at the end). */
    public Path tempFile() {
        return temp;
    }

    /** Bytes of tensor data (padding included) written so far. */
    public long dataBytesWritten() {
        return dataBytes;
    }

    /** Appends {@code len} bytes of {@code b} to tensor {@code name}, which must be the one being written. */
    public void write(String name, byte[] b, int off, int len) throws IOException {
        write(name, ByteBuffer.wrap(b, off, len));
    }

    /** Appends the bytes of {@code segment} to tensor {@code name}. */
    public void write(String name, MemorySegment segment) throws IOException {
        write(name, segment.asByteBuffer());
    }

    /** Appends the remaining bytes of {@code data} to tensor {@code name}. */
    public void write(String name, ByteBuffer data) throws IOException {
        ensureOpen();
        if (current >= tensors.size()) {
            throw new IllegalStateException("all " + tensors.size() + " tensors are complete; no data expected for '" + name + "'");
        }
        GgufTensorInfo t = tensors.get(current);
        if (!t.name().equals(name)) {
            throw new IllegalStateException("expected data for tensor '" + t.name() + "' (declaration order) but found '" + name + "'");
        }
        long room = t.byteSize() - writtenOfCurrent;
        if (data.remaining() > room) {
            throw new IllegalArgumentException("tensor '" + name + "' takes " + t.byteSize() + " bytes but "
                    + (writtenOfCurrent + data.remaining()) + " were given");
        }
        writtenOfCurrent += data.remaining();
        dataBytes += data.remaining();
        put(data);
        if (writtenOfCurrent == t.byteSize()) {
            long pad = GgufWriter.align(t.byteSize(), alignment) - t.byteSize();
            put(ByteBuffer.allocate((int) pad));
            dataBytes += pad;
            current++;
            writtenOfCurrent = 0;
        }
    }

    /** Finishes the file: checks completeness, flushes, renames onto the target. */
    public void commit() throws IOException {
        ensureOpen();
        if (current < tensors.size()) {
            GgufTensorInfo t = tensors.get(current);
            throw new IllegalStateException("expected data for all " + tensors.size() + " tensors but tensor '" + t.name()
                    + "' has " + writtenOfCurrent + " of " + t.byteSize() + " bytes");
        }
        flush();
        channel.force(false);
        channel.close();
        closed = true;
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            channel.close();
        }
        if (!committed) {
            Files.deleteIfExists(temp);
        }
    }

    private void put(ByteBuffer src) throws IOException {
        if (src.remaining() >= STAGING) {
            flush();
            while (src.hasRemaining()) {
                channel.write(src);
            }
            return;
        }
        while (src.hasRemaining()) {
            if (!staging.hasRemaining()) {
                flush();
            }
            int n = Math.min(staging.remaining(), src.remaining());
            ByteBuffer slice = src.slice(src.position(), n);
            staging.put(slice);
            src.position(src.position() + n);
        }
    }

    private void flush() throws IOException {
        staging.flip();
        while (staging.hasRemaining()) {
            channel.write(staging);
        }
        staging.clear();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this GGUF sink is already " + (committed ? "committed" : "closed"));
        }
    }
}
