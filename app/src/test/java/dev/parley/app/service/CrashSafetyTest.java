package dev.parley.app.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.store.ConversationStore;
import dev.parley.app.store.StoredMessage;
import dev.parley.engine.tokenizer.Role;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Killing the app while a reply streams loses no earlier message. */
class CrashSafetyTest {

    @Test
    void killingTheProcessMidReplyKeepsEveryCompletedMessage(@TempDir Path dir) throws Exception {
        Path model = TestModels.slow(dir);
        Path db = dir.resolve("conversations.db");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                StreamingChild.class.getName(), db.toString(), model.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Process child = pb.start();
        List<String> lines = new ArrayList<>();
        long conversation = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (line.startsWith("CONVERSATION ")) {
                    conversation = Long.parseLong(line.substring(13));
                }
                if (line.equals("STREAMING")) {
                    child.destroyForcibly();
                    break;
                }
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
        }
        assertEquals(List.of("CONVERSATION " + conversation, "STREAMING"), lines, "the child was killed mid-reply");
        assertFalse(child.exitValue() == 0, "killed, not finished");

        try (ConversationStore store = ConversationStore.open(db)) {
            List<StoredMessage> messages = store.messages(conversation);
            assertEquals(List.of(Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT, Role.USER),
                    messages.stream().map(StoredMessage::role).toList(),
                    "both completed turns and the question being answered are there; the partial reply is not");
            assertEquals("First question", messages.get(0).content());
            assertEquals("Second question", messages.get(2).content());
            assertTrue(messages.get(2).spoken());
            assertEquals("Now a very long answer", messages.get(4).content());
            assertNotNull(store.find(conversation).orElseThrow().title());
        }
    }
}
