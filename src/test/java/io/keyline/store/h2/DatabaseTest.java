package io.keyline.store.h2;

import io.keyline.store.Database;
import io.keyline.core.StateUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatabaseTest {

    @TempDir
    Path tmp;

    /** A process killed in the middle of the very first migration must not leave a state that never opens. */
    @Test
    void aHalfDoneFirstMigrationIsCompletedOnTheNextOpen() throws Exception {
        String url = "jdbc:h2:file:" + tmp.resolve("keyline") + H2Database.SETTINGS;
        try (Connection c = DriverManager.getConnection(url, "keyline", "");
             Statement st = c.createStatement()) {
            // what a process killed after the first statement of V1 leaves behind (H2 commits DDL at once)
            st.execute("CREATE TABLE key_state (job VARCHAR(63) NOT NULL, key_value VARCHAR(128) NOT NULL, "
                    + "state VARCHAR(24) NOT NULL, step VARCHAR(63), attempts INTEGER NOT NULL DEFAULT 0, "
                    + "next_attempt_at BIGINT, failure_class VARCHAR(24), message VARCHAR(2000), credential VARCHAR(64), "
                    + "confirmed_step VARCHAR(63), confirmed_hash VARCHAR(64), run_id VARCHAR(40), "
                    + "lease_owner VARCHAR(200), lease_until BIGINT, version BIGINT NOT NULL, created_at BIGINT NOT NULL, "
                    + "updated_at BIGINT NOT NULL, PRIMARY KEY (job, key_value))");
        }
        try (H2Database db = H2Database.open(tmp); Connection c = db.connection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.tables WHERE table_name IN "
                     + "('key_state', 'step_state', 'key_event', 'job_control', 'saved_plan', 'credential')")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(6);
        }
        try (H2Database again = H2Database.open(tmp)) {
            assertThat(again.stateDir()).isEqualTo(tmp.toAbsolutePath().normalize());
        }
    }

    @Test
    void aCorruptStateFileIsReportedByNameAndLeftAsItWas() throws Exception {
        byte[] garbage = new byte[64 * 1024];
        new Random(3).nextBytes(garbage);
        Path file = tmp.resolve("keyline.mv.db");
        Files.write(file, garbage);
        assertThatThrownBy(() -> H2Database.open(tmp))
                .isInstanceOf(StateUnavailableException.class)
                .hasMessageContaining("keyline.mv.db");
        assertThat(Files.readAllBytes(file)).isEqualTo(garbage);
    }

    /** Keys that ask for a sync at once share one checkpoint; a sync asked after one finished makes its own. */
    @Test
    void syncRequestsMadeWhileACheckpointIsUnderWayShareTheNextOne() throws Exception {
        try (H2Database db = H2Database.open(tmp)) {
            db.sync();
            db.sync();
            assertThat(db.checkpoints()).as("one after the other: each makes its own").isEqualTo(2);

            java.util.List<Thread> threads = new java.util.ArrayList<>();
            java.util.concurrent.ConcurrentLinkedQueue<Throwable> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
            synchronized (db.syncLock) { // a checkpoint "under way": the requests below queue behind it
                for (int i = 0; i < 8; i++) {
                    Thread t = new Thread(() -> {
                        try {
                            db.sync();
                        } catch (Throwable e) {
                            errors.add(e);
                        }
                    });
                    t.start();
                    threads.add(t);
                }
                while (db.syncRequests() < 10) {
                    Thread.onSpinWait();
                }
            }
            for (Thread t : threads) {
                t.join(60_000);
                assertThat(t.isAlive()).isFalse();
            }
            assertThat(errors).isEmpty();
            assertThat(db.checkpoints()).as("8 waiting requests, one checkpoint").isEqualTo(3);

            db.sync();
            assertThat(db.checkpoints()).as("a request after that checkpoint finished is not skipped").isEqualTo(4);
        }
    }

    @Test
    void aReadOnlyProcessOpensTheFileWithoutCompactionOnCloseAndAWriterWithIt() throws Exception {
        Path state = tmp.resolve("compaction");
        try (H2Database db = H2Database.openToRead(state)) {
            assertThat(maxCompactTime(db)).as("a one-shot status").isEqualTo("0");
        }
        try (H2Database db = H2Database.open(state)) {
            assertThat(maxCompactTime(db)).as("a run: H2's default").isNotEqualTo("0");
        }
    }

    private static String maxCompactTime(Database db) throws Exception {
        try (Connection c = db.connection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                     + " WHERE SETTING_NAME = 'MAX_COMPACT_TIME'")) {
            assertThat(rs.next()).as("H2 lists the setting").isTrue();
            return rs.getString(1);
        }
    }
}
