package dev.parley.models.store;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The store's small JSON index: installed items, and the checksums recorded on first download of entries that have
 * no published checksum (kept after removal, so a later download is verified against them).
 */
public record StoreIndex(String format, List<InstalledItem> items, Map<String, String> recordedChecksums) {
    public static final String FORMAT = "parley store v1";

    public StoreIndex {
        items = items == null ? List.of() : List.copyOf(items);
        recordedChecksums = recordedChecksums == null ? Map.of() : Map.copyOf(new TreeMap<>(recordedChecksums));
    }

    public static StoreIndex empty() {
        return new StoreIndex(FORMAT, List.of(), Map.of());
    }
}
