package io.keyline.acceptance;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * How a state comes to be and is named: {@code keyline init} makes the workspace's state and it remembers its jobs
 * folder; {@code --init} creates a named state; a state is found from below the workspace, from the jobs folder and
 * by its own name; {@code status} and {@code --help} say which state and jobs folder are in use (in-process, from
 * a given working directory).
 */
class StateInitTest {

    /** A job whose only step appends a line to ran.txt in the jobs folder: each execution leaves one line. */
    static final String COUNTING = StateFoundTest.COUNTING;

    /** A workspace {@code W} with its jobs in {@code W/resources/jobs}, created by {@code keyline init} run in W. */
    private static Path workspace(Workbench wb) throws Exception {
        Path w = wb.root.resolve("work");
        Path jobs = w.resolve("resources/jobs");
        Files.createDirectories(jobs);
        Files.writeString(jobs.resolve("publish.json"), COUNTING);
        Result init = wb.cliIn(w, "init");
        assertThat(init.exit()).as(init.toString()).isZero();
        assertThat(init.out()).contains("Created a Keyline state in " + w.resolve("state"), jobs.toString());
        return w;
    }

    private static long runs(Path w) throws Exception {
        Path f = w.resolve("resources/jobs/ran.txt");
        return Files.exists(f) ? Files.readAllLines(f).size() : 0;
    }

    @Test
    void initMakesTheWorkspaceStateThatEveryFolderBelowAndItsJobsFolderFind(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Path w = workspace(wb);
        Result first = wb.cliIn(w, "run", "publish", "--key", "D-1");
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(runs(w)).isEqualTo(1);

        // by hand, from a folder below the workspace: the same state, the key is done
        Path below = Files.createDirectories(w.resolve("resources/jobs/drafts"));
        Result again = wb.cliIn(below, "run", "publish", "--key", "D-1");
        assertThat(again.exit()).as(again.toString()).isZero();
        Result status = wb.cliIn(below, "status");
        assertThat(status.out()).contains("State: " + w.resolve("state"), "D-1", "DONE")
                .contains("Jobs:  " + w.resolve("resources/jobs"));

        // from an unrelated folder that names the jobs folder: the jobs folder knows its workspace
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Result named = wb.cliIn(elsewhere, "--jobs", w.resolve("resources/jobs").toString(), "run", "publish",
                "--key", "D-1");
        assertThat(named.exit()).as(named.toString()).isZero();
        // from an unrelated folder that names the state only: the state knows its jobs folder
        Result byState = wb.cliIn(elsewhere, "--state", w.resolve("state").toString(), "run", "publish", "--key",
                "D-1");
        assertThat(byState.exit()).as(byState.toString()).isZero();

        assertThat(runs(w)).as("the done key was never run again").isEqualTo(1);
        assertThat(below.resolve("state")).doesNotExist();
        assertThat(elsewhere.resolve("state")).doesNotExist();
        assertThat(w.resolve("resources/state")).doesNotExist();
    }

