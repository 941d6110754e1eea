package dev.parley.models.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shipped catalog and the loader's validation. */
class ModelCatalogTest {
    private final ModelCatalog catalog = ModelCatalog.load();

    @Test
    void listsTheRequiredModelsVoicesAndSpeechModels() {
        for (String id : List.of("smollm2-135m-instruct", "smollm2-360m-instruct", "qwen2.5-0.5b-instruct",
                "qwen2.5-1.5b-instruct", "llama-3.2-1b-instruct")) {
            CatalogEntry e = catalog.require(id);
            assertEquals(EntryKind.LLM, e.kind());
            assertEquals("Q8_0", e.quantization());
            assertTrue(e.url().toString().startsWith("https://huggingface.co/"), e.url().toString());
            assertTrue(e.url().toString().endsWith("/" + e.fileName()));
        }
        assertEquals("vosk-model-small-en-us-0.15",
                catalog.require("vosk-model-small-en-us-0.15").archive().topFolder());
        assertEquals("vosk-model-en-us-0.22-lgraph",
                catalog.require("vosk-model-en-us-0.22-lgraph").archive().topFolder());
        assertTrue(catalog.require("cmu-slt-hsmm").isBundled());
    }

    @Test
    void everyLanguageModelIsOfAnArchitectureTheEngineRuns() throws Exception {
        for (CatalogEntry e : catalog.entries(EntryKind.LLM)) {
            dev.parley.engine.model.Architecture.fromGguf(e.architecture());
        }
        for (String id : List.of("qwen3-0.6b", "qwen3-1.7b", "gemma-3-1b-it", "llama-3.2-1b-instruct-q4_k_m",
                "llama-3.2-3b-instruct", "phi-3-mini-4k-instruct")) {
            CatalogEntry e = catalog.require(id);
            assertTrue(e.url().toString().endsWith("/" + e.fileName()), e.id());
            assertTrue(e.sha256() != null || e.checksumNote() != null, e.id() + ": a checksum or a note saying why none");
        }
        // Gemma 3 1B: its q/k norms and post-norms count (the published 999.89M parameters).
        assertEquals(999_885_952L, catalog.require("gemma-3-1b-it").parameters());
        // Qwen3-0.6B: 2 * 8 KV heads * 128 * 28 layers * 4 bytes.
        assertEquals(229_376L, catalog.require("qwen3-0.6b").kvBytesPerToken().orElseThrow());
    }

    @Test
    void theDefaultModelIsQwenHalfBillion() {
        CatalogEntry def = catalog.defaultEntry(EntryKind.LLM);
        assertEquals("qwen2.5-0.5b-instruct", def.id());
        assertNotNull(def.sha256());
        assertEquals(675710816L, def.sizeBytes());
    }

    @Test
    void publishedParameterCountsEqualTheCountsComputedFromTheShape() {
        for (CatalogEntry e : catalog.entries(EntryKind.LLM)) {
            assertEquals(e.parameters(), e.shape().parameterCount(), e.id());
        }
    }

    @Test
    void kvCachePerTokenFollowsTheShape() {
        // 2 (K,V) * 24 layers * 2 kv heads * 64 * 4 bytes
        assertEquals(24_576, catalog.require("qwen2.5-0.5b-instruct").kvBytesPerToken().orElseThrow());
        // 2 * 16 * 8 * 64 * 4
        assertEquals(65_536, catalog.require("llama-3.2-1b-instruct").kvBytesPerToken().orElseThrow());
        assertEquals(675_710_816L + 24_576L * 4096,
                catalog.require("qwen2.5-0.5b-instruct").memoryBytes(4096).orElseThrow());
    }

    @Test
    void entriesWithoutAChecksumSaySo() {
        for (CatalogEntry e : catalog.entries()) {
            if (!e.isBundled() && e.sha256() == null) {
                assertTrue(e.checksumNote() != null && !e.checksumNote().isBlank(), e.id());
            }
        }
    }

    private static ModelCatalog parse(String entries) {
        String json = "{\"format\": \"parley catalog v1\", \"entries\": [" + entries + "]}";
        return ModelCatalog.load(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test.json");
    }

    private static final String VOICE = "{\"id\": \"v\", \"kind\": \"tts-voice\", \"name\": \"V\", \"license\": \"x\","
            + " \"bundled\": \"a:b:1\", \"default\": true, \"defaultReason\": \"r\"}";

    @Test
    void badEntryIsNamedInTheError() {
        CatalogException e = assertThrows(CatalogException.class, () -> parse(VOICE + ",{\"id\": \"bad-one\","
                + " \"kind\": \"asr\", \"name\": \"B\", \"license\": \"x\", \"url\": \"https://h/f.zip\","
                + " \"fileName\": \"f.zip\", \"sha256\": \"abc\", \"archive\": {\"format\": \"zip\", \"topFolder\": \"f\"},"
                + " \"default\": true, \"defaultReason\": \"r\"}"));
        assertTrue(e.getMessage().contains("entry #2 'bad-one'"), e.getMessage());
        assertTrue(e.getMessage().contains("sha256"), e.getMessage());
    }

    @Test
    void missingChecksumNeedsANote() {
        CatalogException e = assertThrows(CatalogException.class, () -> parse(VOICE + ",{\"id\": \"a\","
                + " \"kind\": \"asr\", \"name\": \"A\", \"license\": \"x\", \"url\": \"https://h/f.zip\","
                + " \"fileName\": \"f.zip\", \"archive\": {\"format\": \"zip\", \"topFolder\": \"f\"},"
                + " \"default\": true, \"defaultReason\": \"r\"}"));
        assertTrue(e.getMessage().contains("checksumNote"), e.getMessage());
    }

    @Test
    void unknownFieldsAndDuplicatesAreRejected() {
        assertTrue(assertThrows(CatalogException.class, () -> parse(VOICE.replace("}", ", \"sah256\": \"x\"}")))
                .getMessage().contains("unknown field 'sah256'"));
        assertTrue(assertThrows(CatalogException.class, () -> parse(VOICE + "," + VOICE)).getMessage()
                .contains("duplicate id"));
        assertTrue(assertThrows(CatalogException.class, () -> parse("{"))
                .getMessage().startsWith("test.json"));
    }
}
