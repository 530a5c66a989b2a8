package io.keyline.store.h2;

import io.keyline.store.Database;
import io.keyline.store.StateLocation;
import io.keyline.acceptance.ChildProcess;
import io.keyline.testing.CpuBurn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process that opens the state waits while another holds its open lock (a one-shot reader that has the file
 * alone, an open that migrates or repairs the file). That wait used to be silent and without end: a cron run
 * behind a {@code status} stopped with Ctrl+Z waited for ever and said nothing. Now the waiting process says,
 * after a few seconds, which process holds the state and what it is doing, and gives up after
 * {@code keyline.state.openWait} with "state locked" (exit 1, nothing ran). Real child processes and CPU
 * burners beside them.
 */
class OpenLockWaitTest {

    @TempDir
    Path tmp;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void stopChildren() {
        children.forEach(Process::destroyForcibly);
    }

    @Test
    void aRunKeptOutOfTheStateSaysByWhomAndGivesUpAfterTheWaitItWasGiven() throws Exception {
        Path state = tmp.resolve("state");
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        Files.writeString(jobs.resolve("quick.json"), """
            { "name": "quick", "key": { "type": "manual" },
              "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """);
        try (H2Database db = H2Database.open(state)) {
            assertThat(db.alone()).isFalse();
        }
        Path log = tmp.resolve("run.log");
        long me = ProcessHandle.current().pid();
        try (CpuBurn burn = CpuBurn.start(2)) {
            H2Database reader = H2Database.openToRead(state);
            try {
                assertThat(reader.alone()).isTrue();
                Process run = ChildProcess.start(state.toString(), jobs, log,
                        Map.of("JAVA_TOOL_OPTIONS", "-Dkeyline.state.openWait=PT8S"), "run", "quick", "--key", "k1");
                children.add(run);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(log).contains("waiting for the state") && System.nanoTime() < deadline) {
                    assertThat(run.isAlive()).as(Files.readString(log)).isTrue();
                    Thread.sleep(50);
                }
                assertThat(Files.readString(log)).as("the waiting run says who holds the state")
                        .contains("waiting for the state in " + state.toAbsolutePath())
                        .contains("process " + me);
                assertThat(run.waitFor(90, TimeUnit.SECONDS)).as("the run gives up: " + Files.readString(log))
                        .isTrue();
                assertThat(run.exitValue()).as(Files.readString(log)).isEqualTo(1);
                assertThat(Files.readString(log)).contains("stayed locked for 8 s by process " + me)
                        .contains("nothing was done").doesNotContain("Exception").doesNotContain("\tat ");
            } finally {
                reader.close();
            }
        }
        try (H2Database db = H2Database.open(state); Connection c = db.connection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM key_state")) {
            rs.next();
            assertThat(rs.getInt(1)).as("the run that gave up wrote nothing").isZero();
        }
    }

    @Test
    void theHolderIsDescribedWithWhatItRunsAndWhetherItIsStopped() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("state"));
        Process sleeper = new ProcessBuilder("sleep", "300").start();
        children.add(sleeper);
        OpenLock.writeHolder(dir.resolve("keyline.open.lock"), sleeper.pid(), "keyline status",
                java.time.Instant.parse("2026-12-02T09:00:01Z"));
        Path file = dir.resolve("keyline.open.lock");
        assertThat(OpenLock.holder(file).english()).isEqualTo("process " + sleeper.pid() + " (keyline status, since "
                + java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss").withZone(java.time.ZoneId.systemDefault())
                .format(java.time.Instant.parse("2026-12-02T09:00:01Z")) + ")");
        assertThat(OpenLock.stoppedHint(file)).as("a running holder").isNull();

        assertThat(new ProcessBuilder("kill", "-STOP", String.valueOf(sleeper.pid())).start().waitFor()).isZero();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (OpenLock.stoppedHint(file) == null && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(OpenLock.stoppedHint(file).english()).contains("Process " + sleeper.pid() + " is stopped")
                .contains("kill -CONT " + sleeper.pid());

        // what another process wrote there is data: a control character in it is shown escaped
        OpenLock.writeHolder(dir.resolve("keyline.open.lock"), sleeper.pid(), "keyline \u001b]0;x\u0007status",
                java.time.Instant.parse("2026-12-02T09:00:01Z"));
        assertThat(OpenLock.holder(file).english()).doesNotContain("\u001b").contains("\\e]0;x\\x07status");

        Files.writeString(file, "garbage\u0000");
        assertThat(OpenLock.holder(file).english()).isEqualTo("another process");
        assertThat(OpenLock.stoppedHint(file)).isNull();
    }
}