    @Test
    void aNamedStateMustExistAndInitCreatesIt(@TempDir Path tmp) throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("nowhere/deeper"));
        for (Path d = empty; d != null; d = d.getParent()) {
            assumeTrue(!Files.exists(d.resolve("state/keyline.mv.db")), "a state above the temp folder: " + d);
        }
        Workbench wb = new Workbench(tmp);
        Files.writeString(empty.resolve("publish.json"), COUNTING);

        for (String[] args : List.of(new String[] {"status"}, new String[] {"run", "--due"},
                new String[] {"--jobs", empty.toString(), "run", "publish", "--key", "D-1"})) {
            Result r = wb.cliIn(empty, args);
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).contains("no Keyline state found", "Looked for state/keyline.mv.db in:",
                    empty.resolve("state").toString(), tmp.resolve("nowhere/state").toString(), "keyline init",
                    "--init", "--state");
        }
        assertThat(empty.resolve("ran.txt")).doesNotExist();
        assertThat(empty.resolve("state")).doesNotExist();
        assertThat(tmp.resolve("nowhere/state")).doesNotExist();

        // a state named by --state or KEYLINE_STATE must exist too
        Path named = tmp.resolve("named-state");
        Result byOption = wb.cliIn(empty, "--state", named.toString(), "status");
        assertThat(byOption.exit()).as(byOption.toString()).isEqualTo(1);
        assertThat(byOption.err()).contains("no Keyline state in " + named, "--state", "init");
        wb.env().put("KEYLINE_STATE", named.toString());
        Result byEnv = wb.cliIn(empty, "jobs");
        assertThat(byEnv.exit()).as(byEnv.toString()).isEqualTo(1);
        assertThat(byEnv.err()).contains("no Keyline state in " + named, "$KEYLINE_STATE");
        assertThat(named).doesNotExist();

        // --init creates it where it was named; the next command finds it
        Result created = wb.cliIn(empty, "--jobs", empty.toString(), "--init", "run", "publish", "--key", "D-1");
        assertThat(created.exit()).as(created.toString()).isZero();
        assertThat(named.resolve("keyline.mv.db")).exists();
        assertThat(wb.cliIn(empty, "status").out()).contains("State: " + named + " ($KEYLINE_STATE)", "D-1", "DONE");
    }

    @Test
    void helpSaysWhichStateAndJobsFolderAreInUse(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Path w = workspace(wb);
        Result help = wb.cliIn(w.resolve("resources"), "--help");
        assertThat(help.exit()).isZero();
        // picocli wraps the lines to the terminal's width
        assertThat(help.out().replaceAll("\\s+", " ")).contains("In use here:", "state: " + w.resolve("state")
                + " (the workspace of the working directory)", "jobs: " + w.resolve("resources/jobs"));

        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Result none = wb.cliIn(empty, "--help");
        assertThat(none.exit()).isZero();
        assertThat(none.out().replaceAll("\\s+", " ")).contains("state: none found",
                "'keyline init' creates " + empty.resolve("state"));
        assertThat(empty.resolve("state")).doesNotExist();

        // init on a state that exists changes nothing
        Result twice = wb.cliIn(w, "init");
        assertThat(twice.exit()).isZero();
        assertThat(twice.out()).contains("already in " + w.resolve("state"), "nothing changed");
    }

    private static String mode(Path p) throws java.io.IOException {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void theCheckoutsOwnStateFolderIsOneTheConsoleTakesOnItsFirstRun() {
        // the README's first command opens the console on ./state of a fresh clone, which holds the folder's
        // README: it must not read as another program's folder, which is refused
        Path checkoutState = Path.of("state").toAbsolutePath();
        org.assertj.core.api.Assertions.assertThatCode(
                        () -> io.keyline.store.h2.H2Database.refuseOthersFolder(checkoutState))
                .as("the state folder of a fresh clone, " + checkoutState).doesNotThrowAnyException();
    }

    @Test
    void initLeavesAnotherProgramsFolderAsItIsAndSaysWhereTheStateCanGo(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Path other = wb.root.resolve("otherprog");
        Files.createDirectories(other);
        Files.writeString(other.resolve("config.ini"), "x=1\n");
        Files.writeString(other.resolve("run.sh"), "#!/bin/sh\necho hi\n");
        Files.setPosixFilePermissions(other, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(other.resolve("config.ini"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(other.resolve("run.sh"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));

        Result init = wb.cliIn(wb.root, "init", other.toString());
        assertThat(init.exit()).as(init.toString()).isEqualTo(1);
        assertThat(init.err().strip()).as(init.toString()).isEqualTo("keyline: " + other + " holds files that are not "
                + "Keyline's (config.ini, run.sh) and no Keyline state: a state folder is made private (0700, its files "
                + "0600), so Keyline leaves this one as it is. Name a new or empty folder for the state, e.g. "
                + other.resolve("state"));
        assertThat(mode(other)).isEqualTo("rwxr-xr-x");
        assertThat(mode(other.resolve("config.ini"))).isEqualTo("rw-r--r--");
        assertThat(mode(other.resolve("run.sh"))).isEqualTo("rwxr-xr-x");
        try (var files = Files.list(other)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("config.ini", "run.sh");
        }
        assertThat(wb.root.resolve("resources")).as("nothing made for a state that was not made").doesNotExist();

        Result named = wb.cliIn(wb.root, "--state", other.toString(), "--init", "status");
        assertThat(named.exit()).as(named.toString()).isEqualTo(1);
        assertThat(named.err()).contains(other + " holds files that are not Keyline's");
        assertThat(mode(other)).isEqualTo("rwxr-xr-x");

        // the folder it suggests: made by Keyline, private; the folder around it is the other program's, untouched
        Result inside = wb.cliIn(wb.root, "init", other.resolve("state").toString());
        assertThat(inside.exit()).as(inside.toString()).isZero();
        assertThat(mode(other.resolve("state"))).isEqualTo("rwx------");
        assertThat(mode(other)).isEqualTo("rwxr-xr-x");
        assertThat(mode(other.resolve("run.sh"))).isEqualTo("rwxr-xr-x");

        // an empty folder made for the state is taken, and made private
        Path empty = wb.root.resolve("made-for-it");
        Files.createDirectories(empty);
        Files.setPosixFilePermissions(empty, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Result adopted = wb.cliIn(wb.root, "init", empty.toString());
        assertThat(adopted.exit()).as(adopted.toString()).isZero();
        assertThat(mode(empty)).isEqualTo("rwx------");
        // and a state that exists is left as it is, whatever else its folder holds
        Result again = wb.cliIn(wb.root, "init", empty.toString());
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(again.out()).contains("already");
    }
}
