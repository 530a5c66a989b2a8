package io.keyline.acceptance;

import io.keyline.core.WorkerRegistry;
import io.keyline.testing.Workbench;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A console stopped by SIGTERM (systemctl stop, kill PID, the session ending) says so on the Workers page: its row
 * reads "stopped", as after closing its window, not "gone" as after a crash. A console killed by SIGKILL can say
 * nothing and stays "gone". The consoles run in child JVMs (headless Monocle) on a state folder they open first.
 */
class ConsoleStopTest {

    @TempDir
    Path tmp;

    @Test
    void aConsoleStoppedBySigtermIsStoppedAndOneKilledIsGone() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.cli("status"); // makes the state, as "keyline init" would
        assertThat(wb.state.resolve("keyline.mv.db")).exists();

        Process termed = null;
        Process killed = null;
        try {
            termed = console(wb, "termed.log");
            WorkerRegistry.Worker before = awaitAlive(wb, termed);
            termed.destroy(); // SIGTERM
            assertThat(termed.waitFor(60, TimeUnit.SECONDS)).as("the console ends on SIGTERM").isTrue();
            assertThat(termed.exitValue()).as("as the JVM exits on SIGTERM").isEqualTo(143);
            WorkerRegistry.Worker after = row(wb, before.id()).orElseThrow();
            assertThat(after.alive()).isFalse();
            assertThat(after.stopped()).as("the console stopped by SIGTERM deregistered").isNotNull();

            killed = console(wb, "killed.log");
            WorkerRegistry.Worker other = awaitAlive(wb, killed);
            // the row was read a moment before the console may have written it (H2 shows a commit before it is in
            // the file): made durable first, or a kill in that moment loses it (SeenBeforeWrittenTest)
            wb.sync();
            killed.destroyForcibly(); // SIGKILL
            assertThat(killed.waitFor(60, TimeUnit.SECONDS)).isTrue();
            WorkerRegistry.Worker gone = row(wb, other.id()).orElseThrow();
            assertThat(gone.alive()).isFalse();
            assertThat(gone.stopped()).as("a console killed by SIGKILL said nothing: gone").isNull();
        } finally {
            for (Process p : new Process[] {termed, killed}) {
                if (p != null) {
                    p.destroyForcibly();
                }
            }
        }
    }

    /** The console on the workbench's state, in a child JVM with no display (Monocle), its output to {@code log}. */
    private Process console(Workbench wb, String log) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dglass.platform=Monocle", "-Dmonocle.platform=Headless", "-Dprism.order=sw",
                "-Djava.awt.headless=true", "--add-exports", "javafx.base/com.sun.javafx.event=ALL-UNNAMED",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", wb.state.toString(), "--jobs", wb.jobs.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(tmp.resolve(log).toFile()));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        return pb.start();
    }

    /** The console's row once it is registered and alive (its scheduler runs). */
    private WorkerRegistry.Worker awaitAlive(Workbench wb, Process console) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until) {
            assertThat(console.isAlive()).as("the console runs").isTrue();
            Optional<WorkerRegistry.Worker> w = workers(wb).stream()
                    .filter(x -> x.pid() == console.pid() && "console".equals(x.kind()) && x.alive()).findFirst();
            if (w.isPresent()) {
                return w.get();
            }
            Thread.sleep(300);
        }
        throw new AssertionError("the console (pid " + console.pid() + ") did not register");
    }

    private Optional<WorkerRegistry.Worker> row(Workbench wb, String id) {
        return workers(wb).stream().filter(w -> w.id().equals(id)).findFirst();
    }

    /** The Workers page's rows, read as a one-shot reader (through the console while it has the state open). */
    private static List<WorkerRegistry.Worker> workers(Workbench wb) {
        Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env()).reader(true);
        try {
            return ws.operations().workers(Instant.now());
        } finally {
            ws.close();
        }
    }
}
