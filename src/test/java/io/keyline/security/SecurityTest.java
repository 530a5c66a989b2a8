package io.keyline.security;

import io.keyline.store.h2.H2Database;
import io.keyline.acceptance.ChildProcess;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each test reproduces one finding of the security
 * review through the real command line (in-process, or a child JVM where a second process matters)
 * and real files, and shows it closed. The test that runs as another OS user is in
 * {@link OtherUserTest}.
 *
 * <p>Item 1 here: the state folder is the operator's alone.
 */
class SecurityTest {

    @TempDir
    Path tmp;

    static final String WAITING_JOB = """
            {
              "name": "holder",
              "key": { "type": "manual" },
              "steps": [ { "id": "wait", "kind": "command", "effect": "none", "timeout": "PT2M",
                "command": ["sh", "-c", "touch started; i=0; while [ ! -f release ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done"] } ]
            }
            """;

    static final String DAILY = """
            {
              "name": "daily",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["sh", "-c", "echo done {key}"] } ]
            }
            """;

    // ------------------------------------------------------------------ item 1: the state folder

    /** Finding 1: state/ was 0755 and keyline.mv.db, logs/runs.jsonl 0644 (umask 022 here). */
    @Test
    void theStateFolderAndEveryFileInItAreTheOperatorsAlone() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        Result run = wb.cli("run", "daily", "--key", "2026-11-02");
        assertThat(run.exit()).as(run.toString()).isZero();
        Result cred = wb.cliWithInput("Cookie: sid=Zq8wL1mN4pR7sT0v\n", "credentials", "set", "site");
        assertThat(cred.exit()).as(cred.toString()).isZero();

