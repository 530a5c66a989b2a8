package io.keyline.acceptance;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command step's child runs in its own process group: its timeout kills what it started, and a run
 * that takes over from a killed one waits for the child that run left behind, so two copies of one step
 * of one key never run at once. Both failed before: the timeout left the
 * grandchild running, and the rerun started a second copy at once.
 */
class ChildProcessTest {

    static final String KEY = "2026-11-29";

    @TempDir
    Path tmp;
    Workbench wb;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
    }

    private static String job(String name, String script, String timeout, int attempts) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "retry": { "maxAttempts": %d, "initialDelay": "PT1S", "jitter": 0.0 },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "timeout": "%s",
                           "command": ["sh", "-c", %s] } ]
            }
            """.formatted(name, attempts, timeout, Jobs.quote(script));
    }

    @Test
    void aTimeoutKillsTheWholeProcessGroup() throws Exception {
        wb.clock.followSystemClock();
        wb.job("gc", job("gc", "sleep 30 & echo $! > grandchild.pid; wait", "PT1S", 1), null);
        Result r = wb.cli("run", "gc", "--key", KEY);
        assertThat(r.out()).as(r.toString()).contains("killed after timeout");
        long pid = Long.parseLong(Files.readString(wb.jobs.resolve("grandchild.pid")).strip());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as("the grandchild %d was killed with its group", pid).isFalse();
    }

    /**
     * A child whose record cannot be written still runs (nothing it does depends on it), but a run that takes over
     * after a crash would not know to wait for it: the run log says so instead of nothing.
     */
    @Test
    void aChildThatCannotBeRecordedRunsAndTheRunLogSaysSo() throws Exception {
        wb.job("once", job("once", "echo ran >> runs.log", "PT60S", 1), null);
        assertThat(wb.cli("status").exit()).isZero();
        // the state's own table, changed behind its back: no child can be recorded
        try (io.keyline.store.h2.H2Database db = io.keyline.store.h2.H2Database.open(wb.state);
             java.sql.Connection c = db.adminConnection(); java.sql.Statement st = c.createStatement()) {
            st.execute("ALTER TABLE step_child ADD CONSTRAINT no_child CHECK (pid < 0)");
        }
        Result r = wb.cli("run", "once", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(Files.readAllLines(wb.jobs.resolve("runs.log"))).containsExactly("ran");
        assertThat(r.out()).contains("could not record process", "of step work",
                "a run that takes over after a crash would not wait for it");
        assertThat(Files.readString(wb.logs().resolve("runs.jsonl"))).contains("\"result\":\"unrecorded\"");
    }

    @Test
    void aRunTakingOverFromAKilledRunWaitsForTheChildItLeft() throws Exception {
        wb.clock.followSystemClock();
        // each copy runs until the test releases it (20 s at most): the first one outlasts the rerun's start
        // however busy the machine is, and is released only once the rerun says that it waits for it
        wb.job("slow", job("slow", "echo start $$ >> runs.log; i=0; while [ ! -e release ] && [ $i -lt 200 ]; "
                + "do sleep 0.1; i=$((i+1)); done; echo end $$ >> runs.log", "PT60S", 3), null);
        Path log = tmp.resolve("child.log");
        Process p = ChildProcess.start(wb.state, wb.jobs, log, "run", "slow", "--key", KEY);
        Path runs = wb.jobs.resolve("runs.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(runs) && Files.readString(runs).contains("start")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(runs).as(Files.exists(log) ? Files.readString(log) : "no output").exists();
        // the step's child carries its job, key, step and run: a takeover knows it by them whatever its start reads
        long child = Long.parseLong(Files.readAllLines(runs).get(0).split(" ")[1]);
        List<String> environ = List.of(new String(Files.readAllBytes(Path.of("/proc", Long.toString(child), "environ")),
                java.nio.charset.StandardCharsets.UTF_8).split("\0"));
        assertThat(environ).contains("KEYLINE_JOB=slow", "KEYLINE_KEY=" + KEY, "KEYLINE_STEP=work");
        String run = environ.stream().filter(e -> e.startsWith("KEYLINE_RUN_ID=")).findFirst().orElseThrow()
                .substring("KEYLINE_RUN_ID=".length());
        assertThat(io.keyline.core.exec.ChildProcesses.alive(child, java.time.Instant.EPOCH,
                io.keyline.core.exec.ChildProcesses.identity("slow", KEY, "work", run))).isTrue();
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);

        Path runLog = wb.logs().resolve("runs.jsonl");
        Thread releaser = new Thread(() -> {
            try {
                while (!(Files.exists(runLog) && Files.readString(runLog).contains("\"result\":\"waiting\""))) {
                    Thread.sleep(20);
                }
                Files.writeString(wb.jobs.resolve("release"), "");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "releaser");
        releaser.setDaemon(true);
        releaser.start();
        Result rerun;
        try {
            rerun = wb.cli("run", "slow", "--key", KEY);
        } finally {
            releaser.interrupt();
        }
        assertThat(rerun.exit()).as(rerun.toString()).isZero();
        List<String> lines = Files.readAllLines(runs);
        assertThat(lines).as("never two copies at once: %s", rerun).hasSize(4);
        String first = lines.get(0).split(" ")[1];
        String second = lines.get(2).split(" ")[1];
        assertThat(lines).as(rerun.toString())
                .containsExactly("start " + first, "end " + first, "start " + second, "end " + second);
        assertThat(rerun.out()).contains("is still running: waiting for it to end", "was still running: waited for it");
    }
}
