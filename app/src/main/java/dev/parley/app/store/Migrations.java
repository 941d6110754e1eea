package dev.parley.app.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The database schema as an ordered list of migrations; {@code PRAGMA user_version} records how many
 * have run, so opening an older file brings it up to date and a newer one is refused.
 */
final class Migrations {
    /** Migration {@code i} takes the schema from version {@code i} to {@code i + 1}. */
    static final List<List<String>> STEPS = List.of(
            List.of("""
                    CREATE TABLE conversations (
                        id      INTEGER PRIMARY KEY AUTOINCREMENT,
                        title   TEXT    NOT NULL,
                        created INTEGER NOT NULL,
                        updated INTEGER NOT NULL)""",
                    """
                    CREATE TABLE messages (
                        id           INTEGER PRIMARY KEY AUTOINCREMENT,
                        conversation INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                        role         TEXT    NOT NULL CHECK (role IN ('SYSTEM', 'USER', 'ASSISTANT')),
                        content      TEXT    NOT NULL,
                        spoken       INTEGER NOT NULL DEFAULT 0,
                        interrupted  INTEGER NOT NULL DEFAULT 0,
                        created      INTEGER NOT NULL)""",
                    "CREATE INDEX messages_by_conversation ON messages(conversation, id)",
                    "CREATE INDEX conversations_by_update ON conversations(updated DESC)"));

    private Migrations() {
    }

    /** The schema version this build writes. */
    static int latest() {
        return STEPS.size();
    }

    /** Runs the missing migrations, each in its own transaction with its version bump. */
    static void apply(Connection c, String where) throws SQLException {
        int version = version(c);
        if (version > latest()) {
            throw new StoreException("the conversations database " + where + " has schema version " + version
                    + " but this Parley knows versions up to " + latest() + " (written by a newer Parley?)");
        }
        for (int v = version; v < latest(); v++) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                for (String sql : STEPS.get(v)) {
                    s.execute(sql);
                }
                s.execute("PRAGMA user_version = " + (v + 1));
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    static int version(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("PRAGMA user_version")) {
            return r.next() ? r.getInt(1) : 0;
        }
    }
}
