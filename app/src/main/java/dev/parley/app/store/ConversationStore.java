package dev.parley.app.store;

import dev.parley.engine.tokenizer.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Conversations and their messages in a SQLite file (WAL journal synced on every commit, foreign keys
 * on), so a power cut as well as a crash keeps every committed message. Every message is
 * written in one transaction when it completes, so a crash loses at most the reply being generated.
 * Thread-safe: one connection, every method synchronized.
 */
public final class ConversationStore implements AutoCloseable {
    private final Connection connection;
    private final Clock clock;
    private final Path file;

    private ConversationStore(Connection connection, Clock clock, Path file) {
        this.connection = connection;
        this.clock = clock;
        this.file = file;
    }

    /** Opens (creating when missing) the database at {@code file} and brings its schema up to date. */
    public static ConversationStore open(Path file) {
        return open(file, Clock.systemUTC());
    }

    /** As {@link #open(Path)}, with the clock that stamps rows. */
    public static ConversationStore open(Path file, Clock clock) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (Files.isDirectory(file)) {
                throw new StoreException("expected a database file but found a folder: " + file);
            }
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode = WAL");
                s.execute("PRAGMA synchronous = FULL");
                s.execute("PRAGMA foreign_keys = ON");
                s.execute("PRAGMA busy_timeout = 5000");
                Migrations.apply(c, file.toString());
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
            return new ConversationStore(c, clock, file);
        } catch (SQLException e) {
            throw new StoreException("cannot open the conversations database " + file + ": " + e.getMessage(), e);
        } catch (java.io.IOException e) {
            throw new StoreException("cannot create the folder of " + file + ": " + e.getMessage(), e);
        }
    }

    /** The database file. */
    public Path file() {
        return file;
    }

    /** The journal mode SQLite reports ({@code wal} once opened). */
    public synchronized String journalMode() {
        return query("journal mode", () -> {
            try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("PRAGMA journal_mode")) {
                r.next();
                return r.getString(1);
            }
        });
    }

    /** The schema version of the file. */
    public synchronized int schemaVersion() {
        return query("schema version", () -> Migrations.version(connection));
    }

    /** Creates an empty conversation. */
    public synchronized ConversationSummary create(String title) {
        String t = requireTitle(title);
        Instant now = clock.instant();
        return query("create a conversation", () -> {
            try (PreparedStatement p = connection.prepareStatement(
                    "INSERT INTO conversations(title, created, updated) VALUES (?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                p.setString(1, t);
                p.setLong(2, now.toEpochMilli());
                p.setLong(3, now.toEpochMilli());
                p.executeUpdate();
                try (ResultSet keys = p.getGeneratedKeys()) {
                    keys.next();
                    return new ConversationSummary(keys.getLong(1), t, millis(now), millis(now));
                }
            }
        });
    }

    /** Every conversation, most recently updated first. */
    public synchronized List<ConversationSummary> list() {
        return summaries("SELECT id, title, created, updated FROM conversations ORDER BY updated DESC, id DESC",
                List.of());
    }

    /**
     * Conversations whose title or any message contains {@code text} (case-insensitive for ASCII),
     * most recently updated first; a blank query lists everything.
     */
    public synchronized List<ConversationSummary> search(String text) {
        if (text == null || text.isBlank()) {
            return list();
        }
        String pattern = "%" + text.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
        return summaries("""
                SELECT id, title, created, updated FROM conversations c
                WHERE c.title LIKE ? ESCAPE '\\'
                   OR EXISTS (SELECT 1 FROM messages m WHERE m.conversation = c.id AND m.content LIKE ? ESCAPE '\\')
                ORDER BY updated DESC, id DESC""", List.of(pattern, pattern));
    }

    /** The conversation with {@code id}, if stored. */
    public synchronized Optional<ConversationSummary> find(long id) {
        return summaries("SELECT id, title, created, updated FROM conversations WHERE id = ?", List.of(id))
                .stream().findFirst();
    }

    /** Renames a conversation. */
    public synchronized void rename(long id, String title) {
        String t = requireTitle(title);
        update("rename conversation " + id, "UPDATE conversations SET title = ? WHERE id = ?", t, id);
    }

    /** Deletes a conversation and its messages. */
    public synchronized void delete(long id) {
        update("delete conversation " + id, "DELETE FROM conversations WHERE id = ?", id);
    }

    /**
     * Appends a completed message and marks the conversation updated, in one transaction.
     *
     * @throws StoreException when the conversation does not exist
     */
    public synchronized StoredMessage append(long conversationId, Role role, String content, boolean spoken,
                                             boolean interrupted) {
        if (content == null) {
            throw new IllegalArgumentException("expected message text but found null");
        }
        Instant now = clock.instant();
        return query("append a message to conversation " + conversationId, () -> {
            connection.setAutoCommit(false);
            try {
                long id;
                try (PreparedStatement p = connection.prepareStatement("""
                        INSERT INTO messages(conversation, role, content, spoken, interrupted, created)
                        VALUES (?, ?, ?, ?, ?, ?)""", Statement.RETURN_GENERATED_KEYS)) {
                    p.setLong(1, conversationId);
                    p.setString(2, role.name());
                    p.setString(3, content);
                    p.setInt(4, spoken ? 1 : 0);
                    p.setInt(5, interrupted ? 1 : 0);
                    p.setLong(6, now.toEpochMilli());
                    p.executeUpdate();
                    try (ResultSet keys = p.getGeneratedKeys()) {
                        keys.next();
                        id = keys.getLong(1);
                    }
                }
                try (PreparedStatement p = connection.prepareStatement(
                        "UPDATE conversations SET updated = ? WHERE id = ?")) {
                    p.setLong(1, now.toEpochMilli());
                    p.setLong(2, conversationId);
                    p.executeUpdate();
                }
                connection.commit();
                return new StoredMessage(id, conversationId, role, content, spoken, interrupted, millis(now));
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                if (e instanceof SQLException s && s.getMessage() != null && s.getMessage().contains("FOREIGN KEY")) {
                    throw new StoreException("expected an existing conversation but found none with id "
                            + conversationId, e);
                }
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        });
    }

    /** Deletes one message (regenerate drops the reply it replaces). */
    public synchronized void deleteMessage(long messageId) {
        update("delete message " + messageId, "DELETE FROM messages WHERE id = ?", messageId);
    }

    /** The messages of a conversation in the order they were written. */
    public synchronized List<StoredMessage> messages(long conversationId) {
        return query("read conversation " + conversationId, () -> {
            try (PreparedStatement p = connection.prepareStatement("""
                    SELECT id, conversation, role, content, spoken, interrupted, created
                    FROM messages WHERE conversation = ? ORDER BY id""")) {
                p.setLong(1, conversationId);
                try (ResultSet r = p.executeQuery()) {
                    List<StoredMessage> out = new ArrayList<>();
                    while (r.next()) {
                        out.add(new StoredMessage(r.getLong(1), r.getLong(2), Role.valueOf(r.getString(3)),
                                r.getString(4), r.getInt(5) != 0, r.getInt(6) != 0,
                                Instant.ofEpochMilli(r.getLong(7))));
                    }
                    return out;
                }
            }
        });
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new StoreException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }

    private List<ConversationSummary> summaries(String sql, List<Object> params) {
        return query("list conversations", () -> {
            try (PreparedStatement p = connection.prepareStatement(sql)) {
                bind(p, params.toArray());
                try (ResultSet r = p.executeQuery()) {
                    List<ConversationSummary> out = new ArrayList<>();
                    while (r.next()) {
                        out.add(new ConversationSummary(r.getLong(1), r.getString(2),
                                Instant.ofEpochMilli(r.getLong(3)), Instant.ofEpochMilli(r.getLong(4))));
                    }
                    return out;
                }
            }
        });
    }

    private void update(String what, String sql, Object... params) {
        query(what, () -> {
            try (PreparedStatement p = connection.prepareStatement(sql)) {
                bind(p, params);
                return p.executeUpdate();
            }
        });
    }

    private static void bind(PreparedStatement p, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            p.setObject(i + 1, params[i]);
        }
    }

    private static String requireTitle(String title) {
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("expected a conversation title but found "
                    + (title == null ? "null" : "a blank one"));
        }
        return title.strip();
    }

    private static Instant millis(Instant t) {
        return Instant.ofEpochMilli(t.toEpochMilli());
    }

    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    private <T> T query(String what, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new StoreException("cannot " + what + " in " + file + ": " + e.getMessage(), e);
        }
    }
}
