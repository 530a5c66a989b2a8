package io.keyline.store;

import io.keyline.store.h2.H2Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A state whose schema is current opens without Flyway; any doubt still goes through Flyway. */
class MigrationsTest {

    @TempDir
    Path tmp;

    /** The newest shipped version. */
    private static final String LAST = Migrations.COMMON.get(Migrations.COMMON.size() - 1);

    @Test
    void theShippedVersionsAreTheMigrationFolders() throws Exception {
        assertThat(Migrations.COMMON).isEqualTo(versions(Path.of("src/main/resources/db/migration")));
        List<String> pg = new ArrayList<>(versions(Path.of("src/main/resources/db/migration")));
        pg.addAll(versions(Path.of("src/main/resources/db/postgresql")));
        assertThat(Migrations.POSTGRES).isEqualTo(pg);
    }

    @Test
    void aNewStateLeavesNoErrorInH2sTraceFile() throws Exception {
        Path state = tmp.resolve("new");
        try (Database db = H2Database.open(state)) {
            assertThat(db).isNotNull();
        }
        // H2 writes keyline.trace.db only when something went wrong; an operator who finds one looks into it
        Path trace = state.resolve("keyline.trace.db");
        assertThat(Files.exists(trace) ? Files.readString(trace) : "").as("keyline.trace.db").isEmpty();
    }

    @Test
    void aCurrentStateOpensWithoutFlywayAndAMissingVersionIsMigratedAgain() throws Exception {
        Path state = tmp.resolve("state");
        int before = Migrations.FLYWAY_RUNS.get();
        try (Database db = H2Database.open(state)) {
            assertThat(db).isNotNull();
        }
        assertThat(Migrations.FLYWAY_RUNS.get()).as("a new state is migrated").isEqualTo(before + 1);
        try (Database db = H2Database.open(state)) {
            assertThat(db).isNotNull();
        }
        assertThat(Migrations.FLYWAY_RUNS.get()).as("a current state is not").isEqualTo(before + 1);

        // a state that lacks the last version (an older Keyline wrote it) goes through Flyway, which applies it
        try (Database db = H2Database.open(state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            st.execute("DELETE FROM \"flyway_schema_history\" WHERE \"version\" = '" + LAST + "'");
        }
        try (Database db = H2Database.open(state)) {
            assertThat(db).isNotNull();
        }
        assertThat(Migrations.FLYWAY_RUNS.get()).isEqualTo(before + 2);
        try (Database db = H2Database.open(state); Connection c = db.adminConnection();
             Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT COUNT(*) FROM \"flyway_schema_history\" WHERE \"version\" = '"
                     + LAST + "' AND \"success\"")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }

        // a failed row is doubt too
        try (Database db = H2Database.open(state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            st.execute("UPDATE \"flyway_schema_history\" SET \"success\" = FALSE WHERE \"version\" = '9'");
            assertThat(Migrations.current(c, Migrations.COMMON)).isFalse();
            st.execute("UPDATE \"flyway_schema_history\" SET \"success\" = TRUE WHERE \"version\" = '9'");
            assertThat(Migrations.current(c, Migrations.COMMON)).isTrue();
            st.execute("INSERT INTO \"flyway_schema_history\" (\"installed_rank\", \"version\", \"description\","
                    + " \"type\", \"script\", \"installed_by\", \"execution_time\", \"success\")"
                    + " VALUES (99, '99', 'from a newer keyline', 'SQL', 'V99__x.sql', 'x', 0, TRUE)");
            assertThat(Migrations.current(c, Migrations.COMMON)).as("a version this build does not know").isFalse();
        }
    }

    /**
     * A state written before the wait reason and the probe's answer were columns gets them from what the
     * engine wrote then, once, when it is migrated.
     */
    @Test
    void waitsAndProbeAnswersWrittenBeforeTheirColumnsAreFilledIn() throws Exception {
        Path state = tmp.resolve("state");
        try (Database db = H2Database.open(state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            String cols = "(job, key_value, state, step, attempts, failure_class, message, version, created_at, "
                    + "updated_at) VALUES ";
            st.execute("INSERT INTO key_state " + cols + "('j', 'a', 'NEEDS_CONFIRMATION', 'publish', 1, 'AMBIGUOUS', "
                    + "'outcome of publish unknown (timeout); probe: /total = 0 (absent)', 1, 0, 0)");
            st.execute("INSERT INTO key_state " + cols + "('j', 'b', 'NEEDS_CONFIRMATION', 'publish', 0, NULL, "
                    + "'the payload of publish changed since it was confirmed: review it and confirm again', 1, 0, 0)");
            st.execute("INSERT INTO key_state " + cols + "('j', 'c', 'NEEDS_CONFIRMATION', 'publish', 0, NULL, "
                    + "'step publish needs confirmation (confirm: always)', 1, 0, 0)");
            st.execute("INSERT INTO key_state " + cols + "('j', 'd', 'FAILED', 'publish', 1, 'FATAL', 'refused', 1, 0, 0)");
            String ev = "INSERT INTO key_event (job, key_value, ts, event_type, step, attempt, state, message) VALUES ";
            st.execute(ev + "('j', 'a', 0, 'STEP_RECONCILED', 'write', 0, 'RUNNING', 'write already done "
                    + "(reconciled by probe: probe: /total = 1 (present))')");
            st.execute(ev + "('j', 'a', 1, 'WAITING_FOR_CONFIRMATION', 'publish', 1, 'NEEDS_CONFIRMATION', "
                    + "'outcome of publish unknown (timeout); probe: /total = 0 (absent)')");
            st.execute(ev + "('j', 'a', 2, 'STEP_FAILED', 'publish', 1, 'RUNNING', 'HTTP 502 probe')");
            st.execute("UPDATE key_state SET wait_reason = NULL");
            st.execute("UPDATE key_event SET probe_answer = NULL");
            // the later versions go too: Flyway applies no version below one already applied (each later one is
            // written to run again harmlessly)
            for (String v : Migrations.COMMON.subList(Migrations.COMMON.indexOf("12"), Migrations.COMMON.size())) {
                st.execute("DELETE FROM \"flyway_schema_history\" WHERE \"version\" = '" + v + "'");
            }
        }
        try (Database db = H2Database.open(state)) {
            JdbcStateStore store = new JdbcStateStore(db);
            assertThat(store.key("j", "a").orElseThrow().waitReason())
                    .isEqualTo(io.keyline.domain.WaitReason.OUTCOME_UNKNOWN);
            assertThat(store.key("j", "b").orElseThrow().waitReason())
                    .isEqualTo(io.keyline.domain.WaitReason.PAYLOAD_CHANGED);
            assertThat(store.key("j", "c").orElseThrow().waitReason())
                    .isEqualTo(io.keyline.domain.WaitReason.CONFIRM_ALWAYS);
            assertThat(store.key("j", "d").orElseThrow().waitReason()).isNull();
            assertThat(store.events("j", "a")).extracting(io.keyline.domain.KeyEvent::probe).containsExactly(
                    io.keyline.domain.ProbeAnswer.PRESENT, io.keyline.domain.ProbeAnswer.ABSENT, null);
        }
    }

    private static List<String> versions(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("V") && n.endsWith(".sql"))
                    .map(n -> n.substring(1, n.indexOf("__")).replace('_', '.'))
                    .sorted(java.util.Comparator.comparing(MigrationsTest::sortKey)).toList();
        }
    }

