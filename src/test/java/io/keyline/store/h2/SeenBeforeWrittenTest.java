package io.keyline.store.h2;

import io.keyline.core.RunOptions;
import io.keyline.core.WorkerRegistry;
import io.keyline.testing.Workbench;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process killed right after another one read its new row, with a real child JVM that serves the state.
 *
 * <p>H2 shows a commit to the other sessions a moment before it has written it to the file: the commit is
 * visible as soon as H2 marks the transaction committed, and the committing call returns only after the chunk that
 * holds it is written. Whatever holds the write up (the disk, a compaction holding the store lock, a starved
 * thread) makes that moment longer; the child here holds H2's store lock while it registers. A process killed in
 * that moment loses a row that another process has read - its own caller was never told the commit succeeded. So
 * whoever reads a row and then relies on it surviving a kill makes it durable first (a sync: H2 writes what it
 * holds, after the write in progress), as {@code ConsoleStopTest} does before it kills a console it saw registered.
 */
class SeenBeforeWrittenTest {

    @TempDir
    Path tmp;

    @Test
    void aRowReadAndThenSyncedSurvivesAKillOfTheProcessThatWroteIt() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.cli("status");
        Process child = start(wb);
        try {
            WorkerRegistry.Worker seen = awaitRow(wb, child);
            assertThat(log()).as("the registration has not returned: its commit is not written yet")
                    .doesNotContain("registered");

            // made durable before the kill: the sync writes after the write held up, and waits for it
            CompletableFuture<Void> sync = CompletableFuture.runAsync(wb::sync);
            Thread.sleep(500);
            assertThat(sync).as("the sync waits for the write in progress").isNotDone();
            Files.writeString(tmp.resolve("release"), "go");
            sync.get(60, TimeUnit.SECONDS);

            child.destroyForcibly(); // SIGKILL
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(row(wb, seen.id())).as("the row read, then synced, after the SIGKILL").isPresent();
        } finally {
            child.destroyForcibly();
        }
    }

    /**
     * What H2 does, and why the sync above is there: the row read while its commit has not returned is gone with the
     * process killed then. The day this fails, H2 writes a commit before other sessions see it, and the syncs before
     * such kills can go.
     */
    @Test
    void aRowReadBeforeItsCommitReturnedIsGoneWithTheProcessKilledThen() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.cli("status");
        Process child = start(wb);
        try {
            WorkerRegistry.Worker seen = awaitRow(wb, child);
            assertThat(seen.alive()).as("read as alive, as ConsoleStopTest reads a console").isTrue();
            assertThat(log()).as("the registration has not returned").doesNotContain("registered");

            child.destroyForcibly(); // SIGKILL
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(row(wb, seen.id())).as("the row read before its commit returned, after the SIGKILL").isEmpty();
        } finally {
            child.destroyForcibly();
        }
    }

    private Process start(Workbench wb) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                StalledCommit.class.getName(), wb.state.toString(), wb.jobs.toString(), tmp.toString());
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(tmp.resolve("child.log").toFile()));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        return pb.start();
    }

    private String log() throws java.io.IOException {
        Path log = tmp.resolve("child.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** The child's row, read as ConsoleStopTest reads a console's: a one-shot reader, through the child. */
    private WorkerRegistry.Worker awaitRow(Workbench wb, Process child) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until) {
            assertThat(child.isAlive()).as(log()).isTrue();
            if (log().contains("store held")) {
                Optional<WorkerRegistry.Worker> w = workers(wb).stream().filter(x -> x.pid() == child.pid()).findFirst();
                if (w.isPresent()) {
                    return w.get();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the child (pid " + child.pid() + ") did not register: " + log());
    }

    private static Optional<WorkerRegistry.Worker> row(Workbench wb, String id) {
        return workers(wb).stream().filter(w -> w.id().equals(id)).findFirst();
    }

    private static List<WorkerRegistry.Worker> workers(Workbench wb) {
        Workspace ws = new Workspace(wb.state, wb.jobs, RunOptions.standard(), Map.of()).reader(true);
        try {
            return ws.operations().workers(Instant.now());
        } finally {
            ws.close();
        }
    }
}
