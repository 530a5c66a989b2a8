package io.keyline.cli;

import io.keyline.store.Database;
import io.keyline.store.ReadSnapshot;
import io.keyline.testing.CpuBurn;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14 (CLI latency): a one-shot {@code status} that has the state to itself reads the copy of what the
 * last one read ({@link ReadSnapshot}) instead of opening H2, as long as the state file is the one the copy was
 * made from - and shows exactly what reading the state shows. Every {@code status} here is a real
 * {@code keyline} process (the copy is the one-shot process's; a command run in-process reads the state); what
 * it read from is told by its startup trace.
 */
class ReadCopyTest {

    @TempDir
    Path tmp;

    private static final String COPY_USED = "keys read from the copy of the last status";
    private static final String SECRET = "s3cr3t-value-7d41f0";

    private Workbench workbench(String name) throws Exception {
        Workbench wb = new Workbench(tmp.resolve(name));
        wb.job("daily", """
            { "name": "daily", "key": { "type": "manual" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """, null);
        wb.job("broken", """
            { "name": "broken", "key": { "type": "manual" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["sh", "-c", "exit 65"] } ] }
            """, null);
        return wb;
    }

    @Test
    void theNextStatusReadsTheCopyAndShowsWhatTheStateShows() throws Exception {
        Workbench wb = workbench("a");
        ok(wb.cli("run", "daily", "--key", "k1"));
        ok(wb.cli("run", "daily", "--key", "k2"));
        wb.cli("run", "broken", "--key", "b1");
        // a cookie that expires within the warning window: status warns, from the copy too
        long soon = System.currentTimeMillis() / 1000 + 86_400;
        ok(wb.cliWithInput("127.0.0.1\tFALSE\t/\tFALSE\t" + soon + "\tsid\t" + SECRET + "\n", "credentials", "set",
                "site-cookie", "--login-url", "https://example.org/login"));

        Run first = status(wb, true);
        assertThat(first.trace).as("no copy yet: the state is read").contains("keys read (3)").doesNotContain(COPY_USED);
        Path copy = wb.state.resolve(ReadSnapshot.FILE_NAME);
        assertThat(copy).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy))).isEqualTo("rw-------");
        assertThat(new String(Files.readAllBytes(copy), StandardCharsets.ISO_8859_1)).as("no secret in the copy")
                .doesNotContain(SECRET);

        Run second = status(wb, true);
        assertThat(second.trace).contains(COPY_USED + " (3)").doesNotContain("H2 opened the state file");
        assertThat(second.out).isEqualTo(first.out).contains("! credential site-cookie expires")
                .containsPattern(row("daily", "k1", "DONE")).containsPattern(row("daily", "k2", "DONE"))
                .containsPattern(row("broken", "b1", "FAILED"));

        // the same command lines from the state (the copy turned off) and from the copy; a one-shot reader opens
        // the file read-only, so reading the state leaves it as it was and the copy stays good
        byte[] file = Files.readAllBytes(wb.state.resolve("keyline.mv.db"));
        for (String[] args : List.of(new String[] {"status", "--json"}, new String[] {"status", "broken"},
                new String[] {"status", "--attention"}, new String[] {"status", "daily", "--json"})) {
            Run fromState = status(wb, false, args);
            Run fromCopy = status(wb, true, args);
            assertThat(fromCopy.trace).as(String.join(" ", args)).contains(COPY_USED);
            assertThat(fromState.trace).as(String.join(" ", args)).doesNotContain(COPY_USED);
            assertThat(fromCopy.out).as(String.join(" ", args)).isEqualTo(fromState.out).isNotBlank();
        }
        assertThat(Files.readAllBytes(wb.state.resolve("keyline.mv.db"))).as("the readers wrote nothing")
                .isEqualTo(file);
    }

    @Test
    void aChangeToTheStateIsSeenByTheNextStatusAndABadCopyIsNeverUsed() throws Exception {
        Workbench wb = workbench("a");
        ok(wb.cli("run", "daily", "--key", "k1"));
        status(wb, true);
        assertThat(status(wb, true).trace).contains(COPY_USED + " (1)");

        // another process changes the state: the next status reads the state, not the copy
        ok(wb.cli("run", "daily", "--key", "k2"));
        Run afterRun = status(wb, true);
        assertThat(afterRun.trace).contains("keys read (2)").doesNotContain(COPY_USED);
        assertThat(afterRun.out).containsPattern(row("daily", "k2", "DONE"));
        ok(wb.cli("mark-done", "broken", "b7", "--note", "by hand"));
        assertThat(status(wb, true).out).containsPattern(row("broken", "b7", "DONE"));
        assertThat(status(wb, true).trace).as("and a new copy is kept").contains(COPY_USED + " (3)");

        Path copy = wb.state.resolve(ReadSnapshot.FILE_NAME);
        byte[] good = Files.readAllBytes(copy);
        // cut short, and garbage of the same length: the state is read, the output is the same
        Files.write(copy, java.util.Arrays.copyOf(good, good.length / 2));
        Run cut = status(wb, true);
        assertThat(cut.trace).doesNotContain(COPY_USED);
        assertThat(cut.out).containsPattern(row("daily", "k1", "DONE")).containsPattern(row("daily", "k2", "DONE"))
                .containsPattern(row("broken", "b7", "DONE"));
        byte[] garbage = good.clone();
        for (int i = 40; i < garbage.length; i += 7) {
            garbage[i] ^= 0x5A;
        }
        Files.write(copy, garbage);
        Run scrambled = status(wb, true);
        assertThat(scrambled.out).isEqualTo(cut.out);

        // the copy of another state, put beside this one: not this file's, not used
        Workbench other = workbench("b");
        ok(other.cli("run", "daily", "--key", "only-in-b"));
        status(other, true);
        Files.copy(other.state.resolve(ReadSnapshot.FILE_NAME), copy, StandardCopyOption.REPLACE_EXISTING);
        Run foreign = status(wb, true);
        assertThat(foreign.trace).doesNotContain(COPY_USED);
        assertThat(foreign.out).containsPattern(row("daily", "k2", "DONE")).doesNotContain("only-in-b");
    }

    @Test
    @SuppressWarnings("try") // the state held open is the point
    void aStatusBesideAnotherProcessNeitherUsesNorKeepsACopy() throws Exception {
        Workbench wb = workbench("a");
        ok(wb.cli("run", "daily", "--key", "k1"));
        status(wb, true);
        Path copy = wb.state.resolve(ReadSnapshot.FILE_NAME);
        assertThat(copy).exists();
        try (Database open = Database.open(wb.state)) {
            Run beside = status(wb, true);
            assertThat(beside.trace).as("another process has the state open: it serves the status")
                    .doesNotContain(COPY_USED, "(alone)");
            assertThat(beside.out).containsPattern(row("daily", "k1", "DONE"));
            Files.delete(copy);
            ok(wb.cli("run", "daily", "--key", "k2"));
            assertThat(status(wb, true).out).containsPattern(row("daily", "k2", "DONE"));
            assertThat(copy).as("only a reader alone keeps a copy").doesNotExist();
        }
    }

    @Test
    void aStateWithAKeyLeftRunningGetsNoCopy() throws Exception {
        Workbench wb = workbench("a");
        ok(wb.cli("run", "daily", "--key", "k1"));
        ok(wb.cli("run", "daily", "--key", "k2"));
        try (Database db = Database.open(wb.state); Connection c = db.connection(); Statement st = c.createStatement()) {
            // as a run killed in its step leaves it (pid 999999999 is no process)
            st.executeUpdate("UPDATE key_state SET state = 'RUNNING', run_id = 'r1', lease_owner = 'vm/999999999/x', "
                    + "lease_until = " + (System.currentTimeMillis() + 3_600_000L) + " WHERE key_value = 'k2'");
        }
        Run first = status(wb, true);
        assertThat(first.out).contains("RUNNING (interrupted)");
        assertThat(wb.state.resolve(ReadSnapshot.FILE_NAME)).as("whether its process lives is asked each time")
                .doesNotExist();
        assertThat(status(wb, true).trace).doesNotContain(COPY_USED);
    }

    /**
     * A run writes key after key in its own process while statuses follow one another, with CPU burners
     * beside: a status never shows fewer keys done than the one before it, and the last one shows them all.
     */
    @Test
    @SuppressWarnings("try") // the burners run beside the block
    void statusesDuringARunNeverGoBackInTime() throws Exception {
        Workbench wb = workbench("a");
        wb.job("dated", """
            { "name": "dated", "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["sleep", "0.05"] } ] }
            """, null);
        ok(wb.cli("run", "daily", "--key", "k0"));
        status(wb, true);
        ProcessBuilder pb = io.keyline.acceptance.ChildProcess.builder(wb.state.toString(), wb.jobs, java.util.Map.of(),
                "run", "dated", "--from", "2026-01-01", "--to", "2026-02-09");
        Path runLog = tmp.resolve("run.log");
        int last = -1;
        int fromCopy = 0;
        try (CpuBurn burn = CpuBurn.start(2)) {
            Process run = pb.redirectErrorStream(true).redirectOutput(runLog.toFile()).start();
            try {
                while (run.isAlive()) {
                    Run s = status(wb, true);
                    int done = count(s.out, "DONE");
                    assertThat(done).as("keys done, after %d before; run so far:%n%s", last,
                            Files.readString(runLog)).isGreaterThanOrEqualTo(last);
                    last = done;
                    fromCopy += s.trace.contains(COPY_USED) ? 1 : 0;
                }
                assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();
            } finally {
                run.destroyForcibly();
            }
        }
        Run end = status(wb, true);
        assertThat(count(end.out, "DONE")).as(Files.readString(runLog)).isEqualTo(41).isGreaterThanOrEqualTo(last);
        Run again = status(wb, true);
        assertThat(again.out).isEqualTo(end.out);
        assertThat(again.trace).contains(COPY_USED);
        System.out.println("statuses during the run that read the copy: " + fromCopy + "; keys done at the end: "
                + count(end.out, "DONE"));
    }

    /** A line of the status table: the job, the key and the state in their columns. */
    private static String row(String job, String key, String state) {
        return "(?m)^" + job + " +" + key + " +" + state + " ";
    }

    private static int count(String out, String word) {
        Matcher m = Pattern.compile("\\b" + word + "\\b").matcher(out);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static void ok(Workbench.Result r) {
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    /** What one {@code keyline status} process printed, and its startup trace (stderr). */
    private record Run(String out, String trace) {
    }

    private Run status(Workbench wb, boolean copies, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Dkeyline.state.readCopy=" + copies, "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", wb.state.toString(), "--jobs", wb.jobs.toString()));
        cmd.addAll(args.length == 0 ? List.of("status") : List.of(args));
        Path err = Files.createTempFile(tmp, "status", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        pb.environment().put("KEYLINE_TRACE_STARTUP", "1");
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
            String trace = Files.readString(err);
            assertThat(p.exitValue()).as(out + trace).isZero();
            return new Run(out, trace);
        } finally {
            p.destroyForcibly();
        }
    }
}
