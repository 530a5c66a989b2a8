package io.keyline.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;

/**
 * The state's database, migrated to the current schema: the embedded H2 file in a state folder
 * ({@code store.h2}, the default) or a PostgreSQL database that several machines share
 * ({@code store.postgres}). The repositories of this package ({@link JdbcStateStore}, {@link JdbcCredentialStore},
 * {@link JdbcWorkers}, …) speak the same SQL to both; what differs is the few statements of {@link Dialect} and
 * what is behind this interface: how sessions are opened and pooled, how a commit is made durable, what a
 * failure means.
 */
public interface Database extends AutoCloseable {

    /** Which database this is. */
    Dialect dialect();

    /** The state as messages name it: the folder, or {@code postgresql://host:port/db?user=…} (no password). */
    String where();

    /** The local state folder: the whole state (H2), or only the run logs (PostgreSQL). */
    Path stateDir();

    /** A session of the user that runs jobs (it reads and writes the tables, nothing else), in auto-commit mode. */
    Connection connection() throws SQLException;

    /** A session with the owner's rights, for maintenance that needs them ({@code BACKUP TO}, {@code SCRIPT TO}). */
    Connection adminConnection() throws SQLException;

    /**
     * A session outside the pool that its caller keeps for as long as it needs (a PostgreSQL session advisory lock
     * lives as long as its session); on H2, where nothing needs one, a pooled session.
     */
    default Connection dedicated() throws SQLException {
        return connection();
    }

    /**
     * Makes every commit so far durable before the caller goes on (after the intent of an unsafe step, before its
     * effect). A no-op where a commit is durable when it returns.
     */
    void sync();

    /** Whether {@code e} says the connection to the database broke: the work is tried again on a new one. */
    boolean connectionLost(SQLException e);

    /** After {@link #connectionLost}: the sessions kept are dropped and the next ones are new (H2: the state is opened again). */
    void reconnect();

    /** What a failed statement means, as words: what failed and, where it can, what to do. */
    io.keyline.text.Said describe(SQLException e);

    /** Keys or workers were changed by this process: consoles that {@link #listen} hear of it (PostgreSQL). */
    default void touched() {
    }

    /**
     * Calls {@code onChange} on a thread of its own when any process announces a change; where nothing is announced
     * (H2: consoles poll), the handle does nothing.
     */
    default AutoCloseable listen(Runnable onChange) {
        return () -> { };
    }

    @Override
    void close();

    /** The first line of {@code s} (an SQL error's message may hold the whole statement), never null. */
    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Runs {@code sql}, which returns one number (a count, a maximum). */
    static long single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Column {@code col} of {@code rs}, a time in epoch milliseconds, or {@code null} when it is NULL. */
    static Instant instant(ResultSet rs, int col) throws SQLException {
        long v = rs.getLong(col);
        return rs.wasNull() ? null : Instant.ofEpochMilli(v);
    }

    /** Sets parameter {@code col} to {@code t} in epoch milliseconds, or to NULL when {@code t} is {@code null}. */
    static void setInstant(PreparedStatement ps, int col, Instant t) throws SQLException {
        if (t == null) {
            ps.setNull(col, Types.BIGINT);
        } else {
            ps.setLong(col, t.toEpochMilli());
        }
    }

    /**
     * A clear message when {@code e} failed because the disk that holds {@code dir} is full (the database itself
     * only says "Could not save properties" or "Writing to ... failed"), else null.
     */
    static io.keyline.text.Said diskFull(Path dir, Throwable e) {
        if (dir == null || !mentionsNoSpace(e, 0)) {
            return null;
        }
        try {
            return io.keyline.text.Said.of("core.state.diskFullFree", dir.toString(),
                    String.valueOf(Files.getFileStore(dir).getUsableSpace() / 1024));
        } catch (IOException | RuntimeException ignored) {
            // the message is clear without the figure
            return io.keyline.text.Said.of("core.state.diskFull", dir.toString());
        }
    }

    private static boolean mentionsNoSpace(Throwable t, int depth) {
        if (t == null || depth > 12) {
            return false;
        }
        if (t.getMessage() != null && t.getMessage().contains("No space left on device")) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (mentionsNoSpace(s, depth + 1)) {
                return true;
            }
        }
        return t.getCause() != t && mentionsNoSpace(t.getCause(), depth + 1);
    }
}
