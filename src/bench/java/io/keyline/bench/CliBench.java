package io.keyline.bench;

import io.keyline.store.Database;
import io.keyline.store.h2.H2Database;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * B9: what a one-shot command costs before it prints. {@code keyline status} on a state with 10,000 keys, run as
 * the README's command for cron runs it ({@code cli.status_archived_ms}: an AppCDS archive of the jar made once by
 * {@code -XX:ArchiveClassesAtExit}, the JIT at C1 only), and as a plain {@code java -jar} ({@code cli.status_ms}),
 * each the first {@code status} after a run changed the state; against the floor of the same JVM (a hello-world
 * class started the same way); {@code jobs}; and {@code status} right after a process that had the state open was
 * killed with SIGKILL. Medians of {@code bench.b9.runs} (10) after two warm-up rounds; the runs are interleaved so
 * that load on the machine falls on all of them alike.
 */
final class CliBench {
    static final int KEYS = Integer.getInteger("bench.b9.keys", 10_000);
    static final int RUNS = Integer.getInteger("bench.b9.runs", 10);
    static final int KILLS = Integer.getInteger("bench.b9.kills", 3);
    static final Path ROOT = Path.of("target", "bench", "b9").toAbsolutePath();
    static final Path JAR = Path.of("target", "keyline.jar").toAbsolutePath();
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private CliBench() {
    }

