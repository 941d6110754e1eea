package dev.parley.models.download;

import dev.parley.models.catalog.ModelCatalog;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Test helpers shared with other packages: a local file server, hashes, an unreachable address. */
public final class TestServers {
    private TestServers() {
    }

    /** A local HTTP server serving {@code content}. */
    public static Server serving(byte[] content) throws IOException {
        return new Server(new FileServer(content));
    }

    /** Public face of {@link FileServer} for other test packages. */
    public static final class Server implements AutoCloseable {
        private final FileServer server;

        Server(FileServer server) {
            this.server = server;
        }

        public URI uri(String name) {
            return server.uri(name);
        }

        public int requests() {
            return server.seen().size();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    public static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** An address on 127.0.0.1 where nothing listens (connection refused). */
    public static URI closedPortUri(String name) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        return URI.create("http://127.0.0.1:" + port + "/" + name);
    }

    /** A catalog with one default LLM (the Qwen 0.5B shape) downloaded from {@code url}. */
    public static ModelCatalog catalogWithDefaultAt(URI url) {
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "qwen2.5-0.5b-instruct", "kind": "llm", "name": "Qwen2.5-0.5B-Instruct (Q8_0)",
                   "url": "%s", "fileName": "qwen.gguf", "sizeBytes": 1000,
                   "sha256": null, "checksumNote": "test", "license": "Apache-2.0", "architecture": "qwen2",
                   "chatTemplate": "chatml", "parameters": 494032768, "contextLength": 32768,
                   "shape": {"embeddingLength": 896, "blockCount": 24, "headCount": 14, "headCountKv": 2,
                             "headDim": 64, "feedForwardLength": 4864, "vocabSize": 151936,
                             "tiedEmbeddings": true, "attentionBias": true},
                   "default": true, "defaultReason": "test"}]}
                """.formatted(url);
        return ModelCatalog.load(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test catalog");
    }
}
