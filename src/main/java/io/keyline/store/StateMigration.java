package io.keyline.store;

import io.keyline.core.OperatorException;
import io.keyline.core.StateUnavailableException;
import io.keyline.core.WorkerRegistry;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.text.Said;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code keyline migrate-state}: copies an embedded (H2) state into an empty PostgreSQL database, as it is
 * (keys, step records, events with their ids, credentials still encrypted, pauses, saved plans, child
 * processes, the notification cursor and outbox), in one transaction, from one consistent snapshot of
 * the source, and checks that every table has as many rows on both sides.
 */
public final class StateMigration {

    /** The tables copied, parents first. Workers are not: they are processes of the old state. */
    static final List<String> TABLES = List.of("job_control", "saved_plan", "credential", "key_state", "step_state",
            "step_child", "key_event", "notify_cursor", "notify_delivery", "state_setting");

    private static final int BATCH = 1000;

    private StateMigration() {
    }

    /**
     * What was copied: rows per table (equal on both sides, or the copy failed).
     *
     * @param rows           table → rows
     * @param keyFingerprint the master key the credentials were encrypted with, or {@code null} when none are stored
     */
    public record Result(Map<String, Long> rows, String keyFingerprint) {
    }

    /**
     * Copies {@code from} (an H2 state) into {@code to} (a migrated, empty PostgreSQL state).
     *
     * @throws OperatorException          when the target is not empty, the source is not H2, or a key of the
     *                                    source is being run right now (stop the runs first)
     * @throws StateUnavailableException  when reading or writing fails (nothing is left in the target)
     */
    public static Result copy(Database from, Database to, Instant now) {
        if (from.dialect() != Dialect.H2 || to.dialect() != Dialect.POSTGRESQL) {
            throw new OperatorException(Said.of("core.migrate.wrongKinds", from.where(), to.where()));
        }
        try (Connection src = from.connection(); Connection dst = to.connection()) {
            src.setAutoCommit(false);
            src.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            dst.setAutoCommit(false);
            try {
                refuseRunning(src, now, from);
                refuseNotEmpty(dst, to);
                Map<String, Long> rows = new LinkedHashMap<>();
                try (Statement st = dst.createStatement()) {
                    // the cursor row the migration made on the empty database gives way to the source's
                    st.executeUpdate("DELETE FROM notify_cursor");
                }
                for (String table : TABLES) {
                    rows.put(table, copyTable(src, dst, table));
                }
                check(src, dst, rows);
                String fingerprint = keyFingerprint(src);
                if (fingerprint != null) {
                    try (PreparedStatement ps = dst.prepareStatement("INSERT INTO state_setting (name, setting_value, updated_at) "
                            + "SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM state_setting WHERE name = ?)")) {
                        ps.setString(1, JdbcCredentialStore.KEY_SETTING);
                        ps.setString(2, fingerprint);
                        ps.setLong(3, now.toEpochMilli());
                        ps.setString(4, JdbcCredentialStore.KEY_SETTING);
                        ps.executeUpdate();
                    }
                }
                try (Statement st = dst.createStatement()) {
                    // identities continue after the copied ids
                    for (String table : List.of("key_event", "notify_delivery")) {
                        st.execute("SELECT setval(pg_get_serial_sequence('" + table + "', 'id'), COALESCE(MAX(id), 1), "
                                + "MAX(id) IS NOT NULL) FROM " + table);
                    }
                }
                dst.commit();
                src.commit();
                to.touched();
                return new Result(rows, fingerprint);
            } catch (SQLException | RuntimeException e) {
                dst.rollback();
                src.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.migrate.failed", to.describe(e)), e);
        }
    }

    /** A key being run on the old state must not be taken over on the new one while it still runs there. */
    private static void refuseRunning(Connection src, Instant now, Database from) throws SQLException {
        List<String> live = new ArrayList<>();
        try (PreparedStatement ps = src.prepareStatement("SELECT job, key_value, lease_owner, lease_until FROM key_state "
                + "WHERE state = 'RUNNING'"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Instant until = Database.instant(rs, 4);
                KeyRecord r = new KeyRecord(rs.getString(1), rs.getString(2), KeyState.RUNNING, null, 0, null, null,
                        null, null, null, null, null, rs.getString(3), until, 1, now, now);
                if (WorkerRegistry.localRule(r, now)) {
                    live.add(r.job() + " " + r.key());
                }
            }
        }
        if (!live.isEmpty()) {
            throw new OperatorException(Said.of(live.size() == 1 ? "core.migrate.running1"
                    : "core.migrate.running", from.where(), String.valueOf(live.size()), live.get(0)));
        }
    }

    private static void refuseNotEmpty(Connection dst, Database to) throws SQLException {
        for (String table : TABLES) {
            String where = table.equals("notify_cursor") ? " WHERE last_event_id <> 0" : "";
            long n = Database.single(dst, "SELECT COUNT(*) FROM " + table + where);
            if (n > 0) {
                throw new OperatorException(Said.of(n == 1 ? "core.migrate.notEmpty1"
                        : "core.migrate.notEmpty", to.where(), table, String.valueOf(n)));
            }
        }
        long workers = Database.single(dst, "SELECT COUNT(*) FROM worker WHERE stopped_at IS NULL");
        if (workers > 0) {
            throw new OperatorException(Said.of(workers == 1 ? "core.migrate.inUse1"
                    : "core.migrate.inUse", to.where(), String.valueOf(workers)));
        }
    }

    private static long copyTable(Connection src, Connection dst, String table) throws SQLException {
        long n = 0;
        try (Statement st = src.createStatement()) {
            st.setFetchSize(BATCH);
            try (ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
                ResultSetMetaData md = rs.getMetaData();
                int cols = md.getColumnCount();
                List<String> names = new ArrayList<>();
                int[] types = new int[cols];
                for (int i = 1; i <= cols; i++) {
                    names.add(md.getColumnName(i).toLowerCase(java.util.Locale.ROOT));
                    types[i - 1] = md.getColumnType(i);
                }
                String sql = "INSERT INTO " + table + " (" + String.join(", ", names) + ") VALUES ("
                        + String.join(", ", java.util.Collections.nCopies(cols, "?")) + ")";
                try (PreparedStatement ps = dst.prepareStatement(sql)) {
                    int pending = 0;
                    while (rs.next()) {
                        for (int i = 1; i <= cols; i++) {
                            Object v = rs.getObject(i);
                            if (v == null) {
                                ps.setNull(i, types[i - 1]);
                            } else {
                                ps.setObject(i, v);
                            }
                        }
                        ps.addBatch();
                        n++;
                        if (++pending == BATCH) {
                            ps.executeBatch();
                            pending = 0;
                        }
                    }
                    if (pending > 0) {
                        ps.executeBatch();
                    }
                }
            }
        }
        return n;
    }

    /** The fingerprint of the key the stored credentials were encrypted with (one for all, or none). */
    private static String keyFingerprint(Connection src) throws SQLException {
        Map<String, Integer> seen = new HashMap<>();
        try (Statement st = src.createStatement(); ResultSet rs = st.executeQuery("SELECT master_key FROM credential")) {
            while (rs.next()) {
                seen.merge(rs.getString(1), 1, Integer::sum);
            }
        }
        return seen.size() == 1 ? seen.keySet().iterator().next() : null;
    }

    /**
     * Before the copy commits: every table has as many rows in the copy as in the source's snapshot (and as
     * were read); the events end at the same id.
     */
    private static void check(Connection src, Connection dst, Map<String, Long> copied) throws SQLException {
        for (var e : copied.entrySet()) {
            long here = Database.single(src, "SELECT COUNT(*) FROM " + e.getKey());
            long there = Database.single(dst, "SELECT COUNT(*) FROM " + e.getKey());
            if (there != here || here != e.getValue()) {
                throw new OperatorException(Said.of("core.migrate.countsDiffer", e.getKey(), String.valueOf(here),
                        String.valueOf(there), String.valueOf(e.getValue())));
            }
        }
        long a = Database.single(src, "SELECT COALESCE(MAX(id), 0) FROM key_event");
        long b = Database.single(dst, "SELECT COALESCE(MAX(id), 0) FROM key_event");
        if (a != b) {
            throw new OperatorException(Said.of("core.migrate.lastEventDiffers", String.valueOf(b),
                    String.valueOf(a)));
        }
    }
}
