package dev.parley.models.catalog;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * One model or voice a user can choose: where it comes from, how big it is, how to check it and what it needs.
 * Nullable fields are the ones the catalog may leave out: {@code url}/{@code fileName}/{@code sizeBytes} for bundled
 * voices, {@code sha256} when no published checksum was found ({@code checksumNote} then says so), the model facts
 * ({@code architecture}, {@code shape}, ...) for non-LLM entries, {@code archive} for single-file downloads.
 */
public record CatalogEntry(
        String id,
        EntryKind kind,
        String name,
        String publisher,
        String page,
        URI url,
        String fileName,
        Long sizeBytes,
        String sha256,
        String checksumNote,
        String license,
        String architecture,
        String quantization,
        String chatTemplate,
        Long parameters,
        Integer contextLength,
        ModelShape shape,
        ArchiveLayout archive,
        String bundledArtifact,
        String language,
        boolean isDefault,
        String defaultReason,
        String description) {

    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    public CatalogEntry {
        Objects.requireNonNull(kind, "kind");
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("expected id of lower-case letters, digits, '.', '_' or '-' but found '"
                    + id + "'");
        }
        require(name != null && !name.isBlank(), "a name");
        require(license != null && !license.isBlank(), "a license");
        if (bundledArtifact == null) {
            require(url != null, "a download url (or 'bundled')");
            require("https".equals(url.getScheme()) || "http".equals(url.getScheme()),
                    "an http(s) url, not '" + url + "'");
            require(fileName != null && !fileName.isBlank() && !fileName.contains("/") && !fileName.contains("\\")
                    && !fileName.startsWith("."), "a plain fileName, not '" + fileName + "'");
            require(sizeBytes == null || sizeBytes > 0, "sizeBytes > 0, not " + sizeBytes);
            if (sha256 == null) {
                require(checksumNote != null && !checksumNote.isBlank(),
                        "a sha256, or a checksumNote saying why there is none");
            } else {
                require(SHA256.matcher(sha256).matches(), "a sha256 of 64 lower-case hex digits, not '" + sha256 + "'");
            }
        } else {
            require(url == null, "no url when bundled");
        }
        if (kind == EntryKind.LLM) {
            require(architecture != null, "an architecture");
            require(chatTemplate != null, "a chatTemplate family");
            require(shape != null, "a shape");
            require(contextLength != null && contextLength > 0, "a contextLength > 0");
            require(parameters != null && parameters > 0, "parameters > 0");
            long computed = shape.parameterCount();
            require(Math.abs(computed - parameters) <= parameters / 100,
                    "parameters (" + parameters + ") to agree within 1% with the count computed from the shape ("
                            + computed + ")");
        }
        if (kind == EntryKind.ASR && bundledArtifact == null) {
            require(archive != null, "an archive layout (Vosk models are zip files)");
        }
        if (kind == EntryKind.VAD) {
            require(bundledArtifact == null && archive == null, "a single downloaded file for a VAD model");
            require(sha256 != null, "a sha256 for a VAD model (it is small and its publisher's file is fixed)");
        }
        if (isDefault) {
            require(defaultReason != null && !defaultReason.isBlank(), "a defaultReason when marked default");
        }
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException("expected " + what);
        }
    }

    /** Ships with Parley: nothing to download. */
    public boolean isBundled() {
        return bundledArtifact != null;
    }

    /** The published file size, when known. */
    public OptionalLong size() {
        return sizeBytes == null ? OptionalLong.empty() : OptionalLong.of(sizeBytes);
    }

    /** The published SHA-256, when known. */
    public Optional<String> checksum() {
        return Optional.ofNullable(sha256);
    }

    /** Host that serves the download, for messages ("cannot reach huggingface.co"). */
    public String host() {
        return url == null ? "" : url.getHost();
    }

    /** KV cache bytes per token (F32 cache), for language models. */
    public OptionalLong kvBytesPerToken() {
        return shape == null ? OptionalLong.empty() : OptionalLong.of(shape.kvBytesPerToken());
    }

    /** KV cache bytes per 1024 tokens of context (F32 cache), for language models. */
    public OptionalLong kvBytesPer1kTokens() {
        return shape == null ? OptionalLong.empty() : OptionalLong.of(shape.kvBytesPerToken() * 1024);
    }

    /** Memory to run it at {@code contextTokens}: the weights file (mapped) plus the KV cache. */
    public OptionalLong memoryBytes(int contextTokens) {
        if (shape == null || sizeBytes == null) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(sizeBytes + shape.kvBytesPerToken() * (long) contextTokens);
    }
}
