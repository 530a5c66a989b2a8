package io.keyline.store.h2;

import io.keyline.store.Database;
import io.keyline.store.StateLocation;
import io.keyline.acceptance.ChildProcess;
import io.keyline.testing.CpuBurn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A one-shot reader ({@code status}, {@code jobs}, {@code timeline}) that finds
 * nobody else with the state open opens the H2 file alone, without the AUTO_SERVER (its TCP server and
 * in-memory management database, 8 % of a {@code status} in B9's {@code cli.status_served_to_alone}). The contract that makes this
 * safe: a process that opens the state meanwhile waits for the reader instead of failing, the reader
 * goes through the process that has the state open when there is one, and the reader lets go of the
 * state before it writes its output (which may go to a pipe nobody reads). Real child processes, real
 * H2 files, CPU burners beside them.
 */
class BriefReaderTest {

    @TempDir
    Path tmp;

    private final java.util.List<Process> children = new java.util.ArrayList<>();

    @org.junit.jupiter.api.AfterEach
    void stopChildren() {
        children.forEach(Process::destroyForcibly);
    }

    private static final String QUICK = """
        { "name": "quick", "key": { "type": "manual" },
          "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ] }
        """;

    @Test
    void aReaderAloneStartsNoServerAndARunStartedMeanwhileWaitsForItThenRuns() throws Exception {
        Path state = tmp.resolve("state");
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        Files.writeString(jobs.resolve("quick.json"), QUICK);
        try (H2Database db = H2Database.open(state)) {
            load(db, "other", 50);
        }
        Process run = null;
        Path log = tmp.resolve("run.log");
        try (CpuBurn burn = CpuBurn.start(2)) {
            H2Database reader = H2Database.openToRead(state);
            try {
                assertThat(reader.alone()).as("nobody else had the state open").isTrue();
                assertThat(state.resolve("keyline.lock.db")).as("H2's lock file of an AUTO_SERVER").doesNotExist();
                assertThat(count(reader, "other")).isEqualTo(50);
                assertThatThrownBy(() -> H2Database.open(state)).as("an open in this JVM would wait for itself")
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("open alone");

                run = ChildProcess.start(state.toString(), jobs, log, Map.of("KEYLINE_TRACE_STARTUP", "1"), "run",
                        "quick", "--key", "k1");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(log).contains(" ms  main") && System.nanoTime() < deadline) {
                    assertThat(run.isAlive()).as(Files.readString(log)).isTrue();
                    Thread.sleep(20);
                }
                // the run waits for the open lock the reader holds: it neither fails nor gets past it
                assertThat(run.waitFor(5, TimeUnit.SECONDS)).as(Files.readString(log)).isFalse();
                assertThat(Files.readString(log)).as("the run is still before the open lock")
                        .contains(" ms  main").doesNotContain("state folder checked and locked");
                assertThat(count(reader, "quick")).as("the run wrote nothing while the reader had the file").isZero();
            } finally {
                reader.close();
            }
            assertThat(run.waitFor(120, TimeUnit.SECONDS)).as("the run goes on once the reader closed").isTrue();
        } finally {
            if (run != null) {
                run.destroyForcibly();
            }
        }
        assertThat(run.exitValue()).as(Files.readString(log)).isZero();
        assertThat(Files.readString(log)).contains("state folder checked and locked");
        try (H2Database db = H2Database.open(state)) {
            assertThat(count(db, "quick")).isEqualTo(1);
            assertThat(state(db, "quick", "k1")).isEqualTo("DONE");
        }
    }

    @Test
    void aReaderGoesThroughTheProcessThatHasTheStateOpenWithoutWaitingForIt() throws Exception {
        Path state = tmp.resolve("state");
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        try (CpuBurn burn = CpuBurn.start(2); HoldingRun run = HoldingRun.start(state, jobs, tmp)) {
            try (H2Database reader = H2Database.openToRead(state)) {
                assertThat(reader.alone()).as("the run has the state open").isFalse();
                assertThat(state(reader, "slow", "k1")).isEqualTo("RUNNING");
            }
            assertThat(run.alive()).as("the run was not disturbed: " + run.log()).isTrue();
            assertThat(state.resolve("keyline.lock.db")).as("the run still serves the state").exists();
        }
    }

    @Test
    void aStatusWhoseOutputNobodyReadsDoesNotKeepARunOutOfTheState() throws Exception {
        Path state = tmp.resolve("state");
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        Files.writeString(jobs.resolve("quick.json"), QUICK);
        int keys = 3_000; // a status of about 400 KB: far more than a pipe holds (64 KB on Linux)
        try (H2Database db = H2Database.open(state)) {
            load(db, "other", keys);
        }
        try (CpuBurn burn = CpuBurn.start(2)) {
            // nobody reads its stdout until the run has ended: a status that wrote while it held the state
            // would block on the full pipe with the state held, and the run would wait for ever
            ProcessBuilder pb = ChildProcess.builder(state.toString(), jobs, Map.of("KEYLINE_TRACE_STARTUP", "1"),
                    "status");
            pb.redirectError(tmp.resolve("status.err").toFile());
            Process status = pb.start();
            children.add(status);
            InputStream statusOut = status.getInputStream();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (statusOut.available() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // the status has printed its first bytes (and filled the pipe soon after)
            }
            assertThat(statusOut.available()).as(Files.readString(tmp.resolve("status.err"))).isPositive();
            assertThat(Files.readString(tmp.resolve("status.err"))).as("the status had the state alone")
                    .contains("state folder checked and locked (alone)");
            Process run = ChildProcess.start(state, jobs, tmp.resolve("run.log"), "run", "quick", "--key", "k1");
            children.add(run);
            assertThat(run.waitFor(120, TimeUnit.SECONDS)).as("the run ended while the status output waited: "
                    + Files.readString(tmp.resolve("run.log"))).isTrue();
            assertThat(run.exitValue()).as(Files.readString(tmp.resolve("run.log"))).isZero();

            String out;
            try (InputStream in = statusOut) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertThat(status.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(status.exitValue()).as(Files.readString(tmp.resolve("status.err"))).isZero();
            long rows = out.lines().filter(l -> l.startsWith("other ")).count();
            assertThat(rows).as("every key of the status, whole, after the wait").isEqualTo(keys);
        }
    }

    private static void load(Database db, String job, int keys) throws Exception {
        long now = System.currentTimeMillis();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement("INSERT INTO key_state "
                + "(job, key_value, state, attempts, message, version, created_at, updated_at) "
                + "VALUES (?, ?, 'DONE', 1, 'all 1 steps done', 3, ?, ?)")) {
            c.setAutoCommit(false);
            for (int n = 0; n < keys; n++) {
                ps.setString(1, job);
                ps.setString(2, String.format("key-%05d", n));
                ps.setLong(3, now);
                ps.setLong(4, now);
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        }
    }

    private static int count(Database db, String job) throws Exception {
        try (Connection c = db.connection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM key_state WHERE job = '" + job + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static String state(Database db, String job, String key) throws Exception {
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(
                "SELECT state FROM key_state WHERE job = ? AND key_value = ?")) {
            ps.setString(1, job);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
