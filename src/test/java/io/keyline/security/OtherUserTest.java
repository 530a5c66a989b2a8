package io.keyline.security;

import io.keyline.testing.Workbench;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another user's read of the state, as a review did it: another local user ({@code nobody}) against a state
 * that a run holds open. It may know where the state is and even the AUTO_SERVER port and id (the
 * test hands them over, as a world-readable lock file did): it can neither read any file of the
 * state nor connect to its database, with or without the old well-known login.
 *
 * <p>Needs root (to run the probe as {@code nobody} with {@code runuser}); skipped with the reason
 * otherwise. The probe is a standalone class run with only the H2 jar, both copied to a folder
 * {@code nobody} can read (the test class path is under /root).
 */
class OtherUserTest {

    private Path base;

    @AfterEach
    void cleanUp() throws IOException {
        if (base != null) {
            try (Stream<Path> walk = Files.walk(base)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Test
    void anotherUserCanNeitherReadTheStateNorConnectToItWhileARunHoldsIt() throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            System.out.println("SKIPPED OtherUserTest: runs as " + System.getProperty("user.name")
                    + ", not root: cannot switch to another OS user");
            Assumptions.abort("needs root to run the probe as another OS user (runuser -u nobody)");
        }
        if (run(List.of("runuser", "-u", "nobody", "--", "true"), null).exit != 0) {
            System.out.println("SKIPPED OtherUserTest: runuser -u nobody does not work here");
            Assumptions.abort("runuser -u nobody does not work here");
        }
        // a folder every user can enter, as a home or a project folder is: only the state's own modes protect it
        base = Files.createTempDirectory(Path.of("/tmp"), "keyline-other-user-");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path probeDir = Files.createDirectories(base.resolve("probe"));
        Path h2 = probeDir.resolve("h2.jar");
        Files.copy(Path.of(org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI()), h2);
        Path probe = probeDir.resolve("Probe.java");
        Files.write(probe, OtherUserTest.class.getResourceAsStream("/security/Probe.java").readAllBytes());
        // compiled once here (the source launcher would compile it in each of the two runs)
        int compiled = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-cp", h2.toString(),
                "-d", probeDir.toString(), probe.toString());
        assertThat(compiled).as("javac Probe.java").isZero();
        try (Stream<Path> walk = Files.walk(probeDir)) {
            for (Path p : walk.toList()) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        String probeCp = h2 + ":" + probeDir;

        Workbench wb = new Workbench(base.resolve("work"));
        Files.setPosixFilePermissions(wb.root, PosixFilePermissions.fromString("rwxr-xr-x"));
        wb.job("holder", SecurityTest.WAITING_JOB, null);
        Files.writeString(wb.jobs.resolve("site.txt"), "Cookie: sid=Nb0dyM4yN0tR3adTh1s\n");
        assertThat(wb.cli("credentials", "set", "site", "--from-file", wb.jobs.resolve("site.txt").toString()).exit())
                .isZero();
        try (SecurityTest.Holder h = SecurityTest.Holder.start(wb, base.resolve("holder.log"))) {
            Properties lock = h.lockFile();
            String server = lock.getProperty("server");
            String port = server.substring(server.lastIndexOf(':') + 1);
            String key = lock.getProperty("id");
            List<String> files = new ArrayList<>();
            try (Stream<Path> walk = Files.walk(wb.state)) {
                walk.filter(Files::isRegularFile).forEach(f -> files.add(f.toString()));
            }
            assertThat(files).anyMatch(f -> f.endsWith("keyline.mv.db")).anyMatch(f -> f.endsWith("keyline.lock.db"))
                    .anyMatch(f -> f.endsWith("secret.key")).anyMatch(f -> f.endsWith("runs.jsonl"));
            // control: the same probe as the operator, with the state's own login, does connect (a state without a
            // passwords file once had the well-known login keyline with an empty password)
            Path passwords = wb.state.resolve("database.secret");
            Properties pw = new Properties();
            if (Files.exists(passwords)) {
                try (var in = Files.newInputStream(passwords)) {
                    pw.load(in);
                }
            }
            String user = Files.exists(passwords) ? "keyline_app" : "keyline";
            List<String> control = new ArrayList<>(List.of(java(), "-XX:TieredStopAtLevel=1", "-cp", probeCp, "Probe",
                    wb.state.toString(), port, key, user, pw.getProperty("app", ""), "--"));
            Outcome mine = run(control, null);
            assertThat(mine.lines).as("the probe as the operator:\n" + mine.text)
                    .anyMatch(l -> l.startsWith("ALLOWED connect") && l.contains(" as " + user + "/"));

            List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "nobody", "--", java(), "-XX:-UsePerfData",
                    "-XX:TieredStopAtLevel=1", "-Duser.home=" + probeDir, "-cp", probeCp, "Probe", wb.state.toString(), port, key,
                    "keyline", "", "keyline_app", "", "sa", "", "--"));
            cmd.addAll(files);
            Outcome other = run(cmd, probeDir);
            System.out.println("OtherUserTest: the probe as nobody:\n" + other.text);
            assertThat(other.lines).as("attempts by nobody").hasSizeGreaterThanOrEqualTo(files.size() + 5);
            assertThat(other.lines).as("nothing is allowed to nobody:\n" + other.text)
                    .allMatch(l -> l.startsWith("REFUSED "));
        }
    }

    record Outcome(int exit, String text, List<String> lines) {
    }

    static Outcome run(List<String> cmd, Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        String text = new String(out, StandardCharsets.UTF_8);
        return new Outcome(p.exitValue(), text, text.lines()
                .filter(l -> l.startsWith("ALLOWED ") || l.startsWith("REFUSED ")).toList());
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
