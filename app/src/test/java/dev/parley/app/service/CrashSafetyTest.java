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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Killing the app (SIGKILL: no shutdown hook, no rollback) loses no completed message and never
 * corrupts the database: once mid-reply, and twenty times at random moments of a run of turns.
 */
class CrashSafetyTest {

    private static final int KILLS = 20;

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

    /**
     * Twenty child JVMs write turns into one database and are killed after a random number of
     * completed turns (0 to 5), so the kill falls anywhere in a turn: generating, storing the
     * question, storing the reply. After each kill: SQLite's integrity check passes, every turn any
     * child reported complete is there, and the turn in progress left at most its question and
     * reply (never a part of a row, never a message out of order).
     */
    @Test
    void twentyKillsAtRandomMomentsLoseNoCompletedTurn(@TempDir Path dir) throws Exception {
        Path model = TestModels.tiny(dir);
        Path db = dir.resolve("conversations.db");
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<long[]> completed = new ArrayList<>(); // conversation, user id, reply id, run, turn
        int[] outcomes = new int[3]; // kills that left 0, 1 (the question) or 2 (question and reply) unreported messages
        for (int run = 0; run < KILLS; run++) {
            int turnsBeforeKill = random.nextInt(6);
            long delayMicros = random.nextInt(20_000);
            String where = "run " + run + " (seed " + seed + ", killed " + delayMicros + " us after " + turnsBeforeKill
                    + " turns)";
            Killed killed = killAfter(db, model, run, turnsBeforeKill, delayMicros, completed);
            long conversation = killed.conversation();
            // The child goes on working during the delay: count the turns it really reported before it died.
            int reported = killed.turnsReported();
            where += ", " + reported + " turns reported";
            assertEquals("ok", integrityCheck(db), where);
            try (ConversationStore store = ConversationStore.open(db)) {
                for (long[] turn : completed) {
                    List<StoredMessage> messages = store.messages(turn[0]);
                    StoredMessage user = byId(messages, turn[1], where);
                    StoredMessage reply = byId(messages, turn[2], where);
                    assertEquals(Role.USER, user.role(), where);
                    assertEquals(TurnWriterChild.question(String.valueOf(turn[3]), (int) turn[4]), user.content(), where);
                    assertEquals(Role.ASSISTANT, reply.role(), where);
                }
                List<StoredMessage> last = store.messages(conversation);
                int extra = last.size() - 2 * reported;
                assertTrue(extra >= 0 && extra <= 2, where + ": " + last.size() + " messages");
                for (int i = 0; i < last.size(); i++) {
                    assertEquals(i % 2 == 0 ? Role.USER : Role.ASSISTANT, last.get(i).role(), where + ", message " + i);
                }
                outcomes[extra]++;
                if (extra > 0) {
                    assertEquals(TurnWriterChild.question(String.valueOf(run), reported),
                            last.get(2 * reported).content(), where + ": the question in progress");
                }
            }
        }
        System.out.printf("CrashSafetyTest: %d kills (seed %d), %d completed turns kept; the turn in progress left "
                + "nothing %d times, its question %d times, question and reply %d times%n", KILLS, seed, completed.size(),
                outcomes[0], outcomes[1], outcomes[2]);
    }

    /** What a killed child left: its conversation and how many completed turns it reported before it died. */
    private record Killed(long conversation, int turnsReported) {
    }

    /**
     * Runs a child until it reports {@code turns} completed turns, kills it {@code delayMicros} later, and
     * returns its conversation and every turn it reported. The delay only picks the moment of the kill (a turn
     * takes a few milliseconds: generating, then two committed writes), so the child may complete more turns
     * before the kill lands: the rest of its output is read to the end (the pipe keeps what it wrote before it
     * died) and those turns count as completed too.
     */
    private static Killed killAfter(Path db, Path model, int run, int turns, long delayMicros, List<long[]> completed)
            throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // A quick start: one compiler tier and the serial collector; the child only needs to live for seconds.
        Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                TurnWriterChild.class.getName(), db.toString(), model.toString(), String.valueOf(run))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long conversation = -1;
        int seen = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            boolean killed = false;
            while ((line = out.readLine()) != null) {
                String[] f = line.split(" ");
                if (f[0].equals("CONVERSATION")) {
                    conversation = Long.parseLong(f[1]);
                } else if (f[0].equals("TURN")) {
                    completed.add(new long[] {conversation, Long.parseLong(f[1]), Long.parseLong(f[2]), run, seen});
                    seen++;
                }
                if (!killed && conversation >= 0 && seen == turns) {
                    LockSupport.parkNanos(delayMicros * 1000);
                    // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe
                    child.toHandle().destroyForcibly();
                    killed = true;      // then read on to the end of what the child wrote before it died
                }
            }
            assertTrue(killed, "run " + run + " was killed, not ended by itself (exit " + child.waitFor() + ")");
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
        }
        assertTrue(seen >= turns, "run " + run + " reported " + seen + " of its " + turns + " turns before it was killed");
        assertTrue(conversation >= 0, "run " + run + " created its conversation");
        return new Killed(conversation, seen);
    }

    private static String integrityCheck(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("PRAGMA integrity_check")) {
            r.next();
            return r.getString(1);
        }
    }

    private static StoredMessage byId(List<StoredMessage> messages, long id, String where) {
        return messages.stream().filter(m -> m.id() == id).findFirst()
                .orElseThrow(() -> new AssertionError(where + ": completed message " + id + " is lost"));
    }
}
