package io.keyline.store.h2;

import io.keyline.store.Database;
import io.keyline.testing.CpuBurn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * After a kill, an index of the state can be out of step with its table's rows (the crash loop left
 * {@code key_state_by_state} without the entry of a {@code RUNNING} key, seed 37009259683614: every later
 * run spun 10 s on that key and left it {@code RUNNING} for good). A real child process removes one index
 * entry and dies without closing the file; the next open must find and rebuild the index.
 */
class IndexCheckTest {

    @TempDir
    Path tmp;

    @Test
    void anIndexEntryAKillLostIsFoundAndTheKeyCanMoveAgain() throws Exception {
        Path state = tmp.resolve("state");
        seed(state);
        try (CpuBurn burn = CpuBurn.start(2)) {
            corrupt(state, "key_state", "key_state_by_state", "daily", "k1");
        }
        assertThat(Recovery.closedCleanly(state.resolve("keyline.mv.db"))).as("the child died with the file open")
                .isFalse();
        try (H2Database db = H2Database.open(state); Connection c = db.connection(); Statement st = c.createStatement()) {
            st.execute("SET LOCK_TIMEOUT 2000");
            assertThat(count(c, "SELECT COUNT(*) FROM key_state WHERE state = 'RUNNING'")).isEqualTo(1);
            assertThat(st.executeUpdate("UPDATE key_state SET state = 'DONE' WHERE job = 'daily' AND key_value = 'k1'"))
                    .as("the key can move on").isEqualTo(1);
        }
        assertThat(IndexCheck.lastReport).contains("key_state_by_state").contains("finds 0 of the 1 rows");
    }

    @Test
    void aPrimaryKeyEntryAKillLostIsFoundSoTheKeyDoesNotLookNew() throws Exception {
        Path state = tmp.resolve("state");
        seed(state);
        String pk = primaryKey(state).name();
        corrupt(state, "key_state", pk, "daily", "k2");
        try (H2Database db = H2Database.open(state); Connection c = db.connection()) {
            assertThat(count(c, "SELECT COUNT(*) FROM key_state WHERE job = 'daily' AND key_value = 'k2'"))
                    .as("found through the primary key").isEqualTo(1);
            assertThatThrownBy(() -> {
                try (Statement st = c.createStatement()) {
                    st.executeUpdate("INSERT INTO key_state (job, key_value, state, attempts, version, created_at, "
                            + "updated_at) VALUES ('daily', 'k2', 'PENDING', 0, 1, 0, 0)");
                }
            }).as("a second row of the same key is refused").isInstanceOf(SQLException.class);
        }
        assertThat(IndexCheck.lastReport).contains(pk);
    }

    /** The process that served the state was the one killed: the one that takes the file over checks it. */
    @Test
    void aProcessThatTakesTheStateOverFromAKilledServerRebuildsTheIndex() throws Exception {
        Path state = tmp.resolve("state");
        seed(state);
        IndexCheck.lastReport = null;
        Process p = start(state, "key_state", "key_state_by_state", "daily", "k1", tmp.toString());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!java.nio.file.Files.exists(tmp.resolve("ready")) && p.isAlive() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        try (H2Database db = H2Database.open(state)) {
            try (Connection c = db.connection()) {
                assertThat(LeftoverTransactions.embedded(c)).as("served by the child").isFalse();
            }
            java.nio.file.Files.writeString(tmp.resolve("go"), "go");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
            assertThat(out).contains("removed");
            db.reconnect();
            try (Connection c = db.connection(); Statement st = c.createStatement()) {
                assertThat(LeftoverTransactions.embedded(c)).as("now ours").isTrue();
                st.execute("SET LOCK_TIMEOUT 2000");
                assertThat(st.executeUpdate("UPDATE key_state SET state = 'DONE' WHERE job = 'daily' "
                        + "AND key_value = 'k1'")).isEqualTo(1);
            }
        }
        assertThat(IndexCheck.lastReport).contains("key_state_by_state");
    }

