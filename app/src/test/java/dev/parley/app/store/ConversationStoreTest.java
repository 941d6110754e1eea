package dev.parley.app.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The conversation database on a real SQLite file. */
class ConversationStoreTest {

    @Test
    void messagesSurviveReopeningTheFile(@TempDir Path dir) {
        Path db = dir.resolve("sub/conversations.db");
        long id;
        try (ConversationStore store = ConversationStore.open(db)) {
            assertEquals("wal", store.journalMode());
            assertEquals(Migrations.latest(), store.schemaVersion());
            id = store.create("  Trip to Lisbon ").id();
            store.append(id, Role.USER, "Where should I eat?", true, false);
            store.append(id, Role.ASSISTANT, "Try the *pastéis*.", false, true);
        }
        try (ConversationStore store = ConversationStore.open(db)) {
            List<ConversationSummary> all = store.list();
            assertEquals(1, all.size());
            assertEquals("Trip to Lisbon", all.getFirst().title());
            List<StoredMessage> messages = store.messages(id);
            assertEquals(2, messages.size());
            assertEquals(Role.USER, messages.get(0).role());
            assertTrue(messages.get(0).spoken());
            assertFalse(messages.get(0).interrupted());
            assertEquals("Try the *pastéis*.", messages.get(1).content());
            assertTrue(messages.get(1).interrupted());
        }
    }

    @Test
    void listsMostRecentlyUpdatedFirstAndSearchesTitlesAndText(@TempDir Path dir) {
        try (ConversationStore store = ConversationStore.open(dir.resolve("c.db"), new TickingClock())) {
            long a = store.create("Recipes").id();
            long b = store.create("Physics").id();
            store.append(a, Role.USER, "How long do I boil an egg? 100% sure", false, false);
            assertEquals(List.of(a, b), store.list().stream().map(ConversationSummary::id).toList());
            assertEquals(List.of(a), store.search("EGG").stream().map(ConversationSummary::id).toList());
            assertEquals(List.of(b), store.search("phys").stream().map(ConversationSummary::id).toList());
            assertEquals(List.of(a), store.search("100%").stream().map(ConversationSummary::id).toList());
            assertEquals(List.of(), store.search("0_%"));
            assertEquals(2, store.search(" ").size());
        }
    }

    @Test
    void renameAndDeleteCascadeToMessages(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("c.db");
        try (ConversationStore store = ConversationStore.open(db)) {
            long id = store.create("Old").id();
            StoredMessage m = store.append(id, Role.USER, "hi", false, false);
            store.append(id, Role.ASSISTANT, "hello", false, false);
            store.rename(id, "New");
            assertEquals("New", store.find(id).orElseThrow().title());
            store.deleteMessage(m.id());
            assertEquals(1, store.messages(id).size());
            store.delete(id);
            assertTrue(store.find(id).isEmpty());
            assertEquals(List.of(), store.messages(id));
        }
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db);
             var r = c.createStatement().executeQuery("SELECT count(*) FROM messages")) {
            r.next();
            assertEquals(0, r.getInt(1), "messages of a deleted conversation are gone from the file");
        }
    }

    @Test
    void badInputIsRefusedWithAClearMessage(@TempDir Path dir) throws Exception {
        try (ConversationStore store = ConversationStore.open(dir.resolve("c.db"))) {
            var e = assertThrows(StoreException.class, () -> store.append(42, Role.USER, "x", false, false));
            assertTrue(e.getMessage().contains("no conversation with id 42") || e.getMessage().contains("id 42"),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.create(" "));
        }
        Path folder = Files.createDirectories(dir.resolve("adir"));
        var e = assertThrows(StoreException.class, () -> ConversationStore.open(folder));
        assertTrue(e.getMessage().contains("folder"), e.getMessage());
    }

    @Test
    void aNewerSchemaIsRefused(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("c.db");
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("PRAGMA user_version = 99");
        }
        var e = assertThrows(StoreException.class, () -> ConversationStore.open(db));
        assertTrue(e.getMessage().contains("schema version 99"), e.getMessage());
    }

    @Test
    void exportsMarkdownAndJson(@TempDir Path dir) throws Exception {
        try (ConversationStore store = ConversationStore.open(dir.resolve("c.db"))) {
            ConversationSummary c = store.create("Export me");
            store.append(c.id(), Role.USER, "Say \"hi\"", true, false);
            store.append(c.id(), Role.ASSISTANT, "- hi\n- there", false, true);
            ConversationExporter exporter = new ConversationExporter();
            String md = exporter.markdown(c, store.messages(c.id()));
            assertTrue(md.startsWith("# Export me\n"), md);
            assertTrue(md.contains("## You (spoken)\n\nSay \"hi\"\n"), md);
            assertTrue(md.contains("## Parley (interrupted)\n\n- hi\n- there\n"), md);
            JsonNode json = new ObjectMapper().readTree(exporter.json(c, store.messages(c.id())));
            assertEquals("Export me", json.get("title").asText());
            assertEquals(2, json.get("messages").size());
            assertEquals("Say \"hi\"", json.get("messages").get(0).get("content").asText());
            assertEquals("assistant", json.get("messages").get(1).get("role").asText());
            assertTrue(json.get("messages").get(1).get("interrupted").asBoolean());
        }
    }

    /** A clock one second further on each time it is read, so ordering by time is deterministic. */
    private static final class TickingClock extends java.time.Clock {
        private java.time.Instant now = java.time.Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public java.time.Instant instant() {
            now = now.plusSeconds(1);
            return now;
        }
    }
}