        assertThat(mode(wb.state)).isEqualTo("rwx------");
        List<String> files = modes(wb.state);
        assertThat(files).as("files of the state folder").isNotEmpty()
                .anyMatch(f -> f.endsWith("keyline.mv.db")).anyMatch(f -> f.endsWith("runs.jsonl"))
                .anyMatch(f -> f.endsWith("secret.key"));
        assertThat(files).allMatch(f -> f.startsWith("rw------- ") || f.startsWith("rwx------ "), "0600 / 0700");
    }

    /** A state folder created by an older version (0755, files 0644) is tightened when it is opened. */
    @Test
    void anExistingReadableStateFolderIsTightenedOnOpen() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        assertThat(wb.cli("run", "daily", "--key", "2026-11-02").exit()).isZero();
        Files.setPosixFilePermissions(wb.state, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Stream<Path> files = Files.walk(wb.state)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                if (!f.getFileName().toString().equals("database.secret")) {
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }
        Result status = wb.cli("status");
        assertThat(status.exit()).as(status.toString()).isZero();
        assertThat(mode(wb.state)).isEqualTo("rwx------");
        assertThat(modes(wb.state)).allMatch(f -> f.startsWith("rw------- ") || f.startsWith("rwx------ "));

        // a key file others could read may have been read: refused with the fix, not quietly tightened
        Path passwords = wb.state.resolve("database.secret");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-r--r--"));
        Result refused = wb.cli("status");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("chmod 600 " + passwords, "0644");
        assertThat(mode(passwords)).isEqualTo("rw-r--r--");
    }

    /** A folder others can write may hold files they replaced: refused, with the fix in the message. */
    @Test
    void aStateFolderOthersCanWriteIsRefusedWithTheFix() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        assertThat(wb.cli("run", "daily", "--key", "2026-11-02").exit()).isZero();
        for (String mode : List.of("rwxrwxrwx", "rwxrwx---")) {
            Files.setPosixFilePermissions(wb.state, PosixFilePermissions.fromString(mode));
            Result r = wb.cli("run", "daily", "--key", "2026-11-03");
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).contains(wb.state.toString(), "chmod 700 " + wb.state, "writable");
            assertThat(r.out() + r.err()).doesNotContain("Exception");
            assertThat(mode(wb.state)).as("left for the operator to check").isEqualTo(mode);
        }
        Files.setPosixFilePermissions(wb.state, PosixFilePermissions.fromString("rwx------"));
        assertThat(wb.cli("run", "daily", "--key", "2026-11-03").exit()).isZero();
    }

    /** Finding 1: the user "keyline" had an empty password (and admin rights). */
    @Test
    void theDatabaseCannotBeOpenedWithoutTheStatesPassword() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        assertThat(wb.cli("run", "daily", "--key", "2026-11-02").exit()).isZero();
        for (String[] login : List.of(new String[] {"keyline", ""}, new String[] {"sa", ""},
                new String[] {"keyline_app", ""})) {
            assertThatThrownBy(() -> DriverManager.getConnection(url(wb.state), login[0], login[1]).close())
                    .as(login[0] + " with an empty password").isInstanceOf(SQLException.class)
                    .hasMessageContaining("Wrong user name or password");
        }
        Path file = wb.state.resolve("database.secret");
        assertThat(file).exists();
        assertThat(mode(file)).isEqualTo("rw-------");
    }

    /**
     * Finding 1: as "keyline" a client ran CREATE ALIAS (Java inside Keyline) and read files. The
     * connections Keyline works with have table rights and nothing else.
     */
    @Test
    void theConnectionThatRunsJobsCanNeitherLoadCodeNorTouchFiles() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        assertThat(wb.cli("run", "daily", "--key", "2026-11-02").exit()).isZero();
        Path outside = tmp.resolve("outside.txt");
        Files.writeString(outside, "not the database's business\n");
        List<String> refused = new ArrayList<>();
        try (io.keyline.store.Database db = io.keyline.store.h2.H2Database.open(wb.state); Connection c = db.connection();
             Statement st = c.createStatement()) {
            // what the engine needs still works
            st.executeQuery("SELECT COUNT(*) FROM key_state").close();
            st.executeUpdate("UPDATE key_state SET updated_at = updated_at WHERE job = 'daily'");
            for (String sql : List.of(
                    "CREATE ALIAS GETENV FOR 'java.lang.System.getenv(java.lang.String)'",
                    "CREATE ALIAS EXEC AS 'String exec(String c) throws Exception { return \"\" + Runtime.getRuntime().exec(c); }'",
                    "RUNSCRIPT FROM '" + outside + "'",
                    "SELECT FILE_READ('" + wb.state.resolve("secret.key") + "')",
                    "SELECT * FROM CSVREAD('" + outside + "')",
                    "CALL CSVWRITE('" + tmp.resolve("dump.csv") + "', 'SELECT * FROM key_state')",
                    "SCRIPT TO '" + tmp.resolve("dump.sql") + "'",
                    "BACKUP TO '" + tmp.resolve("dump.zip") + "'",
                    "CALL LINK_SCHEMA('L', '', 'jdbc:h2:mem:x', 'sa', '', 'PUBLIC')",
                    "CREATE TABLE forged (x INT)",
                    "DROP TABLE key_event",
                    "ALTER USER keyline SET PASSWORD 'x'",
                    "CREATE USER mallory PASSWORD 'x' ADMIN")) {
                try {
                    st.execute(sql);
                } catch (SQLException e) {
                    refused.add(sql);
                }
            }
            // a JAVA_OBJECT value is never deserialized in this process
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
                out.writeObject(Boolean.TRUE);
            }
            try (var rs = st.executeQuery("SELECT CAST(X'" + java.util.HexFormat.of().formatHex(bytes.toByteArray())
                    + "' AS JAVA_OBJECT)")) {
                rs.next();
                assertThatThrownBy(() -> rs.getObject(1)).isInstanceOf(SQLException.class);
            }
        }
        assertThat(refused).as("statements refused to the job runner's connection").hasSize(13);
        assertThat(tmp.resolve("dump.csv")).doesNotExist();
        assertThat(tmp.resolve("dump.sql")).doesNotExist();
    }

    /** A state from before passwords (empty password) gets one on its first open, with nothing lost. */
    @Test
    void aStateFromBeforePasswordsIsGivenOneOnOpen() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        Files.createDirectories(wb.state);
        legacyState(wb.state);
        Result status = wb.cli("status", "--json");
        assertThat(status.exit()).as(status.toString()).isZero();
        assertThat(status.out()).contains("\"2026-10-01\"", "\"DONE\"");
        assertThatThrownBy(() -> DriverManager.getConnection(url(wb.state), "keyline", "").close())
                .isInstanceOf(SQLException.class);
        Properties pw = passwords(wb.state);
        try (Connection c = DriverManager.getConnection(url(wb.state), "keyline", pw.getProperty("admin"))) {
            assertThat(c.isValid(1)).isTrue();
        }
        assertThat(wb.cli("run", "daily", "--key", "2026-11-02").exit()).isZero();
    }

    /**
     * The passwords file is written before the database's password changes: a crash between the two
     * leaves a file and a database that still has the empty password. The next open finishes the job.
     */
    @Test
    void aCrashBetweenWritingThePasswordsAndChangingTheDatabaseLosesNothing() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        Files.createDirectories(wb.state);
        legacyState(wb.state);
        String admin = "A".repeat(43);
        Files.writeString(wb.state.resolve("database.secret"), "admin=" + admin + "\napp=" + "B".repeat(43) + "\n");
        Files.setPosixFilePermissions(wb.state.resolve("database.secret"), PosixFilePermissions.fromString("rw-------"));
        Result status = wb.cli("status", "--json");
        assertThat(status.exit()).as(status.toString()).isZero();
        assertThat(status.out()).contains("\"2026-10-01\"");
        try (Connection c = DriverManager.getConnection(url(wb.state), "keyline", admin)) {
            assertThat(c.isValid(1)).isTrue();
        }
        assertThatThrownBy(() -> DriverManager.getConnection(url(wb.state), "keyline", "").close())
                .isInstanceOf(SQLException.class);
    }

    /** The app user's password is put right from the file; a lost passwords file is named, nothing changed. */
    @Test
    void aReplacedAppPasswordIsRepairedAndALostPasswordsFileIsNamed() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        assertThat(wb.cli("run", "daily", "--key", "2026-11-02").exit()).isZero();
        Properties pw = passwords(wb.state);
        try (Connection c = DriverManager.getConnection(url(wb.state), "keyline", pw.getProperty("admin"));
             Statement st = c.createStatement()) {
            st.execute("ALTER USER keyline_app SET PASSWORD 'somethingElse1'");
        }
        Result again = wb.cli("run", "daily", "--key", "2026-11-03");
        assertThat(again.exit()).as(again.toString()).isZero();

        Files.move(wb.state.resolve("database.secret"), tmp.resolve("database.secret.saved"));
        Result lost = wb.cli("status");
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(1);
        assertThat(lost.err()).contains("database.secret", "is missing", "restore");
        assertThat(wb.state.resolve("database.secret")).doesNotExist();
        Files.move(tmp.resolve("database.secret.saved"), wb.state.resolve("database.secret"));
        assertThat(wb.cli("status").exit()).isZero();
    }

    /** Finding 6: a state path with ';' became H2 settings: the database elsewhere, INIT SQL on every connection. */
    @Test
    void aStatePathIsAPathNeverDatabaseSettings() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        Path hostile = tmp.resolve("s;INIT=CREATE TABLE IF NOT EXISTS pwned(x INT);IGNORE_UNKNOWN_SETTINGS=TRUE;X=");
        Result r = cli(wb, "--state", hostile.toString(), "--jobs", wb.jobs.toString(), "status");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("\";\"", "state path");
        assertThat(r.out() + r.err()).doesNotContain("Exception");
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".mv.db"));
        }
    }

    /**
     * Finding 1: while a run held the state, H2's AUTO_SERVER listened on every interface and the
     * world-readable lock file named its address and id. Now: loopback only, lock file 0600.
     */
    @Test
    void whileARunHoldsTheStateItsServerListensOnLoopbackOnly() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("holder", WAITING_JOB, null);
        try (Holder h = Holder.start(wb, tmp.resolve("holder.log"))) {
            Properties lock = h.lockFile();
            String server = lock.getProperty("server");
            assertThat(server).as("AUTO_SERVER address in the lock file").isNotNull();
            int port = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));
            List<String> listening = listeners(port);
            assertThat(listening).as("sockets listening on port " + port).isNotEmpty()
                    .allMatch(a -> a.equals("127.0.0.1") || a.equals("::1"), "loopback");
            assertThat(mode(wb.state.resolve("keyline.lock.db"))).isEqualTo("rw-------");
            assertThat(mode(wb.state)).isEqualTo("rwx------");
            assertThat(modes(wb.state)).allMatch(f -> f.startsWith("rw------- ") || f.startsWith("rwx------ "));
        }
    }

    // ------------------------------------------------------------------ item 2: values from outside are data

    /** A job whose first step reports {@code outputs} (read with cat from a file) and whose second step uses them. */
    static String twoSteps(String name, String second) {
        return """
                {
                  "name": "%s",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "meta", "kind": "command", "effect": "none", "command": ["cat", "%s.out"] },
                    %s
                  ]
                }
                """.formatted(name, name, second);
    }

    static void outputs(Workbench wb, String job, String json) throws IOException {
        Files.writeString(wb.jobs.resolve(job + ".out"), "working\n{\"outputs\": " + json + "}\n");
    }

    static io.keyline.testing.FaultServer okServer() throws IOException {
        return new io.keyline.testing.FaultServer(r -> new io.keyline.testing.FaultServer.Reply.Respond(200,
                java.util.Map.of("Content-Type", "application/json"), "{\"ok\": true}"));
    }

    /** Finding 2: slug = ../../private/secret in bodyFile "articles/{...}.md" sent a file from outside the jobs folder. */
    @Test
    void anOutputCannotMakeTheBodyFileOneOutsideTheJobFolder() throws Exception {
        Workbench wb = new Workbench(tmp);
        Path secret = Files.createDirectories(tmp.resolve("private")).resolve("secret.md");
        Files.writeString(secret, "TOP-SECRET-BODY\n");
        Files.createDirectories(wb.jobs.resolve("articles"));
        Files.createSymbolicLink(wb.jobs.resolve("articles/link.md"), secret);
        String post = """
                { "id": "publish", "kind": "http", "effect": "idempotent",
                  "request": { "method": "POST", "url": "BASE/api/articles", "bodyFile": "articles/{steps.meta.outputs.slug}.md" } }""";
        try (var server = okServer()) {
            wb.job("traversal", twoSteps("traversal", post), server.base());
            outputs(wb, "traversal", "{\"slug\": \"../../private/secret\"}");
            Result r = wb.cli("run", "traversal", "--key", "2026-11-02");
            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            assertThat(r.out()).contains("outside the job folder");

            wb.job("symlinked", twoSteps("symlinked", post), server.base());
            outputs(wb, "symlinked", "{\"slug\": \"link\"}");
            Result s = wb.cli("run", "symlinked", "--key", "2026-11-02");
            assertThat(s.exit()).as(s.toString()).isEqualTo(2);
            assertThat(s.out()).contains("symbolic link");
            Result timeline = wb.cli("timeline", "symlinked", "2026-11-02");
            assertThat(timeline.out()).as("the evidence names where it pointed").contains("detail:", secret.toString());

            assertThat(server.received()).as("nothing was sent").isEmpty();
        }
    }

    /** Finding 2: an output used as workdir ran the command in /etc. workdir is never templated. */
    @Test
    void workdirIsNeverTemplated() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("movable", twoSteps("movable", """
                { "id": "work", "kind": "command", "effect": "none", "workdir": "{steps.meta.outputs.dir}", "command": ["pwd"] }"""),
                null);
        wb.job("daily", DAILY, null);
        Result jobs = wb.cli("jobs");
        assertThat(jobs.out()).contains("daily", "movable.json:7:").contains("workdir is never templated");
        Result run = wb.cli("run", "movable", "--key", "2026-11-02");
        assertThat(run.exit()).isEqualTo(1);
    }

    /** Finding 2: URL values were not encoded: /api/items/../../admin/purge?...&delete=all arrived as such. */
    @Test
    void valuesInAUrlArePercentEncodedForTheirPart() throws Exception {
        Workbench wb = new Workbench(tmp);
        try (var server = okServer()) {
            wb.job("urls", """
                    {
                      "name": "urls",
                      "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                      "retry": { "maxAttempts": 1 },
                      "steps": [
                        { "id": "meta", "kind": "command", "effect": "none", "command": ["cat", "urls.out"] },
                        { "id": "path", "kind": "http", "effect": "none",
                          "request": { "method": "GET", "url": "BASE/api/items/{steps.meta.outputs.id}?q={steps.meta.outputs.q}&day={key}" } },
                        { "id": "dots", "kind": "http", "effect": "none",
                          "request": { "method": "GET", "url": "BASE/api/items/{steps.meta.outputs.dots}/x#{steps.meta.outputs.q}" } }
                      ]
                    }
                    """, server.base());
            outputs(wb, "urls", "{\"id\": \"admin/purge?confirm=yes&delete=all#top\", \"q\": \"a b&delete=all+1\", "
                    + "\"dots\": \"..x\"}");
            Result r = wb.cli("run", "urls", "--key", "2026-11-02");
            assertThat(r.exit()).as(r.toString()).isZero();
            var got = server.received();
            assertThat(got).hasSize(2);
            assertThat(got.get(0).path()).isEqualTo("/api/items/admin%2Fpurge%3Fconfirm%3Dyes%26delete%3Dall%23top");
            assertThat(got.get(0).query()).isEqualTo("q=a%20b%26delete%3Dall%2B1&day=2026-11-02");
            assertThat(got.get(0).queryParam("q")).isEqualTo("a b&delete=all+1");
            assertThat(got.get(0).queryParam("delete")).isNull();
            // a value that would be a "." or ".." segment (or contain one) is not sent at all: HostileValuesTest
            assertThat(got.get(1).path()).isEqualTo("/api/items/..x/x");
        }
    }

    /**
     * Finding 2: an output inside sh -c '...{steps.x.outputs.y}...' ran `id`. Outputs never go into a command's
     * arguments, whatever program reads them: refused at load, naming the variable that carries the value as data.
     */
    @Test
    void anOutputInACommandIsRefusedWhenTheJobLoads() throws Exception {
        Workbench wb = new Workbench(tmp);
        List<String> commands = List.of(
                "[\"sh\", \"-c\", \"echo {steps.meta.outputs.title} > out.txt\"]",
                "[\"/bin/bash\", \"-euo\", \"pipefail\", \"-c\", \"echo {steps.meta.outputs.title}\"]",
                "[\"env\", \"LANG=C\", \"sh\", \"-c\", \"echo {steps.meta.outputs.title}\"]",
                "[\"python3\", \"-c\", \"print('{steps.meta.outputs.title}')\"]",
                "[\"timeout\", \"5\", \"zsh\", \"-c\", \"echo x{steps.meta.outputs.title}\"]",
                "[\"sh\", \"-c\", \"cp \\\"$1\\\" x\", \"sh\", \"{steps.meta.outputs.title}\"]");
        for (int i = 0; i < commands.size(); i++) {
            wb.job("shell" + i, twoSteps("shell" + i, "{ \"id\": \"use\", \"kind\": \"command\", \"effect\": \"none\", "
                    + "\"command\": " + commands.get(i) + " }"), null);
        }
        // the safe form: the script is literal, the value comes from the environment - and {key} in a script is fine
        wb.job("safe", twoSteps("safe", """
                { "id": "use", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "printf '%s' \\"$KEYLINE_OUTPUT_META_TITLE\\" > env-{key}.txt"] }"""),
                null);
        Result jobs = wb.cli("jobs");
        for (int i = 0; i < commands.size(); i++) {
            assertThat(jobs.out()).as(jobs.out()).contains("shell" + i + ".json:");
        }
        assertThat(jobs.out()).contains("outputs never go into a command's arguments", "$KEYLINE_OUTPUT_META_TITLE");
        assertThat(jobs.out()).doesNotContain("safe.json:");

        String value = "$(touch pwned-1); `touch pwned-2`; echo \"; touch pwned-3 '; touch pwned-4";
        outputs(wb, "safe", io.keyline.core.json.Json.write(java.util.Map.of("title", value)));
        Result run = wb.cli("run", "safe", "--key", "2026-11-02");
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(Files.readString(wb.jobs.resolve("env-2026-11-02.txt"))).as("$KEYLINE_OUTPUT_META_TITLE").isEqualTo(value);
        try (Stream<Path> files = Files.list(wb.jobs)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("pwned"));
        }
    }

    /** Resolved program paths stay inside the job folder (after symbolic links); a program name is never an output. */
    @Test
    void aProgramFromOutsideTheJobFolderNeverRuns() throws Exception {
        Workbench wb = new Workbench(tmp);
        Path evil = tmp.resolve("evil.sh");
        Files.writeString(evil, "#!/bin/sh\ntouch \"" + tmp.resolve("ran") + "\"\n");
        Files.setPosixFilePermissions(evil, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(wb.jobs.resolve("link.sh"), evil);
        wb.job("relative", twoSteps("relative", """
                { "id": "use", "kind": "command", "effect": "none", "command": ["{steps.meta.outputs.prog}"] }"""), null);
        outputs(wb, "relative", "{\"prog\": \"../evil.sh\"}");
        wb.job("bare", twoSteps("bare", """
                { "id": "use", "kind": "command", "effect": "none", "command": ["{steps.meta.outputs.prog}", "ran"] }"""), null);
        outputs(wb, "bare", "{\"prog\": \"touch\"}");
        wb.job("linked", DAILY.replace("\"daily\"", "\"linked\"").replace("[\"sh\", \"-c\", \"echo done {key}\"]",
                "[\"./link.sh\"]"), null);
        for (String job : List.of("relative", "bare")) {
            // a program named by an output is an output in the arguments: refused when the job loads
            Result r = wb.cli("run", job, "--key", "2026-11-02");
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.out() + r.err()).contains(job + ".json:7:", "$KEYLINE_OUTPUT_META_PROG");
        }
        Result r = wb.cli("run", "linked", "--key", "2026-11-02");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.out()).containsAnyOf("outside the job folder", "symbolic link");
        assertThat(tmp.resolve("ran")).doesNotExist();
        assertThat(wb.jobs.resolve("ran")).doesNotExist();
    }

    /** Outputs with control characters are not substituted: no header line injection, no ESC in a URL. */
    @Test
    void anOutputWithControlCharactersIsNotSubstituted() throws Exception {
        Workbench wb = new Workbench(tmp);
        try (var server = okServer()) {
            wb.job("header", twoSteps("header", """
                    { "id": "call", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "BASE/api/x", "headers": { "X-Title": "{steps.meta.outputs.t}" } } }"""),
                    server.base());
            outputs(wb, "header", "{\"t\": \"ok\\r\\nX-Injected: 1\"}");
            Result r = wb.cli("run", "header", "--key", "2026-11-02");
            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            assertThat(r.out()).contains("control character U+000D", "header");

            wb.job("url", twoSteps("url", """
                    { "id": "call", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "BASE/api/{steps.meta.outputs.t}" } }"""), server.base());
            outputs(wb, "url", "{\"t\": \"a\\u001b[2Jb\"}");
            Result u = wb.cli("run", "url", "--key", "2026-11-02");
            assertThat(u.exit()).as(u.toString()).isEqualTo(2);
            assertThat(u.out()).contains("control character U+001B");
            assertThat(server.received()).isEmpty();
        }
    }

    /**
     * An output outside ASCII is not put in a header: the client wrote a Latin-1 letter as '?' (the site
     * got another value than the step's output) and refused a CJK one with its own exception's words.
     */
    @Test
    void anOutputOutsideAsciiIsNotSubstitutedIntoAHeader() throws Exception {
        Workbench wb = new Workbench(tmp);
        try (var server = okServer()) {
            wb.job("header", twoSteps("header", """
                    { "id": "call", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "BASE/api/{steps.meta.outputs.t}",
                                   "headers": { "X-Title": "{steps.meta.outputs.t}" } } }"""), server.base());
            for (String title : List.of("caf\\u00e9", "\\u65e5\\u62a5")) {
                outputs(wb, "header", "{\"t\": \"" + title + "\"}");
                Result r = wb.cli("run", "header", "--key", title.startsWith("caf") ? "2026-11-02" : "2026-11-03");
                assertThat(r.exit()).as(r.toString()).isEqualTo(2);
                assertThat(r.out()).as(r.toString()).contains("the value of {steps.meta.outputs.t} contains "
                        + (title.startsWith("caf") ? "\"\u00e9\" (U+00E9)" : "\"\u65e5\" (U+65E5)")
                        + ", a character outside ASCII: not substituted into a header")
                        .doesNotContain("IllegalArgumentException");
            }
            assertThat(server.received()).isEmpty();
        }
    }

    // ------------------------------------------------------------------ item 3: terminal hygiene

    /** OSC title and clipboard (OSC 52), erase line, cursor up, 8-bit CSI, a bidi override, DEL. */
    static final String HOSTILE = "\u001b]0;pwned\u0007\u001b]52;c;cHduZWQ=\u0007\u001b[2K\u001b[1Aok\u009b31m\u202eevil\u2028x\u007f";

    /**
     * Finding 3: escape sequences from response bodies, command output and job descriptions reached
     * the terminal raw through run, status, status --attention, timeline and jobs.
     */
    @Test
    void escapeSequencesFromOutsideNeverReachTheTerminal() throws Exception {
        Workbench wb = new Workbench(tmp);
        try (var server = new io.keyline.testing.FaultServer(r -> new io.keyline.testing.FaultServer.Reply.Respond(500,
                java.util.Map.of("Content-Type", "text/plain"), "failed " + HOSTILE + "\nsecond line " + HOSTILE))) {
            String description = io.keyline.core.json.Json.write("fetches things " + HOSTILE);
            wb.job("fetch", """
                    {
                      "name": "fetch",
                      "description": %s,
                      "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                      "retry": { "maxAttempts": 1 },
                      "steps": [ { "id": "get", "kind": "http", "effect": "none",
                                   "request": { "method": "GET", "url": "BASE/api/x" } } ]
                    }
                    """.formatted(description), server.base());
            Files.writeString(wb.jobs.resolve("noisy.sh"), "printf 'out %s\\n' \"$(cat hostile.txt)\"\n"
                    + "printf 'err %s\\n' \"$(cat hostile.txt)\" >&2\nexit 65\n");
            Files.writeString(wb.jobs.resolve("hostile.txt"), HOSTILE);
            wb.job("noisy", """
                    {
                      "name": "noisy",
                      "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                      "steps": [ { "id": "say", "kind": "command", "effect": "none", "command": ["sh", "noisy.sh"] } ]
                    }
                    """, null);
            List<Result> results = new ArrayList<>();
            results.add(wb.cli("run", "fetch", "--key", "2026-11-02"));
            results.add(wb.cli("run", "noisy", "--key", "2026-11-02"));
            assertThat(results).allMatch(r -> r.exit() == 2, "both keys failed");
            for (String[] cmd : List.of(new String[] {"status"}, new String[] {"status", "--attention"},
                    new String[] {"timeline", "fetch", "2026-11-02"}, new String[] {"timeline", "noisy", "2026-11-02"},
                    new String[] {"jobs"}, new String[] {"plan", "fetch", "--key", "2026-11-03"},
                    new String[] {"credentials", "list"}, new String[] {"status", "--json"},
                    new String[] {"timeline", "noisy", "2026-11-02", "--json"})) {
                results.add(wb.cli(cmd));
            }
            for (Result r : results) {
                String all = r.out() + r.err();
                assertThat(io.keyline.domain.Printable.hasControl(all)).as("raw control characters in\n" + all).isFalse();
            }
            String shown = results.stream().map(r -> r.out() + r.err()).reduce("", String::concat);
            assertThat(shown).contains("\\e]0;pwned\\x07", "\\x9b31m", "\\u202eevil");
            assertThat(results.get(0).out()).as("one trace line per step, whatever the message holds")
                    .doesNotContain("\nsecond line");
            // the JSON keeps the exact text, escaped
            var events = io.keyline.core.json.Json.read(results.get(results.size() - 1).out(),
                    com.fasterxml.jackson.databind.JsonNode.class);
            assertThat(events.toString()).contains("\\u001B]0;pwned");
            assertThat(wb.cli("timeline", "noisy", "2026-11-02", "--json").out()).contains("\\u009b31m", "\\u202eevil");
        }
    }

    /** The console shows evidence and messages through the same escaping as the command line. */
    @Test
    void theConsoleShowsTheSameEscapes() {
        io.keyline.domain.Evidence ev = new io.keyline.domain.Evidence(java.time.Instant.EPOCH, 1,
                new io.keyline.domain.Evidence.RequestSummary("GET", "http://127.0.0.1/x", List.of("Accept"), 0, null),
                500, "body " + HOSTILE + "\nline two", null, "err " + HOSTILE, null, null, "detail " + HOSTILE, null);
        String block = io.keyline.core.operations.EvidenceText.format(ev);
        String line = io.keyline.core.operations.EvidenceText.summary(new io.keyline.domain.Evidence(java.time.Instant.EPOCH, 1,
                null, null, null, null, null, null, null, "detail " + HOSTILE + "\nmore", null));
        assertThat(io.keyline.domain.Printable.hasControl(block)).isFalse();
        assertThat(block).contains("body \\e]0;pwned\\x07", "\\u202eevil", "\n  line two");
        assertThat(io.keyline.domain.Printable.hasAnyControl(line)).isFalse();
        assertThat(line).startsWith("detail \\e]0;pwned");
    }

    // ------------------------------------------------------------------ item 4: redaction by secret, not by word

    static final String SECRET = "Kl-s3cr3t/Val+ue_42.xyzzy";

    /**
     * Finding 4: a browser export carries harmless cookies (consent=true, lang=2026); every "true" and
     * "2026" in the step's outputs became "***", the next step's body path broke and the key FAILED.
     * Outputs are data: never rewritten - not even one that holds the secret itself.
     */
    @Test
    void harmlessCookieValuesNeverRewriteOutputs() throws Exception {
        Workbench wb = new Workbench(tmp);
        Files.createDirectories(wb.jobs.resolve("articles"));
        Files.writeString(wb.jobs.resolve("articles/2026.md"), "the article of the year\n");
        try (var server = okServer()) {
            Result set = wb.cliWithInput("Cookie: consent=true; lang=2026; sid=" + SECRET + "\n", "credentials", "set", "site");
            assertThat(set.exit()).as(set.toString()).isZero();
            wb.job("yearly", """
                    {
                      "name": "yearly",
                      "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                      "retry": { "maxAttempts": 1 },
                      "steps": [
                        { "id": "meta", "kind": "command", "effect": "none", "credential": "site", "command": ["cat", "yearly.out"] },
                        { "id": "publish", "kind": "http", "effect": "idempotent", "credential": "site",
                          "request": { "method": "POST", "url": "BASE/api/{steps.meta.outputs.year}?flag={steps.meta.outputs.flag}",
                                       "headers": { "X-Token": "{steps.meta.outputs.token}" },
                                       "bodyFile": "articles/{steps.meta.outputs.year}.md" } }
                      ]
                    }
                    """, server.base());
            outputs(wb, "yearly", "{\"year\": \"2026\", \"flag\": \"true\", \"token\": \"" + SECRET + "\"}");
            Result run = wb.cli("run", "yearly", "--key", "2026-11-02");
            assertThat(run.exit()).as(run.toString()).isZero();
            var got = server.received();
            assertThat(got).hasSize(1);
            assertThat(got.get(0).path()).isEqualTo("/api/2026");
            assertThat(got.get(0).query()).isEqualTo("flag=true");
            assertThat(got.get(0).bodyText()).isEqualTo("the article of the year\n");
            assertThat(got.get(0).header("X-Token")).as("an output is passed on as the step produced it").isEqualTo(SECRET);
            assertThat(got.get(0).header("Cookie")).contains("consent=true", "lang=2026", SECRET);
            // ... and masked wherever it is shown
            for (Result r : List.of(run, wb.cli("timeline", "yearly", "2026-11-02", "--json"), wb.cli("status", "--json"),
                    wb.cli("plan", "yearly", "--key", "2026-11-02", "--json"), wb.cli("plan", "yearly", "--key", "2026-11-03"))) {
                assertThat(r.out() + r.err()).doesNotContain(SECRET).doesNotContain("Kl-s3cr3t");
            }
            assertThat(Files.readString(wb.state.resolve("logs/runs.jsonl"))).doesNotContain(SECRET);
        }
    }

    /** Finding 4: hex, JSON \\u escapes, a secret split across a space and Base64 of user:secret passed unmasked. */
    @Test
    void everyEncodingOfASecretIsMaskedInMessagesAndEvidence() throws Exception {
        Workbench wb = new Workbench(tmp);
        byte[] b = SECRET.getBytes(StandardCharsets.UTF_8);
        String hex = java.util.HexFormat.of().formatHex(b);
        StringBuilder json = new StringBuilder();
        SECRET.chars().forEach(c -> json.append(String.format("\\u%04x", c)));
        String basic = java.util.Base64.getEncoder().encodeToString(("deploy:" + SECRET).getBytes(StandardCharsets.UTF_8));
        String split = SECRET.substring(0, 9) + " " + SECRET.substring(9);
        List<String> forms = List.of(SECRET, hex, hex.toUpperCase(java.util.Locale.ROOT), json.toString(), basic, split,
                SECRET.substring(0, 9) + "\n" + SECRET.substring(9));
        Files.writeString(wb.jobs.resolve("leak.txt"), "hex " + hex + "\nHEX " + hex.toUpperCase(java.util.Locale.ROOT)
                + "\njson {\"t\": \"" + json + "\"}\nbasic Authorization: Basic " + basic + "\nsplit " + split
                + "\nwrapped " + SECRET.substring(0, 9) + "\n" + SECRET.substring(9) + "\n");
        Files.writeString(wb.jobs.resolve("leak.sh"), "cat leak.txt\ncat leak.txt >&2\necho \"rejected: " + split + "\" >&2\nexit 65\n");
        wb.job("leaky", """
                {
                  "name": "leaky",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "steps": [ { "id": "say", "kind": "command", "effect": "none", "credential": "site", "command": ["sh", "leak.sh"] } ]
                }
                """, null);
        assertThat(wb.cliWithInput("Bearer " + SECRET, "credentials", "set", "site", "--type", "bearer").exit())
                .isZero();
        List<String> shown = new ArrayList<>();
        Result run = wb.cli("run", "leaky", "--key", "2026-11-02");
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        shown.add(run.out() + run.err());
        for (String[] cmd : List.of(new String[] {"status"}, new String[] {"status", "--json"},
                new String[] {"timeline", "leaky", "2026-11-02"}, new String[] {"timeline", "leaky", "2026-11-02", "--json"})) {
            Result r = wb.cli(cmd);
            shown.add(r.out() + r.err());
        }
        shown.add(Files.readString(wb.state.resolve("logs/runs.jsonl")));
        assertThat(String.join("\n", shown)).as("the evidence was recorded").contains("hex ***", "basic Authorization: Basic ");
        for (String text : shown) {
            for (String form : forms) {
                assertThat(text).as("form " + form).doesNotContain(form);
            }
            assertThat(text).doesNotContain(SECRET.substring(0, 9)).doesNotContain(hex.substring(0, 16))
                    .doesNotContain(basic.substring(basic.length() - 16));
        }
    }

    // ------------------------------------------------------------------ item 5: errors without content, size limits

    /**
     * Finding 5: an invalid *.json (a symbolic link to a token file) made `keyline jobs` print the whole
     * ghp_ token and a prefix of secret.key. Errors show the position and the kind of token only.
     */
    @Test
    void aFileThatIsNotAJobFileIsReportedWithoutItsContent() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        String token = "ghp_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c";
        Files.writeString(tmp.resolve("token.txt"), token + "\n");
        Files.createSymbolicLink(wb.jobs.resolve("token.json"), tmp.resolve("token.txt"));
        byte[] key = new byte[32];
        new java.util.Random(11).nextBytes(key);
        String keyText = java.util.Base64.getEncoder().encodeToString(key);
        Files.writeString(tmp.resolve("secret.key"), keyText + "\n");
        Files.createSymbolicLink(wb.jobs.resolve("key.json"), tmp.resolve("secret.key"));
        Files.writeString(wb.jobs.resolve("cookies.json"), "# Netscape HTTP Cookie File\n.example.org\tTRUE\t/\tTRUE\t0\tsid\t"
                + token + "\n");
        Files.writeString(wb.jobs.resolve("quoted.json"), "{\"name\": \"x\", \"key\": \"" + token + "\"}");
        Files.writeString(wb.jobs.resolve("value.json"), "{\"name\": \"" + token + "\", \"key\": {\"type\": \"manual\"}, "
                + "\"steps\": [{\"id\": \"a\", \"kind\": \"command\", \"effect\": \"none\", \"command\": [\"true\"]}]}");
        Result jobs = wb.cli("jobs");
        String all = jobs.out() + jobs.err();
        assertThat(all).contains("daily", "token.json:1:", "key.json:1:", "cookies.json:", "quoted.json:", "value.json:");
        assertThat(all).contains("invalid JSON");
        assertThat(all).as(all).doesNotContain(token.substring(0, 20)).doesNotContain(keyText.substring(0, 6));
        assertThat(all).as("a value is quoted by its first characters").contains("\"" + token.substring(0, 16) + "…\"");
        for (String line : all.split("\n")) {
            assertThat(line.length()).as(line).isLessThan(400);
        }
    }

    /** A job file larger than 1 MiB is refused unread. */
    @Test
    void aJobFileLargerThanOneMibIsRefusedUnread() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        wb.job("huge", DAILY.replace("\"daily\"", "\"huge\"").replace("\"key\":",
                "\"description\": \"" + "x".repeat(2 * 1024 * 1024) + "\", \"key\":"), null);
        Result jobs = wb.cli("jobs");
        assertThat(jobs.out()).contains("daily", "huge.json:1:1: job file is larger than 1 MiB");
    }

    /** Finding 6: `credentials set --from-file /dev/zero` ran out of memory with a stack trace. */
    @Test
    void credentialInputIsLimitedToOneMib() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);
        Result stdin = wb.cliWithInput("Cookie: sid=" + "a".repeat(2 * 1024 * 1024) + "\n", "credentials", "set", "site");
        assertThat(stdin.exit()).as(stdin.toString()).isEqualTo(64);
        assertThat(stdin.err()).contains("standard input is larger than 1 MiB", "unchanged");

        // the real thing, in a JVM with a small heap, from the device that never ends
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", wb.state.toString(), "--jobs", wb.jobs.toString(),
                "credentials", "set", "site", "--from-file", "/dev/zero"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(64);
        assertThat(out).contains("--from-file /dev/zero is larger than 1 MiB").doesNotContain("Exception")
                .doesNotContain("OutOfMemory").doesNotContain("\tat ");
        assertThat(wb.cli("credentials", "list").out()).contains("No credentials");
    }

    // ------------------------------------------------------------------ item 6: the demo's files

    /**
     * Finding 6: the demo wrote the sandbox's live session ids (equal to the stored cookie) in plain
     * text, 0644, into jobs/.keyline-demo-site. Now: their SHA-256, 0600; the site still knows them.
     */
    @Test
    void theSandboxKeepsNoLiveSessionIdInItsFile() throws Exception {
        Path world = tmp.resolve("jobs").resolve(".keyline-demo-site");
        String live;
        try (io.keyline.sandbox.SandboxSite site = io.keyline.sandbox.SandboxSite.start(0, java.time.Clock.systemUTC(), world)) {
            live = site.login().value();
            assertThat(status(site, live)).isEqualTo(200);
        }
        String text = Files.readString(world);
        assertThat(text).doesNotContain(live);
        assertThat(mode(world)).isEqualTo("rw-------");
        try (io.keyline.sandbox.SandboxSite again = io.keyline.sandbox.SandboxSite.start(0, java.time.Clock.systemUTC(), world)) {
            assertThat(status(again, live)).as("the session survives a restart").isEqualTo(200);
            var sessions = io.keyline.core.json.Json.read(text, com.fasterxml.jackson.databind.JsonNode.class).path("sessions");
            assertThat(sessions.size()).isEqualTo(1);
            for (var it = sessions.fieldNames(); it.hasNext(); ) {
                assertThat(status(again, it.next())).as("what the file holds is no session").isEqualTo(401);
            }
        }
        // a file written before: plain ids still work, and are hashed when the file is written next
        String old = "0123456789abcdef0123456789abcdef0123";
        Files.writeString(world, "{\"sessions\": {\"" + old + "\": \"2099-01-01T00:00:00Z\"}, \"articles\": {}}");
        try (io.keyline.sandbox.SandboxSite site = io.keyline.sandbox.SandboxSite.start(0, java.time.Clock.systemUTC(), world)) {
            assertThat(status(site, old)).isEqualTo(200);
            site.login();
        }
        assertThat(Files.readString(world)).doesNotContain(old);
    }

    /** The demo's copied job files and scripts are the operator's alone. */
    @Test
    void theDemosFilesAreTheOperatorsAlone() throws Exception {
        Workbench wb = new Workbench(tmp);
        Result demo = wb.cli("demo", "--port", "0");
        assertThat(demo.exit()).as(demo.toString()).isZero();
        assertThat(mode(wb.jobs.resolve(".keyline-demo-site"))).isEqualTo("rw-------");
        assertThat(mode(wb.jobs.resolve(".keyline-demo"))).isEqualTo("rw-------");
        assertThat(mode(wb.jobs.resolve("daily-article.json"))).isEqualTo("rw-------");
        assertThat(mode(wb.jobs.resolve("scripts/write-article.sh"))).isEqualTo("rwx------");
        assertThat(mode(wb.state)).isEqualTo("rwx------");
        assertThat(modes(wb.state)).allMatch(f -> f.startsWith("rw------- ") || f.startsWith("rwx------ "));
    }

    private static int status(io.keyline.sandbox.SandboxSite site, String session) throws Exception {
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(site.base() + "/api/articles?date=2026-11-01"))
                .header("Cookie", "session=" + session).GET().build();
        return java.net.http.HttpClient.newHttpClient().send(request, java.net.http.HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    // ------------------------------------------------------------------ helpers

    /** The command line in-process with exactly these arguments (no --state/--jobs added). */
    static Result cli(Workbench wb, String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int exit;
        try (java.io.PrintStream o = new java.io.PrintStream(out, true, StandardCharsets.UTF_8);
             java.io.PrintStream e = new java.io.PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = io.keyline.cli.KeylineCli.execute(args, new java.io.ByteArrayInputStream(new byte[0]), o, e, wb.env(),
                    wb.options());
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A child JVM running the holder job: the state stays open (AUTO_SERVER) until {@link #close}. */
    static final class Holder implements AutoCloseable {
        final Workbench wb;
        final Process process;
        final Path log;

        private Holder(Workbench wb, Process process, Path log) {
            this.wb = wb;
            this.process = process;
            this.log = log;
        }

        static Holder start(Workbench wb, Path log) throws Exception {
            Process p = ChildProcess.start(wb.state, wb.jobs, log, "run", "holder", "--key", "k1");
            Holder h = new Holder(wb, p, log);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(wb.jobs.resolve("started")) || h.lockFile().getProperty("server") == null) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    h.close();
                    throw new AssertionError("the holder run did not start: " + Files.readString(log));
                }
                Thread.sleep(50);
            }
            return h;
        }

        Properties lockFile() throws IOException {
            Properties p = new Properties();
            Path f = wb.state.resolve("keyline.lock.db");
            if (Files.exists(f)) {
                try (var in = Files.newInputStream(f)) {
                    p.load(in);
                }
            }
            return p;
        }

        @Override
        public void close() throws Exception {
            Files.writeString(wb.jobs.resolve("release"), "");
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Local addresses listening on {@code port} (from /proc/net/tcp and tcp6). */
    static List<String> listeners(int port) throws IOException {
        List<String> out = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path f = Path.of(table);
            if (!Files.exists(f)) {
                continue;
            }
            // read once: the table changes between two reads on a machine where other tests open sockets
            List<String> lines = Files.readAllLines(f);
            for (String line : lines.subList(1, lines.size())) {
                String[] cols = line.trim().split("\\s+");
                String[] local = cols[1].split(":");
                if (Integer.parseInt(local[1], 16) == port && cols[3].equals("0A")) {
                    out.add(address(local[0]));
                }
            }
        }
        return out;
    }

    private static String address(String hex) throws IOException {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex.substring(i * 2, i * 2 + 2), 16);
        }
        // /proc writes each 32-bit word in host (little-endian) order
        for (int w = 0; w < b.length; w += 4) {
            for (int i = 0; i < 2; i++) {
                byte t = b[w + i];
                b[w + i] = b[w + 3 - i];
                b[w + 3 - i] = t;
            }
        }
        String a = java.net.InetAddress.getByAddress(b).getHostAddress();
        return a.equals("0:0:0:0:0:0:0:1") ? "::1" : a.equals("0:0:0:0:0:0:0:0") ? "::" : a;
    }

    static String url(Path state) {
        return "jdbc:h2:file:" + state.resolve("keyline") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;AUTO_SERVER=TRUE";
    }

    static Properties passwords(Path state) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(state.resolve("database.secret"))) {
            p.load(in);
        }
        return p;
    }

    /** What an older Keyline left: the schema of V1/V2, one DONE key, user keyline with an empty password. */
    static void legacyState(Path state) throws Exception {
        String settings = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;WRITE_DELAY=0";
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + state.resolve("keyline") + settings,
                "keyline", ""); Statement st = c.createStatement()) {
            for (String f : List.of("V1__key_state.sql", "V2__credentials.sql")) {
                String sql = new String(SecurityTest.class.getResourceAsStream("/db/migration/" + f).readAllBytes(),
                        StandardCharsets.UTF_8);
                for (String s : sql.split(";\\s*\n")) {
                    if (s.lines().anyMatch(l -> !l.isBlank() && !l.strip().startsWith("--"))) {
                        st.execute(s);
                    }
                }
            }
            st.execute("INSERT INTO key_state (job, key_value, state, attempts, version, created_at, updated_at) "
                    + "VALUES ('daily', '2026-10-01', 'DONE', 1, 3, 0, 0)");
        }
    }

    static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    /** "rw------- relative/path" for every file and folder under {@code dir}. */
    static List<String> modes(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            List<String> out = new ArrayList<>();
            for (Path p : walk.filter(p -> !p.equals(dir)).toList()) {
                out.add(mode(p) + " " + dir.relativize(p));
            }
            return out;
        }
    }
}