    /**
     * A rebuild builds the replacement before the old object goes; what a kill between two of its steps
     * leaves (a replacement index, a guard instead of the primary key) is completed by the next open, which
     * checks again because the marker of the check that was cut short is still there.
     */
    @Test
    void aRebuildCutShortIsCompletedByTheNextOpen() throws Exception {
        Path state = tmp.resolve("state");
        seed(state);
        String pk = primaryKey(state).constraint();
        try (Connection a = java.sql.DriverManager.getConnection(H2Database.url(state), DatabasePasswords.ADMIN_USER,
                DatabasePasswords.read(state).admin()); Statement st = a.createStatement()) {
            // a plain index: its replacement built and the original dropped, the rename not done
            st.execute("CREATE INDEX key_state_by_state" + IndexCheck.REPLACEMENT + " ON key_state (state, job)");
            st.execute("DROP INDEX key_state_by_state");
            // the primary key: its guard built and the constraint dropped, not added again
            st.execute("CREATE UNIQUE INDEX \"" + IndexCheck.GUARD + pk + "\" ON key_state (job, key_value)");
            st.execute("ALTER TABLE key_state DROP CONSTRAINT \"" + pk + "\"");
        }
        java.nio.file.Files.writeString(state.resolve(IndexCheck.PENDING), "");
        assertThat(Recovery.closedCleanly(state.resolve("keyline.mv.db"))).as("closed cleanly since").isTrue();
        IndexCheck.lastReport = null;
        try (H2Database db = H2Database.open(state); Connection c = db.connection()) {
            List<IndexCheck.Index> all = IndexCheck.indexes(c);
            assertThat(all).extracting(IndexCheck.Index::name).contains("key_state_by_state")
                    .noneMatch(n -> n.endsWith(IndexCheck.REPLACEMENT));
            assertThat(all).filteredOn(i -> pk.equals(i.constraint())).singleElement()
                    .extracting(IndexCheck.Index::constraintType).isEqualTo("PRIMARY KEY");
            assertThat(all).filteredOn(i -> i.constraint() == null)
                    .noneMatch(i -> i.name().startsWith(IndexCheck.GUARD));
            assertThatThrownBy(() -> {
                try (Statement st = c.createStatement()) {
                    st.executeUpdate("INSERT INTO key_state (job, key_value, state, attempts, version, created_at, "
                            + "updated_at) VALUES ('daily', 'k2', 'PENDING', 0, 1, 0, 0)");
                }
            }).as("the primary key is back").isInstanceOf(SQLException.class);
        }
        assertThat(IndexCheck.lastReport).contains("key_state_by_state (its rebuild had been cut short)")
                .contains(pk + " (its rebuild had been cut short)");
        assertThat(state.resolve(IndexCheck.PENDING)).as("the check ended").doesNotExist();
    }

    @Test
    void aCleanStateIsNotTouchedAndEveryIndexIsChecked() throws Exception {
        Path state = tmp.resolve("state");
        seed(state);
        try (H2Database db = H2Database.open(state); Connection c = db.connection()) {
            List<IndexCheck.Index> all = IndexCheck.indexes(c);
            assertThat(all).extracting(IndexCheck.Index::name).contains("key_state_by_state", "key_event_by_key");
            for (IndexCheck.Index ix : all) {
                assertThat(IndexCheck.mismatch(c, ix)).as(ix.name()).isNull();
            }
            // the check reads the table without the index, and through it: as H2 plans them
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                    "EXPLAIN SELECT COUNT(*) FROM key_state USE INDEX (key_state_by_state) WHERE state = 'DONE'")) {
                rs.next();
                assertThat(rs.getString(1)).contains("key_state_by_state");
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                    "EXPLAIN SELECT state FROM key_state USE INDEX ()")) {
                rs.next();
                assertThat(rs.getString(1)).doesNotContain("key_state_by_state").contains("tableScan");
            }
        }
    }

    /** The index of key_state's primary key. */
    private static IndexCheck.Index primaryKey(Path state) throws SQLException {
        try (H2Database db = H2Database.open(state); Connection c = db.connection()) {
            return IndexCheck.indexes(c).stream().filter(i -> i.table().equals("key_state")
                    && "PRIMARY KEY".equals(i.constraintType())).findFirst().orElseThrow();
        }
    }

    private static void seed(Path state) throws Exception {
        try (H2Database db = H2Database.open(state); Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO key_state (job, key_value, state, attempts, "
                     + "version, created_at, updated_at) VALUES ('daily', ?, ?, 1, 1, 0, 0)")) {
            for (int i = 0; i < 50; i++) {
                ps.setString(1, "k" + i);
                ps.setString(2, i == 1 ? "RUNNING" : "DONE");
                ps.executeUpdate();
            }
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO key_event (job, key_value, ts, event_type, state) "
                        + "VALUES ('daily', 'k1', 0, 'CLAIMED', 'RUNNING')");
            }
        }
    }

    private static void corrupt(Path state, String table, String index, String job, String key) throws Exception {
        Process p = start(state, table, index, job, key);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(out).contains("removed");
    }

    private static Process start(Path state, String... args) throws java.io.IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                IndexCorrupter.class.getName(), state.toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
