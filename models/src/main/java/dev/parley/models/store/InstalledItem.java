package dev.parley.models.store;

import java.util.Objects;

/**
 * A record in the store index: which catalog entry is installed where (relative to the store root), its size and
 * SHA-256, where the checksum came from ({@code catalog}, or {@code first-download} for trust on first use, or
 * {@code recorded} when verified against an earlier first download), when it was installed and from where.
 */
public record InstalledItem(String id, String kind, String path, long sizeBytes, String sha256,
                            String checksumSource, String installedAt, String url) {
    public InstalledItem {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(path, "path");
    }
}
