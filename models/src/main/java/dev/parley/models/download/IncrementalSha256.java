package dev.parley.models.download;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 of a file that grows: bytes are added as they arrive; {@link #sync} re-reads the file's prefix when the
 * digest does not cover exactly its first {@code length} bytes (a resume from a part file of an earlier run).
 */
final class IncrementalSha256 {
    private final MessageDigest digest = newDigest();
    private long hashed;

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime has no SHA-256", e);
        }
    }

    void update(byte[] bytes, int length) {
        digest.update(bytes, 0, length);
        hashed += length;
    }

    void reset() {
        digest.reset();
        hashed = 0;
    }

    /** Makes the digest cover exactly the first {@code length} bytes of {@code file}. */
    void sync(Path file, long length) throws IOException {
        if (hashed == length) {
            return;
        }
        reset();
        if (length == 0) {
            return;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            long left = length;
            while (left > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException(file + " is shorter than " + length + " bytes");
                }
                update(buffer, n);
                left -= n;
            }
        }
    }

    /** The hex digest of what was hashed (the digest itself is not consumed). */
    String hex() {
        try {
            return HexFormat.of().formatHex(((MessageDigest) digest.clone()).digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digest cannot be cloned", e);
        }
    }

    /** The SHA-256 of a whole file, as lower-case hex. */
    static String ofFile(Path file) throws IOException {
        IncrementalSha256 h = new IncrementalSha256();
        h.sync(file, Files.size(file));
        return h.hex();
    }
}