    static void run() throws Exception {
        if (!Files.isRegularFile(JAR)) {
            Stats.log("B9 skipped: no " + JAR + " (mvn -Pbench verify packages it first)");
            return;
        }
        Stats.deleteTree(ROOT);
        Path jobs = Files.createDirectories(ROOT.resolve("jobs"));
        Path state = ROOT.resolve("state");
        String start = LocalDate.now().minusDays(KEYS - 1L).toString();
        Files.writeString(jobs.resolve("big.json"), """
            { "name": "big", "key": { "type": "date", "zone": "UTC", "start": "%s" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """.formatted(start));
        Path started = ROOT.resolve("slow.pid");
        Files.writeString(jobs.resolve("slow.json"), """
            { "name": "slow", "key": { "type": "manual" },
              "steps": [ { "id": "wait", "kind": "command", "effect": "none", "timeout": "PT300S",
                           "command": ["sh", "-c", "echo $$ > '%s'; exec sleep 120"] } ] }
            """.formatted(started));
        long t0 = System.nanoTime();
        try (Database db = H2Database.open(state)) {
            load(db, LocalDate.parse(start));
        }
        Stats.log("B9 state with " + KEYS + " keys loaded in " + (System.nanoTime() - t0) / 1_000_000 + " ms");

        Path hello = Files.createDirectories(ROOT.resolve("hello"));
        Path src = hello.resolve("Hello.java");
        Files.writeString(src, "public class Hello { public static void main(String[] a) { System.out.println(\"hello\"); } }");
        if (javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", hello.toString(),
                src.toString()) != 0) {
            throw new IllegalStateException("B9: cannot compile the hello-world class");
        }
        Files.writeString(jobs.resolve("touch.json"), """
            { "name": "touch", "key": { "type": "manual" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """);
        Path jsa = ROOT.resolve("keyline.jsa");
        List<String> base = List.of(JAVA, "-jar", JAR.toString(), "--state", state.toString(), "--jobs",
                jobs.toString());
        List<String> status = with(base, "status");
        List<String> jobsCmd = with(base, "jobs");
        List<String> floor = List.of(JAVA, "-cp", hello.toString(), "Hello");
        // the archive as the README makes it: one run of jobs with -XX:ArchiveClassesAtExit
        List<String> dump = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-XX:ArchiveClassesAtExit=" + jsa));
        dump.addAll(jobsCmd.subList(1, jobsCmd.size()));
        time(dump);
        // the README's command for cron: the archive, and the JIT at C1 only (as the app-image's launcher)
        List<String> archived = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1",
                "-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off,cds+dynamic=off"));
        archived.addAll(status.subList(1, status.size()));

        List<Double> floorMs = new ArrayList<>();
        List<Double> statusMs = new ArrayList<>();
        List<Double> archivedMs = new ArrayList<>();
        List<Double> jobsMs = new ArrayList<>();
        int changes = 0;
        for (int i = -2; i < RUNS; i++) {
            double f = time(floor);
            time(with(base, "run", "touch", "--key", "r" + changes++)); // a run changes the state
            double c = time(archived);
            time(with(base, "run", "touch", "--key", "r" + changes++));
            double s = time(status);
            double j = time(jobsCmd);
            if (i >= 0) {
                floorMs.add(f);
                statusMs.add(s);
                archivedMs.add(c);
                jobsMs.add(j);
            }
        }
        Stats.log("B9 status (README's cron command: AppCDS, C1) ms: " + Stats.list(archivedMs));
        Stats.log("B9 status (plain java -jar) ms: " + Stats.list(statusMs));
        Stats.log("B9 hello-world ms: " + Stats.list(floorMs));
        double f = Stats.figure("cli.jvm_floor_ms", floorMs, "ms");
        double c = Stats.figure("cli.status_archived_ms", archivedMs, "ms");
        Stats.print("cli.status_archived_ratio_to_floor", c / f, "x");
        double s = Stats.figure("cli.status_ms", statusMs, "ms");
        Stats.print("cli.status_ratio_to_floor", s / f, "x");
        Stats.figure("cli.jobs_ms", jobsMs, "ms");

        // the first command after a SIGKILL of a process that had the state open
        List<Double> afterKill = new ArrayList<>();
        List<Double> next = new ArrayList<>();
        for (int k = 0; k < KILLS; k++) {
            Files.deleteIfExists(started);
            Process p = new ProcessBuilder(with(base, "run", "slow", "--key", "k" + k))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!(Files.exists(started) && !Files.readString(started).isBlank()) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            p.destroyForcibly();
            p.waitFor();
            String pid = Files.readString(started).trim();
            new ProcessBuilder("kill", "-9", pid).start().waitFor();
            afterKill.add(time(status));
            next.add(time(status));
        }
        Stats.log("B9 status right after a SIGKILL ms: " + Stats.list(afterKill) + "; the one after it: "
                + Stats.list(next));
        Stats.figure("cli.status_after_kill_ms", afterKill, "ms");
        Stats.figure("cli.status_after_that_ms", next, "ms");
    }

    private static List<String> with(List<String> base, String... more) {
        List<String> out = new ArrayList<>(base);
        out.addAll(List.of(more));
        return out;
    }

    /** Wall milliseconds from start to exit; the command must succeed. */
    private static double time(List<String> cmd) throws Exception {
        Path out = ROOT.resolve("out.txt");
        long a = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("B9: " + cmd + " did not end");
        }
        double ms = (System.nanoTime() - a) / 1e6;
        if (p.exitValue() != 0) {
            throw new IllegalStateException("B9: " + String.join(" ", cmd) + " exited " + p.exitValue() + ": "
                    + Files.readString(out, StandardCharsets.UTF_8));
        }
        return ms;
    }

    private static void load(Database db, LocalDate start) throws Exception {
        long now = System.currentTimeMillis();
        try (Connection c = db.connection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_state (job, key_value, state, attempts, "
                    + "message, failure_class, version, created_at, updated_at) VALUES ('big', ?, ?, ?, ?, ?, 3, ?, ?)");
                 PreparedStatement ev = c.prepareStatement("INSERT INTO key_event (job, key_value, ts, run_id, "
                         + "event_type, step, attempt, state, message) VALUES ('big', ?, ?, 'bench', 'KEY_DONE', "
                         + "'work', 1, 'DONE', 'all 1 steps done')")) {
                for (int n = 0; n < KEYS; n++) {
                    boolean failed = n % 100 == 7;
                    String k = start.plusDays(n).toString();
                    ps.setString(1, k);
                    ps.setString(2, failed ? "FAILED" : "DONE");
                    ps.setInt(3, 1);
                    ps.setString(4, failed ? "work failed: exit 65" : "all 1 steps done");
                    ps.setString(5, failed ? "FATAL" : null);
                    ps.setLong(6, now);
                    ps.setLong(7, now);
                    ps.addBatch();
                    ev.setString(1, k);
                    ev.setLong(2, now);
                    ev.addBatch();
                    if (n % 5_000 == 4_999) {
                        ps.executeBatch();
                        ev.executeBatch();
                    }
                }
                ps.executeBatch();
                ev.executeBatch();
            }
            c.commit();
        }
    }
}
