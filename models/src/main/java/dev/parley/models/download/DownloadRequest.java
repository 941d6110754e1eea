package dev.parley.models.download;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * What to fetch and where: the final file {@code target} appears only when complete and verified; meanwhile bytes
 * go to {@code target + ".part"}. {@code expectedSize} and {@code expectedSha256} may be null when unknown.
 */
public record DownloadRequest(URI url, Path target, Long expectedSize, String expectedSha256) {
    public DownloadRequest {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(target, "target");
        if (expectedSize != null && expectedSize < 0) {
            throw new IllegalArgumentException("expected a size >= 0 but found " + expectedSize);
        }
        if (expectedSha256 != null) {
            expectedSha256 = expectedSha256.toLowerCase(Locale.ROOT);
            if (!expectedSha256.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException("expected a SHA-256 of 64 hex digits but found '" + expectedSha256
                        + "'");
            }
        }
    }

    /** The partial file beside the target. */
    public Path partFile() {
        return target.resolveSibling(target.getFileName() + ".part");
    }
}
