package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.catalog.ModelShape;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model and file names are shown as written: JavaFX buttons take an underscore as a mnemonic marker and
 * draw "Q8_0" as "Q80" unless mnemonic parsing is off. Checks the text the skins really draw.
 */
class ModelNamesAsWrittenTest {
    private static final String NAME = "SmolLM2 135M Instruct Q8_0";

    @TempDir
    Path dir;

    private GuiHarness app;

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
    }

    @Test
    void theFirstRunDownloadButtonShowsQ8UnderscoreZero() throws Exception {
        app = new GuiHarness(dir.resolve("home"));
        app.catalog = catalog();
        app.open();
        GuiHarness.waitFor(() -> app.window.mainViewModel().noModelProperty().get());
        List<String> drawn = GuiHarness.onFx(() -> {
            app.window.scene().getRoot().applyCss();
            app.window.scene().getRoot().layout();
            return List.of(drawnText(app.window.scene().lookup("#download-default-model")),
                    drawnText(app.window.scene().lookup("#model-status")));
        });
        assertTrue(drawn.get(0).contains(NAME), "the download button draws '" + drawn.get(0) + "'");
        assertTrue(drawn.get(1).contains(NAME), "the model status draws '" + drawn.get(1) + "'");
    }

    /** The string the labeled control's skin draws (its Text node), not the one it was given. */
    static String drawnText(Node node) {
        if (!(node instanceof Labeled labeled)) {
            throw new AssertionError("expected a labeled control but found " + node);
        }
        Node text = labeled.lookup(".text");
        if (!(text instanceof Text t)) {
            throw new AssertionError("expected the skin of " + labeled.getId() + " to hold a Text node but found " + text);
        }
        return t.getText();
    }

    private static ModelCatalog catalog() throws Exception {
        String json = """
                {"format": "parley catalog v1", "entries": [
                  {"id": "smol-test", "kind": "llm", "name": "%s", "url": "http://127.0.0.1:9/smol_q8_0.gguf",
                   "fileName": "smol_q8_0.gguf", "sizeBytes": 1000, "sha256": null, "checksumNote": "test file",
                   "license": "test", "architecture": "llama", "chatTemplate": "chatml", "parameters": %d,
                   "contextLength": 2048,
                   "shape": {"embeddingLength": 192, "blockCount": 3, "headCount": 6, "headCountKv": 2,
                             "headDim": 32, "feedForwardLength": 512, "vocabSize": 50257,
                             "tiedEmbeddings": true, "attentionBias": false},
                   "default": true, "defaultReason": "the only one"}]}
                """.formatted(NAME, new ModelShape(192, 3, 6, 2, 32, 512, 50257, true, false).parameterCount());
        return ModelCatalog.load(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test catalog");
    }
}
