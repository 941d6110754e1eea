package dev.parley.models.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The models and voices Parley offers, read from the {@code catalog.json} resource (data, not code). Loading
 * validates every entry and fails with a {@link CatalogException} that names the bad entry and field.
 */
public final class ModelCatalog {

    /** The resource that ships with Parley. */
    public static final String RESOURCE = "/dev/parley/models/catalog/catalog.json";
    private static final String FORMAT = "parley catalog v1";
    private static final Set<String> FIELDS = Set.of("id", "kind", "name", "publisher", "page", "url", "fileName",
            "sizeBytes", "sha256", "checksumNote", "source", "license", "architecture", "quantization",
            "chatTemplate", "parameters", "contextLength", "shape", "archive", "bundled", "language", "default",
            "defaultReason", "description");

    private final Map<String, CatalogEntry> entries;

    private ModelCatalog(Map<String, CatalogEntry> entries) {
        this.entries = entries;
    }

    /** The catalog that ships with Parley. */
    public static ModelCatalog load() {
        try (InputStream in = ModelCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new CatalogException("catalog resource " + RESOURCE + " is missing from the class path");
            }
            return load(in, "catalog.json");
        } catch (IOException e) {
            throw new CatalogException("cannot read catalog resource " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** Reads and validates a catalog; {@code sourceName} appears in error messages. */
    public static ModelCatalog load(InputStream in, String sourceName) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(in);
        } catch (JsonProcessingException e) {
            throw new CatalogException(sourceName + ": not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new CatalogException(sourceName + ": cannot read: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new CatalogException(sourceName + ": expected a JSON object at the top");
        }
        String format = root.path("format").asText(null);
        if (!FORMAT.equals(format)) {
            throw new CatalogException(sourceName + ": expected format '" + FORMAT + "' but found '" + format + "'");
        }
        JsonNode list = root.get("entries");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw new CatalogException(sourceName + ": expected a non-empty 'entries' array");
        }
        Map<String, CatalogEntry> byId = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode node = list.get(i);
            String label = "entry #" + (i + 1) + (node.hasNonNull("id") ? " '" + node.get("id").asText() + "'" : "");
            CatalogEntry entry;
            try {
                entry = parseEntry(node);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new CatalogException(sourceName + ": " + label + ": " + e.getMessage(), e);
            }
            if (byId.putIfAbsent(entry.id(), entry) != null) {
                throw new CatalogException(sourceName + ": " + label + ": duplicate id");
            }
        }
        for (EntryKind kind : EntryKind.values()) {
            List<String> defaults = byId.values().stream().filter(e -> e.kind() == kind && e.isDefault())
                    .map(CatalogEntry::id).toList();
            boolean any = byId.values().stream().anyMatch(e -> e.kind() == kind);
            if (any && defaults.size() != 1) {
                throw new CatalogException(sourceName + ": expected exactly one default " + kind.jsonName()
                        + " entry but found " + defaults);
            }
        }
        return new ModelCatalog(byId);
    }

    private static CatalogEntry parseEntry(JsonNode n) {
        if (!n.isObject()) {
            throw new IllegalArgumentException("expected an object but found " + n.getNodeType());
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new IllegalArgumentException("unknown field '" + f + "' (known: "
                        + FIELDS.stream().sorted().collect(Collectors.joining(", ")) + ")");
            }
        }
        String bundled = text(n, "bundled");
        String url = text(n, "url");
        return new CatalogEntry(
                text(n, "id"),
                EntryKind.fromJson(text(n, "kind")),
                text(n, "name"),
                text(n, "publisher"),
                text(n, "page"),
                url == null ? null : uri(url),
                text(n, "fileName"),
                longOrNull(n, "sizeBytes"),
                text(n, "sha256"),
                text(n, "checksumNote"),
                text(n, "license"),
                text(n, "architecture"),
                text(n, "quantization"),
                text(n, "chatTemplate"),
                longOrNull(n, "parameters"),
                n.hasNonNull("contextLength") ? Math.toIntExact(longOrNull(n, "contextLength")) : null,
                n.hasNonNull("shape") ? shape(n.get("shape")) : null,
                n.hasNonNull("archive") ? new ArchiveLayout(text(n.get("archive"), "format"),
                        text(n.get("archive"), "topFolder")) : null,
                bundled,
                text(n, "language"),
                n.path("default").asBoolean(false),
                text(n, "defaultReason"),
                text(n, "description"));
    }

    private static ModelShape shape(JsonNode s) {
        return new ModelShape(integer(s, "embeddingLength"), integer(s, "blockCount"), integer(s, "headCount"),
                integer(s, "headCountKv"), integer(s, "headDim"), integer(s, "feedForwardLength"),
                integer(s, "vocabSize"), bool(s, "tiedEmbeddings"), bool(s, "attentionBias"),
                optionalBool(s, "qkNorm"), optionalBool(s, "postNorms"));
    }

    private static boolean optionalBool(JsonNode n, String field) {
        return n.has(field) && bool(n, field);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("expected '" + field + "' to be a string but found " + v);
        }
        return v.asText();
    }

    private static Long longOrNull(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.canConvertToLong() || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("expected '" + field + "' to be an integer but found " + v);
        }
        return v.asLong();
    }

    private static int integer(JsonNode n, String field) {
        Long v = longOrNull(n, field);
        if (v == null) {
            throw new IllegalArgumentException("expected shape field '" + field + "'");
        }
        return Math.toIntExact(v);
    }

    private static boolean bool(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isBoolean()) {
            throw new IllegalArgumentException("expected shape field '" + field + "' to be true or false but found "
                    + v);
        }
        return v.asBoolean();
    }

    private static URI uri(String s) {
        try {
            return new URI(s);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("expected a valid url but found '" + s + "': " + e.getReason());
        }
    }

    /** All entries, in catalog order. */
    public List<CatalogEntry> entries() {
        return List.copyOf(entries.values());
    }

    /** Entries of one kind, in catalog order. */
    public List<CatalogEntry> entries(EntryKind kind) {
        return entries.values().stream().filter(e -> e.kind() == kind).toList();
    }

    /** The entry with this id (case-insensitive), if any. */
    public Optional<CatalogEntry> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(entries.get(id.toLowerCase(java.util.Locale.ROOT)));
    }

    /** The entry with this id, or an exception listing the known ids. */
    public CatalogEntry require(String id) {
        return find(id).orElseThrow(() -> new IllegalArgumentException("unknown model '" + id + "'; the catalog has: "
                + String.join(", ", entries.keySet())));
    }

    /** The default entry of a kind. */
    public CatalogEntry defaultEntry(EntryKind kind) {
        return entries.values().stream().filter(e -> e.kind() == kind && e.isDefault()).findFirst()
                .orElseThrow(() -> new IllegalStateException("the catalog has no " + kind.jsonName() + " entries"));
    }

    /** All ids. */
    public List<String> ids() {
        return new ArrayList<>(entries.keySet());
    }
}
