package io.keyline.ops;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped units tell the truth: success on 0 and 5 only (a retry is pending: the next run goes on); 1, 2, 3
 * and 4 (a key waits for a person) fail the unit, and a failure notifies.
 */
class SystemdUnitsTest {

    static final Path UNITS = Path.of("packaging/systemd");

    /** The [Service]/[Unit] settings of a unit file: key → values (comments and blank lines left out). */
    static Map<String, List<String>> settings(Path unit) throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(unit)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith(";") || l.startsWith("[")) {
                continue;
            }
            int eq = l.indexOf('=');
            out.computeIfAbsent(l.substring(0, eq).strip(), k -> new ArrayList<>()).add(l.substring(eq + 1).strip());
        }
        return out;
    }

    @Test
    void theRunSucceedsOnZeroAndFiveOnlyAndAKeyThatWaitsForAPersonFailsIt() throws IOException {
        Map<String, List<String>> s = settings(UNITS.resolve("keyline.service"));
        assertThat(s.get("SuccessExitStatus")).hasSize(1);
        Set<String> success = Arrays.stream(s.get("SuccessExitStatus").get(0).split("\\s+")).collect(Collectors.toSet());
        assertThat(success).containsExactly("5");
        assertThat(success).as("4: someone must act, so OnFailure= tells them").doesNotContain("1", "2", "3", "4");
        assertThat(s.get("ExecStart").get(0)).endsWith("keyline run --due");
        assertThat(s.get("Type")).containsExactly("oneshot");
    }

    @Test
    void aFailureStartsTheNotifyUnit() throws IOException {
        Map<String, List<String>> s = settings(UNITS.resolve("keyline.service"));
        assertThat(s.get("OnFailure")).containsExactly("keyline-failed@%n.service");
        Map<String, List<String>> failed = settings(UNITS.resolve("keyline-failed@.service"));
        assertThat(failed.get("ExecStart").get(0)).contains("keyline notify send --event run").contains("%i");
        // the operations guide shows how a failed key is caught
        assertThat(Files.readString(Path.of("docs/operations.md"))).contains("systemctl --user --failed");
    }

    /** Runs the crontab line with a stand-in keyline that exits {@code exit}; returns what cron would mail. */
    static String cronMail(Path tmp, int exit) throws Exception {
        return cronMail(tmp, exit, true);
    }

    /** As above; {@code stateFolder}: the state's folder exists already (false: nothing ever ran on this account). */
    static String cronMail(Path tmp, int exit, boolean stateFolder) throws Exception {
        String line = Files.readAllLines(Path.of("packaging/crontab.txt")).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow();
        String command = line.split("\\s+", 6)[5];
        Path fake = tmp.resolve("keyline-" + exit);
        Files.writeString(fake, "#!/bin/sh\nif [ \"$1\" = notify ]; then echo \"notify $*\" >> \"$HOME/notified\"; exit 0; fi\n"
                + "exit " + exit + "\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));
        Path home = Files.createDirectories(tmp.resolve("home-" + exit));
        if (stateFolder) {
            Files.createDirectories(home.resolve(".local/share/keyline"));
        }
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", command.replace("/opt/keyline/bin/keyline", fake.toString()))
                .redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        boolean notified = Files.exists(home.resolve("notified"));
        assertThat(notified).as("notify send exactly when cron mails: exit " + exit).isEqualTo(!out.isBlank());
        return out;
    }

    @Test
    void onAnAccountWhereNothingRanYetTheCronLineSaysKeylinesExitNotTheShells(@TempDir Path tmp) throws Exception {
        // keyline itself refuses (no state found: exit 1); the line must say so and keep what it printed
        String mail = cronMail(tmp, 1, false);
        assertThat(mail).contains("exit 1").doesNotContain("cannot create").doesNotContain("exit 2");
        assertThat(tmp.resolve("home-1/.local/share/keyline/cron.log")).exists();
    }

    @Test
    void theCronLineSpeaksUpWhenSomeoneMustActAndOnlyThen(@TempDir Path tmp) throws Exception {
        for (int quiet : List.of(0, 5)) {
            assertThat(cronMail(tmp, quiet)).as("exit " + quiet).isEmpty();
        }
        for (int loud : List.of(4, 1, 2, 3)) {
            assertThat(cronMail(tmp, loud)).as("exit " + loud + ": someone must act").isNotBlank()
                    .contains("exit " + loud).contains("needs you");
        }
    }

    /**
     * Nothing prunes by itself, so the shipped units and the crontab prune weekly: events and saved plans older than
     * 90 days. The unit's command is run as it stands through the real command line on a real state; a failure
     * notifies as a run's does.
     */
    @Test
    void aWeeklyTimerAndCronLinePruneOldEventsAndPlans(@TempDir Path tmp) throws Exception {
        Map<String, List<String>> timer = settings(UNITS.resolve("keyline-prune.timer"));
        assertThat(timer.get("OnCalendar")).containsExactly("weekly");
        assertThat(timer.get("Persistent")).containsExactly("true");
        Map<String, List<String>> s = settings(UNITS.resolve("keyline-prune.service"));
        assertThat(s.get("Type")).containsExactly("oneshot");
        assertThat(s.get("OnFailure")).containsExactly("keyline-failed@%n.service");
        String exec = s.get("ExecStart").get(0);
        assertThat(exec).startsWith("/opt/keyline/bin/keyline prune ");

        io.keyline.testing.Workbench wb = new io.keyline.testing.Workbench(tmp);
        assertThat(wb.cli("status").exit()).isZero(); // the state exists, as on a machine that runs keys
        io.keyline.testing.Workbench.Result pruned = wb.cli(exec.substring("/opt/keyline/bin/keyline ".length()).split("\\s+"));
        assertThat(pruned.exit()).as(pruned.toString()).isZero();
        assertThat(pruned.out()).contains("deleted 0 events and 0 plans older than");

        List<String> cron = Files.readAllLines(Path.of("packaging/crontab.txt")).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertThat(cron).hasSize(2);
        assertThat(cron.get(1).split("\\s+", 6)[0]).as("a fixed minute, weekly").matches("\\d+");
        assertThat(cron.get(1)).contains(exec);
    }

    @Test
    void theWorkerUnitStopsInOrderAndComesBack() throws IOException {
        // SIGTERM to the worker only (its command steps finish), enough time for a step, restarted
        Map<String, List<String>> s = settings(UNITS.resolve("keyline-worker.service"));
        assertThat(s.get("ExecStart").get(0)).endsWith("keyline worker");
        assertThat(s.get("Type")).containsExactly("simple");
        assertThat(s.get("KillMode")).containsExactly("mixed");
        assertThat(s.get("KillSignal")).containsExactly("SIGTERM");
        assertThat(s.get("Restart")).containsExactly("on-failure");
        assertThat(s.get("Environment")).anyMatch(e -> e.startsWith("KEYLINE_STATE=postgresql://"))
                .anyMatch(e -> e.startsWith("KEYLINE_MASTER_KEY_FILE="));
        assertThat(java.time.Duration.parse("PT" + s.get("TimeoutStopSec").get(0).toUpperCase().replace("MIN", "M")))
                .isGreaterThanOrEqualTo(java.time.Duration.ofMinutes(10));
    }

    @Test
    void systemdAnalyzeVerifiesTheUnits(@TempDir Path tmp) throws Exception {
        Path tool = Path.of("/usr/bin/systemd-analyze");
        if (!Files.isExecutable(tool)) {
            System.out.println("SKIPPED systemd-analyze verify: /usr/bin/systemd-analyze is not installed");
            return;
        }
        // the units name the installed /opt/keyline/bin/keyline, which verify checks exists: point them at a stand-in
        Path fake = tmp.resolve("keyline");
        Files.writeString(fake, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));
        List<String> cmd = new ArrayList<>(List.of(tool.toString(), "verify"));
        try (var files = Files.list(UNITS)) {
            for (Path unit : files.sorted().toList()) {
                Path copy = tmp.resolve(unit.getFileName());
                Files.writeString(copy, Files.readString(unit).replace("/opt/keyline/bin/keyline", fake.toString()));
                cmd.add(copy.toString());
            }
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // without a running systemd, verify may warn about the bus; it must not find fault with the units
        List<String> problems = out.lines().filter(l -> l.contains("keyline"))
                .filter(l -> !l.contains("Failed to connect") && !l.contains("bus")).toList();
        assertThat(problems).as(out).isEmpty();
        assertThat(p.exitValue()).as(out).isZero();
    }
}
