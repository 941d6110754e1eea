package dev.parley.app.gui.models;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.catalog.ModelShape;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Catalogs for the model manager's tests: the shipped one plus a "tiny" model served by a {@link ModelServer}. */
public final class TestCatalogs {
    /** The built-in "tiny" shape of {@code TestModels.tiny}. */
    public static final ModelShape TINY = new ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false);

    private TestCatalogs() {
    }

    /** The shipped catalog with an entry {@code tiny-test} ("Tiny test model") downloaded from {@code url}. */
    public static ModelCatalog withTiny(String url, long size, String sha256) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root;
        try (InputStream in = ModelCatalog.class.getResourceAsStream(ModelCatalog.RESOURCE)) {
            root = (ObjectNode) json.readTree(in);
        }
        ObjectNode e = ((ArrayNode) root.get("entries")).insertObject(0);
        e.put("id", "tiny-test").put("kind", "llm").put("name", "TinyTest-10M-Chat (Q8_0)").put("url", url)
                .put("fileName", "tiny.gguf").put("sizeBytes", size).put("sha256", sha256)
                .put("license", "test").put("architecture", "llama").put("chatTemplate", "chatml")
                .put("parameters", TINY.parameterCount()).put("contextLength", 2048);
        e.putObject("shape").put("embeddingLength", 192).put("blockCount", 3).put("headCount", 6)
                .put("headCountKv", 2).put("headDim", 32).put("feedForwardLength", 512).put("vocabSize", 50257)
                .put("tiedEmbeddings", true).put("attentionBias", false);
        return ModelCatalog.load(new ByteArrayInputStream(json.writeValueAsBytes(root)), "test catalog");
    }
}
