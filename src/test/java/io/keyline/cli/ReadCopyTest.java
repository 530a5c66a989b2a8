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

    /** What the startup trace says when a command printed from the copy ("keys read …", "jobs counted …"). */
    private static final String COPY_USED = "from the copy of the last status";
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
        ok(wb.cli("pause", "broken", "--reason", "site down"));

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
                new String[] {"status", "--attention"}, new String[] {"status", "daily", "--json"},
                new String[] {"jobs"})) {
            Run fromState = status(wb, false, args);
            Run fromCopy = status(wb, true, args);
            assertThat(fromCopy.trace).as(String.join(" ", args)).contains(COPY_USED);
            assertThat(fromState.trace).as(String.join(" ", args)).doesNotContain(COPY_USED);
            assertThat(fromCopy.out).as(String.join(" ", args)).isEqualTo(fromState.out).isNotBlank();
        }
        // the other one-shot readers, as their own processes, open the file read-only too
        assertThat(status(wb, true, "jobs").out).containsPattern("(?m)^broken +manual .* yes: site down")
                .contains("! credential site-cookie expires");
        assertThat(status(wb, true, "timeline", "daily", "k1").out).contains("KEY_DONE");
        assertThat(Files.readAllBytes(wb.state.resolve("keyline.mv.db"))).as("the readers wrote nothing")
                .isEqualTo(file);
        assertThat(status(wb, true).trace).as("so the copy is still good").contains(COPY_USED);
    }

    @Test
    void aChangeToTheStateIsSeenByTheNextStatusAndABadCopyIsNeverUsed() throws Exception {
        Workbench wb = copyInUse();

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
        assertThat(scrambled.trace).doesNotContain(COPY_USED);
        assertThat(scrambled.out).isEqualTo(cut.out);
        // one byte changed inside a key's name, every length still right: k2 would read as k3
        assertThat(status(wb, true).trace).contains(COPY_USED);
        byte[] kept = Files.readAllBytes(copy);
        int at = indexOf(kept, "k2".getBytes(StandardCharsets.UTF_8));
        assertThat(at).isPositive();
        kept[at + 1] = '3';
        Files.write(copy, kept);
        Run flipped = status(wb, true);
        assertThat(flipped.trace).doesNotContain(COPY_USED);
        assertThat(flipped.out).isEqualTo(cut.out).doesNotContain("k3");
        // a state whose indexes are to be checked (the marker of a check cut short) is opened, not copied
        assertThat(status(wb, true).trace).contains(COPY_USED);
        Files.writeString(wb.state.resolve("keyline.index-check"), "");
        Run marked = status(wb, true);
        assertThat(marked.trace).doesNotContain(COPY_USED);
        assertThat(marked.out).isEqualTo(cut.out);
        assertThat(wb.state.resolve("keyline.index-check")).as("the check ran").doesNotExist();
        // a copy another build made (another schema): not used
        status(wb, true);
        assertThat(status(wb, true).trace).contains(COPY_USED);
        byte[] ofAnotherBuild = Files.readAllBytes(copy);
        int schema = indexOf(ofAnotherBuild, "schema ".getBytes(StandardCharsets.UTF_8));
        assertThat(schema).isPositive();
        ofAnotherBuild[schema + 7] = (byte) (ofAnotherBuild[schema + 7] == '1' ? '0' : '1');
        Files.write(copy, ofAnotherBuild);
        Run otherBuild = status(wb, true);
        assertThat(otherBuild.trace).doesNotContain(COPY_USED);
        assertThat(otherBuild.out).isEqualTo(cut.out);

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
        Workbench wb = copyInUse();
        Path copy = wb.state.resolve(ReadSnapshot.FILE_NAME);
        try (Database open = Database.open(wb.state)) {
            assertThat(copy).as("a read-write open removes it: the file will change").doesNotExist();
            Run beside = status(wb, true);
            assertThat(beside.trace).as("another process has the state open: it serves the status")
                    .doesNotContain(COPY_USED, "(alone)");
            assertThat(beside.out).containsPattern(row("daily", "k1", "DONE"));
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
     * Another process writes key after key, opening and closing the state each time, while statuses follow
     * one another as their own processes, with CPU burners beside them: between two writes the statuses
     * have the state to themselves (the first reads it and keeps a copy, the next reads the copy), during a
     * write they go through the writer. No status shows fewer keys done than the one before it, and the
     * last one shows them all.
     */
    @Test
    @SuppressWarnings("try") // the burners run beside the block
    void statusesBetweenAnotherProcesssWritesNeverGoBackInTime() throws Exception {
        Workbench wb = workbench("a");
        ok(wb.cli("run", "daily", "--key", "k0"));
        int writes = 8;
        java.util.concurrent.atomic.AtomicInteger statuses = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 1; i <= writes; i++) {
                    ok(wb.cli("run", "daily", "--key", "w" + i)); // opens the state, writes, closes it
                    int after = statuses.get();
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                    while (statuses.get() < after + 3 && System.nanoTime() < until) {
                        Thread.sleep(20);
                    }
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "writer");
        int last = -1;
        int fromCopy = 0;
        try (CpuBurn burn = CpuBurn.start(2)) {
            writer.start();
            while (writer.isAlive()) {
                Run s = status(wb, true);
                statuses.incrementAndGet();
                int done = count(s.out, "DONE");
                assertThat(done).as("keys done, %d in the status before", last).isGreaterThanOrEqualTo(last);
                last = done;
                fromCopy += s.trace.contains(COPY_USED) ? 1 : 0;
            }
            writer.join();
        }
        assertThat(failed.get()).isNull();
        assertThat(fromCopy).as("statuses that read the copy between the writes").isPositive();
        Run end = status(wb, true);
        assertThat(count(end.out, "DONE")).isEqualTo(1 + writes);
        System.out.println("statuses: " + statuses.get() + ", of them from the copy: " + fromCopy);
    }

    /** A passwords file that others can read is reported, as the open reports it: the copy is not printed. */
    @Test
    void aPasswordsFileOthersCanReadStopsTheCopyAsItStopsTheOpen() throws Exception {
        Workbench wb = copyInUse();
        Files.setPosixFilePermissions(wb.state.resolve("database.secret"), PosixFilePermissions.fromString("rw-r--r--"));
        Run exposed = command(wb, true, List.of());
        assertThat(exposed.exit).isEqualTo(1);
        assertThat(exposed.trace).contains("accessible to group or others").doesNotContain(COPY_USED);
        assertThat(exposed.out).doesNotContain("k1");
    }

    /**
     * A process that is not Keyline - an H2 shell started by hand - has the file open and writes a key: no
     * {@code keyline.users.lock} shows it, but H2's lock on the file does. The status that starts meanwhile
     * does not print the copy (which lacks the key); it waits until the shell lets the file go and prints it.
     */
    @Test
    void aStatusBesideAnH2ShellWaitsForTheFileInsteadOfPrintingTheCopy() throws Exception {
        Workbench wb = copyInUse();
        org.h2.jdbcx.JdbcDataSource shell = new org.h2.jdbcx.JdbcDataSource();
        shell.setURL("jdbc:h2:file:" + wb.state.resolve("keyline") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE");
        shell.setUser(io.keyline.store.DatabasePasswords.ADMIN_USER);
        java.util.Properties secret = new java.util.Properties();
        secret.load(new java.io.StringReader(Files.readString(wb.state.resolve("database.secret"))));
        shell.setPassword(secret.getProperty("admin"));
        Process p;
        try (Connection c = shell.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO key_state (job, key_value, state, attempts, version, created_at, updated_at) "
                    + "VALUES ('daily', 'by-hand', 'DONE', 1, 1, 0, 0)");
            p = start(wb, true, List.of());
            // time enough to print the copy and end, had it used it
            assertThat(p.waitFor(8, TimeUnit.SECONDS)).as("the status waits for the file").isFalse();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String trace = Files.readString(errors.get(p));
        assertThat(p.exitValue()).as(out + trace).isZero();
        assertThat(out).containsPattern(row("daily", "by-hand", "DONE"));
        assertThat(trace).doesNotContain(COPY_USED);
    }

    /**
     * A status that finds the open lock held waits for it once, as an open does, and gives up after
     * {@code keyline.state.openWait}: the copy's check does not make it wait a second time.
     */
    @Test
    void aStatusThatFindsTheStateLockedWaitsOnce() throws Exception {
        Workbench wb = copyInUse();
        Database reader = Database.openToRead(new io.keyline.store.StateLocation.Folder(wb.state));
        Run locked;
        try {
            assertThat(reader.alone()).isTrue(); // it holds the open lock until it closes the state
            locked = command(wb, true, List.of("-Dkeyline.state.openWait=PT5S"));
        } finally {
            reader.close();
        }
        assertThat(locked.exit).as(locked.trace).isEqualTo(1);
        assertThat(locked.trace).contains("stayed locked");
        assertThat(Pattern.compile("waiting for the state").matcher(locked.trace).results().count())
                .as(locked.trace).isEqualTo(1);
    }

    /**
     * A message cut in the middle of an emoji (the store clips messages to 2,000 chars) holds a lone
     * surrogate; the copy keeps it as it is, and prints what the state prints (as an escape).
     */
    @Test
    void aLoneSurrogateComesBackFromTheCopyAsItIs() throws Exception {
        Workbench wb = workbench("a");
        ok(wb.cli("run", "daily", "--key", "k1"));
        try (Database db = Database.open(wb.state); Connection c = db.connection();
             java.sql.PreparedStatement ps = c.prepareStatement("UPDATE key_state SET message = ? WHERE key_value = 'k1'")) {
            ps.setString(1, "published \uD83D\uDE00 then cut \uD83D");
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        for (String[] args : List.of(new String[] {"status"}, new String[] {"status", "--json"})) {
            Run fromState = status(wb, false, args);
            status(wb, true); // keeps the copy
            Run fromCopy = status(wb, true, args);
            assertThat(fromCopy.trace).contains(COPY_USED);
            assertThat(fromCopy.out).as(String.join(" ", args)).isEqualTo(fromState.out).contains("published");
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** A state with the key daily/k1 done, and a copy that the next status reads (checked). */
    private Workbench copyInUse() throws Exception {
        Workbench wb = workbench("a");
        ok(wb.cli("run", "daily", "--key", "k1"));
        status(wb, true);
        assertThat(status(wb, true).trace).contains(COPY_USED);
        return wb;
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

    /** What one {@code keyline} process printed, its startup trace and messages (stderr), and its exit code. */
    private record Run(String out, String trace, int exit) {
    }

    /** {@code keyline ARGS} (default {@code status}) as its own process, which must succeed. */
    private Run status(Workbench wb, boolean copies, String... args) throws Exception {
        Run r = command(wb, copies, List.of(), args);
        assertThat(r.exit).as(r.out + r.trace).isZero();
        return r;
    }

    private Run command(Workbench wb, boolean copies, List<String> jvm, String... args) throws Exception {
        Process p = start(wb, copies, jvm, args);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
            return new Run(out, Files.readString(errors.get(p)), p.exitValue());
        } finally {
            p.destroyForcibly();
        }
    }

    private final java.util.Map<Process, Path> errors = new java.util.concurrent.ConcurrentHashMap<>();

    private Process start(Workbench wb, boolean copies, List<String> jvm, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Dkeyline.state.readCopy=" + copies));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", wb.state.toString(), "--jobs", wb.jobs.toString()));
        cmd.addAll(args.length == 0 ? List.of("status") : List.of(args));
        Path err = Files.createTempFile(tmp, "keyline", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        pb.environment().put("KEYLINE_TRACE_STARTUP", "1");
        Process p = pb.start();
        errors.put(p, err);
        return p;
    }
}
