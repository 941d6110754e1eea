package dev.parley.models.download;

import java.nio.file.Path;

/**
 * A finished, verified download: the final file, its size and SHA-256, how many bytes this call fetched over the
 * network (less than {@code bytes} after a resume) and how many HTTP attempts it took.
 */
public record DownloadResult(Path file, long bytes, String sha256, long bytesFetched, int attempts) {
}
