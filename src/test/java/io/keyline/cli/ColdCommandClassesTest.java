package io.keyline.cli;

import io.keyline.core.RunOptions;
import io.keyline.testing.ClassLoadLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A one-shot command pays, in a cold JVM, for every class it loads (read from the jar
 * and verified: a few hundred microseconds each). A plain-text {@code status}, as cron runs it, loads no Jackson
 * (some 450 classes, only {@code --json} needs them), no Flyway (the schema is current) and no JavaFX. The
 * command runs in a child JVM whose class-loading log is read; the same command with {@code --json} must load
 * Jackson, so the check can tell the two apart.
 */
class ColdCommandClassesTest {

    @Test
    void plainStatusLoadsNeitherJacksonNorFlywayNorJavaFx(@TempDir Path tmp) throws Exception {
        Path jobs = tmp.resolve("jobs");
        Path state = tmp.resolve("state");
        oneKeyDone(jobs, state);

        List<String> plain = classesOf(tmp, state, jobs, "plain", "status");
        assertThat(plain).as("the table was printed by the real command")
                .contains("io.keyline.cli.StatusCommand", "io.keyline.cli.Text$Table");
        assertThat(plain).filteredOn(c -> c.startsWith("com.fasterxml.jackson.databind.")
                || c.startsWith("org.flywaydb.") || c.startsWith("javafx.") || c.startsWith("ch.qos.logback."))
                // named in the open's catch clause, so the verifier loads it; Flyway itself is not started
                .filteredOn(c -> !c.equals("org.flywaydb.core.api.FlywayException"))
                .isEmpty();

        List<String> json = classesOf(tmp, state, jobs, "json", "status", "--json");
        assertThat(json).contains("com.fasterxml.jackson.databind.ObjectMapper");
    }

    @Test
    void startupTraceNamesEachPhaseOnlyWhenAsked(@TempDir Path tmp) throws Exception {
        Path jobs = tmp.resolve("jobs");
        Path state = tmp.resolve("state");
        oneKeyDone(jobs, state);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", state.toString(), "--jobs", jobs.toString(), "status");

        String traced = output(cmd, "1");
        assertThat(traced).contains("k1");
        List<String> phases = traced.lines().filter(l -> l.startsWith("keyline startup: "))
                .map(l -> l.replaceFirst("^keyline startup: +\\d+ ms +\\+ *\\d+ ms +", "")).toList();
        assertThat(phases).containsSubsequence("main", "command line parsed", "H2 opened the state file",
                "schema checked", "state open", "keys read (1)", "table built", "table printed",
                "command done, exiting");

        String quiet = output(cmd, "0");
        assertThat(quiet).contains("k1").doesNotContain("keyline startup");
    }

    /** A job folder with one job, and a state in which its key k1 is done. */
    private static void oneKeyDone(Path jobs, Path state) throws Exception {
        Files.createDirectories(jobs);
        Files.writeString(jobs.resolve("daily.json"), """
            { "name": "daily", "key": { "type": "manual" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = KeylineCli.execute(new String[] {"--state", state.toString(), "--jobs", jobs.toString(), "--init",
                "run", "daily", "--key", "k1"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8), Map.of(), RunOptions.standard());
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
    }

    private static String output(List<String> cmd, String trace) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("KEYLINE_TRACE_STARTUP", trace);
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            return out;
        } finally {
            p.destroyForcibly();
        }
    }

    private static List<String> classesOf(Path tmp, Path state, Path jobs, String name, String... command)
            throws Exception {
        Path log = tmp.resolve(name + ".classes.log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + log,
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", state.toString(), "--jobs", jobs.toString()));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try {
            boolean ended = p.waitFor(120, TimeUnit.SECONDS);
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ended).as("the command ends; output:\n" + out).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
        } finally {
            p.destroyForcibly();
        }
        assertThat(out).contains("k1");
        return ClassLoadLog.classes(log);
    }
}
