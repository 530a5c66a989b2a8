package io.keyline.acceptance;

import io.keyline.store.StateLocation;
import io.keyline.store.h2.H2Lockdown;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One state per workspace, found from anywhere, never created by accident, as cron or a person starts
 * {@code keyline} (a child process, its working directory somewhere, no {@code KEYLINE_} variables): a run from
 * another directory finds the workspace's state and does not redo a done key; a command that finds no state exits
 * 1, says where it looked and how to create one, and creates nothing.
 */
class StateFoundTest {

    /** A job whose only step appends a line to ran.txt in the jobs folder: each execution leaves one line. */
    static final String COUNTING = """
        { "name": "publish", "key": { "type": "manual" },
          "steps": [ { "id": "post", "kind": "command", "effect": "none",
                       "command": ["sh", "-c", "echo ran >> ran.txt"] } ] }
        """;

    /** {@code keyline ARGS} in a child JVM started in {@code dir}; returns exit code and output. */
    static Ran keyline(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Ran(p.exitValue(), out);
    }

    record Ran(int exit, String out) {
        @Override
        public String toString() {
            return "exit " + exit + "\n" + out;
        }
    }

    private static long runs(Path jobs) throws Exception {
        Path f = jobs.resolve("ran.txt");
        return Files.exists(f) ? Files.readAllLines(f).size() : 0;
    }

    @Test
    void aRunFromAnotherDirectoryFindsTheSameStateAndDoesNotRedoADoneKey(@TempDir Path tmp) throws Exception {
        // a workspace W: its state in W/state, its jobs in W/resources/jobs
        Path w = tmp.resolve("work");
        Path jobs = Files.createDirectories(w.resolve("resources/jobs"));
        Files.writeString(jobs.resolve("publish.json"), COUNTING);
        H2Lockdown.apply();
        Workspace.open(new StateLocation.Folder(w.resolve("state"))).close();

        Ran first = keyline(w, "run", "publish", "--key", "D-1");
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(runs(jobs)).isEqualTo(1);

        // the same job from other folders, as a cron line names it (its jobs folder), and from inside the workspace
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        for (Path dir : List.of(elsewhere, w.resolve("resources"), jobs)) {
            Ran again = keyline(dir, "--jobs", jobs.toString(), "run", "publish", "--key", "D-1");
            assertThat(again.exit()).as(again.toString()).isZero();
        }
        assertThat(runs(jobs)).as("the done key was run again").isEqualTo(1);
        Ran plain = keyline(jobs, "run", "publish", "--key", "D-1");
        assertThat(plain.exit()).as(plain.toString()).isZero();
        assertThat(runs(jobs)).as("the done key was run again").isEqualTo(1);
        Ran status = keyline(jobs, "status");
        assertThat(status.out()).contains("D-1", "DONE");
        assertThat(elsewhere.resolve("state")).doesNotExist();
        assertThat(w.resolve("resources/state")).doesNotExist();
        assertThat(jobs.resolve("state")).doesNotExist();
    }

    @Test
    void aCommandThatFindsNoStateExitsOneSaysWhereItLookedAndCreatesNothing(@TempDir Path tmp) throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("nowhere/deeper"));
        for (Path d = empty; d != null; d = d.getParent()) {
            assumeTrue(!Files.exists(d.resolve("state/keyline.mv.db")), "a state above the temp folder: " + d);
        }
        Files.writeString(empty.resolve("publish.json"), COUNTING);
        Ran r = keyline(empty, "--jobs", ".", "run", "publish", "--key", "D-1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("no Keyline state found", "Looked for state/keyline.mv.db in:",
                empty.resolve("state").toString(), tmp.resolve("nowhere/state").toString(), "keyline init", "--init");
        Ran status = keyline(empty, "status");
        assertThat(status.exit()).as(status.toString()).isEqualTo(1);
        assertThat(status.out()).contains("no Keyline state found", empty.resolve("state").toString());
        assertThat(runs(empty)).as("nothing ran").isZero();
        assertThat(empty.resolve("state")).doesNotExist();
        assertThat(tmp.resolve("nowhere/state")).doesNotExist();
    }
}