    private static String sortKey(String v) {
        StringBuilder sb = new StringBuilder();
        for (String part : v.split("\\.")) {
            sb.append(String.format("%05d.", Integer.parseInt(part)));
        }
        return sb.toString();
    }

    /** Flyway over a plain H2 file with the shipped migrations (no Keyline in between). */
    private static org.flywaydb.core.Flyway flyway(String url) {
        return org.flywaydb.core.Flyway.configure().dataSource(url, "sa", "").locations("classpath:db/migration")
                .baselineOnMigrate(true).baselineVersion("0").loggers("slf4j").load();
    }

    @Test
    void theRewordedChecksumsAreThoseOfTheShippedFiles() {
        var flyway = flyway("jdbc:h2:mem:reworded;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE");
        for (var info : flyway.info().all()) {
            int[] pair = Migrations.REWORDED.get(info.getVersion().getVersion());
            if (pair != null) {
                assertThat(info.getChecksum()).as("V" + info.getVersion()).isEqualTo(pair[1]);
            }
        }
    }

    /** A state migrated before the migrations' comments were reworded, and an older Keyline: it still migrates. */
    @Test
    void aStateThatRecordedTheOldCommentsMigratesAndAnyOtherDifferenceRefuses() throws Exception {
        String url = "jdbc:h2:file:" + tmp.resolve("old") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE";
        flyway(url).migrate();
        try (Connection c = java.sql.DriverManager.getConnection(url, "sa", "");
             Statement st = c.createStatement()) {
            for (var e : Migrations.REWORDED.entrySet()) {
                st.execute("UPDATE \"flyway_schema_history\" SET \"checksum\" = " + e.getValue()[0]
                        + " WHERE \"version\" = '" + e.getKey() + "'");
            }
            st.execute("DELETE FROM \"flyway_schema_history\" WHERE \"version\" = '" + LAST + "'");
            assertThat(flyway(url).validateWithResult().validationSuccessful).as("Flyway alone refuses it").isFalse();
            Migrations.acceptReworded(c);
        }
        flyway(url).migrate();
        assertThat(flyway(url).validateWithResult().validationSuccessful).isTrue();

        // a checksum that is neither the old nor the new one is not carried over
        try (Connection c = java.sql.DriverManager.getConnection(url, "sa", "");
             Statement st = c.createStatement()) {
            st.execute("UPDATE \"flyway_schema_history\" SET \"checksum\" = 7 WHERE \"version\" = '3'");
            Migrations.acceptReworded(c);
        }
        assertThat(flyway(url).validateWithResult().validationSuccessful).isFalse();
    }
}
