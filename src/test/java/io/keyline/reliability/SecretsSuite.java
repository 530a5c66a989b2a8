package io.keyline.reliability;

import io.keyline.store.h2.H2Database;
import io.keyline.acceptance.ChildProcess;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * R4: runs that use a known secret, succeed with it, fail with it echoed back by the server (in
 * the body of a 500 and a 401) and by a command (stdout, stderr, its message), then scans the state
 * folder, the run log, the exports (status/timeline/plan JSON, an H2 SCRIPT dump) and every
 * stdout/stderr for the secret in plain, Base64 (also of {@code user:secret}), URL-encoded, hex,
 * JSON-escaped and split form.
 *
 * <p>The credential breaker is in place: once the 401 rejected the credential, the keys that need it
 * park in NEEDS_CREDENTIAL without a request (the command that fails with the secret runs before
 * that). Hooks are called for every attention state and every run: a webhook whose URL carries
 * tokens answers 403 with them echoed, and a command hook fails printing its event; their errors reach
 * stderr, runs.jsonl and the outbox. A backup of the state is written, and restored to be dumped. A
 * real {@code keyline} run with the master key, {@code PGPASSWORD} and a state URL with a password in
 * its environment has its step and hook dump their environments. The hook tokens, the master key, the
 * database password and the URL's password are looked for like the credential's secret.
 *
 * <p>Outputs are data, never rewritten: the harmless cookie values of the credential
 * ({@code consent=true}, {@code lang=2026}) reach the next step as they were, and in a second state
 * an output that carries the secret itself is passed on intact while every stream and the run log
 * still show it masked. (Step outputs are stored as the step produced them: that second state's
 * database holds the output, so it is not part of the file scan; see README "Security model".)
 */
@Tag("reliability")
class SecretsSuite {

    static final String SECRET = "Kl-s3cr3t/Val+ue_42.xyzzy";
    /** The tokens in the webhook's URL (path segment and query). */
    static final String HOOK_PATH_TOKEN = "HkPathT0ken9Zq4xR2";
    static final String HOOK_QUERY_TOKEN = "HkQueryT0ken7Wm3yP";
    /** What the environment of a real run holds besides the master key. */
    static final String PG_PASSWORD = "Pg-R4-Passw0rd-8812";
    static final String URL_PASSWORD = "Url-R4-Passw0rd-5521";

    @TempDir
    Path tmp;

    @Test
    void noSecretLeaksAnywhere() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        List<String> outputs = new ArrayList<>();
        AtomicInteger mode = new AtomicInteger();
        int used;
        long intact = 0;
        Path dump;
        int hookCalls;
        String masterKey;
        Map<String, String> childEnvironments = new LinkedHashMap<>();
        List<String> backupEntries = new ArrayList<>();
        List<String> backupLeaks = new ArrayList<>();
        Path restoredDump;
        // the hooks: a webhook that echoes its own tokens (and any cookie) in a 403, a command hook that fails with its event
        FaultServer hookServer = new FaultServer(r -> new Reply.Respond(403, Map.of("Content-Type", "text/plain"),
                "invalid token " + r.path() + "?" + r.query() + " cookie=" + r.header("Cookie")));
        Files.writeString(wb.jobs.resolve("notify.json"), """
                { "hooks": [
                  { "on": ["attention", "run"], "webhook": "%s/services/T0R4AB12/B0R4CD34/%s?access_token=%s", "format": "slack" },
                  { "on": ["attention"], "command": ["sh", "-c", "env > hook-env-$KEYLINE_NOTIFY_KEY.txt; cat >&2; exit 3"] }
                ] }
                """.formatted(hookServer.base(), HOOK_PATH_TOKEN, HOOK_QUERY_TOKEN));
        try (hookServer; FaultServer server = new FaultServer(r -> {
            String cookie = String.valueOf(r.header("Cookie"));
            String echo = "{\"youSent\":\"" + cookie.replace("\"", "'") + "\",\"b64\":\""
                    + Base64.getEncoder().encodeToString(cookie.getBytes(StandardCharsets.UTF_8)) + "\",\"url\":\""
                    + URLEncoder.encode(cookie, StandardCharsets.UTF_8) + "\",\"hex\":\""
                    + HexFormat.of().formatHex(cookie.getBytes(StandardCharsets.UTF_8)) + "\",\"json\":\""
                    + jsonEscaped(cookie) + "\"}";
            return switch (mode.get()) {
                case 0 -> new Reply.Respond(201, Map.of("Content-Type", "application/json", "X-Echo", cookie), echo);
                case 1 -> new Reply.Respond(500, Map.of("Content-Type", "application/json"), echo);
                default -> new Reply.Respond(401, Map.of("Content-Type", "application/json"), echo);
            };
        })) {
            String job = """
                {
                  "name": "leaky",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "say", "kind": "command", "effect": "none", "credential": "site",
                      "command": ["sh", "say.sh"] },
                    { "id": "post", "kind": "http", "effect": "idempotent", "credential": "site",
                      "request": { "method": "PUT", "url": "BASE/api/things/{key}?echo={steps.say.outputs.echo}&year={steps.say.outputs.year}",
                                   "body": "value {steps.say.outputs.echo}" },
                      "timeout": "PT5S" }
                  ]
                }
                """;
            wb.job("leaky", job, server.base());
            Files.writeString(wb.jobs.resolve("say.sh"), ENCODINGS_SH + """
                echo "cookie $KEYLINE_COOKIE"
                echo "cred $KEYLINE_CREDENTIAL" >&2
                printf %s "$KEYLINE_CREDENTIAL" | base64 >&2
                encodings
                encodings >&2
                printf '{"outputs": {"echo": "true", "year": "2026"}, "message": "said %s %s"}\\n' "$S" "$(printf %s "$S" | hex)"
                """);
            Files.writeString(wb.jobs.resolve("fail.sh"), """
                echo "bad $KEYLINE_CREDENTIAL" >&2
                printf '{"outcome": "fatal", "message": "rejected %s"}\\n' "$KEYLINE_COOKIE"
                exit 65
                """);
            Result set = wb.cliWithInput("Cookie: sid=" + SECRET + "; theme=dark; consent=true; lang=2026\n",
                    "credentials", "set", "site", "--type", "cookie");
            outputs.add(set.out() + set.err());
            assertThat(set.exit()).as(set.toString()).isZero();
            // 1: success with the secret; 2: the server echoes it in a 500; then a command that fails with the
            // secret in its message and stderr; 3: the server echoes it in a 401 (the credential is rejected)
            mode.set(0);
            outputs.add(wb.cli("run", "leaky", "--key", "2026-11-01").toString());
            mode.set(1);
            outputs.add(wb.cli("run", "leaky", "--key", "2026-11-02").toString());
            wb.job("leaky2", """
                {
                  "name": "leaky2",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "steps": [
                    { "id": "fail", "kind": "command", "effect": "none", "credential": "site",
                      "command": ["sh", "fail.sh"] }
                  ]
                }
                """, null);
            outputs.add(wb.cli("run", "leaky2", "--key", "2026-11-04").toString());
            mode.set(2);
            outputs.add(wb.cli("run", "leaky", "--key", "2026-11-03").toString());
            int beforeBreaker = server.received().size();
            // the same in a child process (real stdout/stderr of the JVM, logback included): the breaker parks
            // it without a request
            Path childLog = tmp.resolve("child.log");
            Process p = ChildProcess.start(wb.state, wb.jobs, childLog, "run", "leaky", "--key", "2026-11-05");
            p.waitFor(60, TimeUnit.SECONDS);
            assertThat(server.received()).as("the rejected credential is not sent again").hasSize(beforeBreaker);
            Process p2 = ChildProcess.start(wb.state, wb.jobs, childLog, "credentials", "test", "site");
            p2.waitFor(60, TimeUnit.SECONDS);
            outputs.add(Files.readString(childLog));
            // exports and every read-side command
            for (String[] cmd : List.of(new String[] {"status", "--json"}, new String[] {"status"},
                    new String[] {"timeline", "leaky", "2026-11-01", "--json"},
                    new String[] {"timeline", "leaky", "2026-11-02", "--json"},
                    new String[] {"timeline", "leaky", "2026-11-03", "--json"},
                    new String[] {"timeline", "leaky", "2026-11-03"},
                    new String[] {"timeline", "leaky2", "2026-11-04", "--json"},
                    new String[] {"plan", "leaky", "--key", "2026-11-06", "--json"},
                    new String[] {"plan", "leaky", "--key", "2026-11-06"},
                    new String[] {"credentials", "list"}, new String[] {"credentials", "test", "site"},
                    new String[] {"jobs"})) {
                outputs.add(wb.cli(cmd).toString());
            }
            Map<String, String> states = new LinkedHashMap<>();
            for (var n : io.keyline.core.json.Json.read(wb.cli("status", "--json").out(),
                    com.fasterxml.jackson.databind.JsonNode.class)) {
                states.put(n.get("job").asText() + " " + n.get("key").asText(), n.get("state").asText());
            }
            assertThat(states).as("the runs used the secret, and failed with it").containsEntry("leaky 2026-11-01", "DONE")
                    .containsEntry("leaky 2026-11-02", "FAILED").containsEntry("leaky 2026-11-03", "NEEDS_CREDENTIAL")
                    .containsEntry("leaky2 2026-11-04", "FAILED").containsEntry("leaky 2026-11-05", "NEEDS_CREDENTIAL");
            assertThat(server.received()).as("the server saw the secret")
                    .anyMatch(r -> String.valueOf(r.header("Cookie")).contains(SECRET));
            // outputs are data: the harmless values arrive as the step reported them, not as ***
            assertThat(server.received()).as("outputs not rewritten").filteredOn(r -> r.method().equals("PUT"))
                    .isNotEmpty().allMatch(r -> "true".equals(r.queryParam("echo")) && "2026".equals(r.queryParam("year")));
            intact += server.received().stream().filter(r -> r.method().equals("PUT")).count();
            used = server.received().size();
            dump = tmp.resolve("export.sql");
            try (var db = io.keyline.store.h2.H2Database.open(wb.state); Connection c = db.adminConnection();
                 Statement st = c.createStatement()) {
                st.execute("SCRIPT TO '" + dump + "'");
            }
            hookCalls = hookServer.received().size();
            assertThat(hookCalls).as("the webhook was called").isPositive();
            // children's environment: a real run with Keyline's own secrets in its environment
            masterKey = Files.readString(wb.state.resolve("secret.key")).strip();
            wb.job("envdump", """
                {
                  "name": "envdump",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [ { "id": "dump", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "env > step-env.txt; exit 65"] } ]
                }
                """, null);
            Path envLog = tmp.resolve("child-env.log");
            Process e = ChildProcess.start(wb.state.toString(), wb.jobs, envLog, Map.of("KEYLINE_MASTER_KEY", masterKey,
                    "PGPASSWORD", PG_PASSWORD, "KEYLINE_STATE", "postgresql://keyline:" + URL_PASSWORD + "@127.0.0.1:1/k"),
                    "run", "envdump", "--key", "2026-11-06");
            assertThat(e.waitFor(120, TimeUnit.SECONDS)).isTrue();
            outputs.add(Files.readString(envLog));
            for (String f : List.of("step-env.txt", "hook-env-2026-11-06.txt")) {
                String env = Files.readString(wb.jobs.resolve(f));
                assertThat(env).as(f).contains("PATH=");
                childEnvironments.put(f, env);
            }
            // a backup: its output, its mode, what it holds (restored and dumped like the state)
            Path backups = Files.createDirectories(tmp.resolve("backups"));
            Path backup = backups.resolve("keyline.zip");
            outputs.add(wb.cli("backup", backup.toString()).toString());
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(backup)))
                    .isEqualTo("rw-------");
            Path restored = tmp.resolve("restored");
            Files.createDirectories(restored, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            try (var zip = new java.util.zip.ZipFile(backup.toFile())) {
                for (var entry : java.util.Collections.list(zip.entries())) {
                    backupEntries.add(entry.getName());
                    byte[] content = zip.getInputStream(entry).readAllBytes();
                    if (new String(content, StandardCharsets.ISO_8859_1).contains(masterKey)) {
                        backupLeaks.add(entry.getName() + " holds the master key");
                    }
                    Files.write(restored.resolve(entry.getName()), content);
                    // as docs/operations.md restores it: chmod 600
                    Files.setPosixFilePermissions(restored.resolve(entry.getName()),
                            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
                }
            }
            restoredDump = tmp.resolve("restored.sql");
            try (var db = io.keyline.store.h2.H2Database.open(restored); Connection c = db.adminConnection();
                 Statement st = c.createStatement()) {
                st.execute("SCRIPT TO '" + restoredDump + "'");
            }
        }
        // the second state: an output that carries the secret itself is passed on intact, and shown masked
        Workbench carry = new Workbench(tmp.resolve("carry"));
        carry.clock.followSystemClock();
        try (FaultServer server = new FaultServer(r -> new Reply.Respond(200, Map.of("Content-Type", "application/json"),
                "{\"ok\": true}"))) {
            Result set = carry.cliWithInput("Cookie: sid=" + SECRET + "; consent=true\n", "credentials", "set", "site");
            assertThat(set.exit()).as(set.toString()).isZero();
            carry.job("carry", """
                {
                  "name": "carry",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "steps": [
                    { "id": "token", "kind": "command", "effect": "none", "credential": "site", "command": ["sh", "token.sh"] },
                    { "id": "use", "kind": "http", "effect": "idempotent",
                      "request": { "method": "POST", "url": "BASE/api/use?t={steps.token.outputs.token}",
                                   "headers": { "X-Token": "{steps.token.outputs.token}" }, "body": "t={steps.token.outputs.token}" } }
                  ]
                }
                """, server.base());
            Files.writeString(carry.jobs.resolve("token.sh"), ENCODINGS_SH + """
                printf '{"outputs": {"token": "%s"}, "message": "token %s"}\\n' "$S" "$S"
                """);
            outputs.add(carry.cli("run", "carry", "--key", "2026-11-01").toString());
            for (String[] cmd : List.of(new String[] {"status", "--json"}, new String[] {"timeline", "carry", "2026-11-01"},
                    new String[] {"timeline", "carry", "2026-11-01", "--json"},
                    new String[] {"plan", "carry", "--key", "2026-11-01", "--json"},
                    new String[] {"plan", "carry", "--key", "2026-11-02"})) {
                outputs.add(carry.cli(cmd).toString());
            }
            outputs.add(Files.readString(carry.state.resolve("logs/runs.jsonl")));
            assertThat(server.received()).hasSize(1);
            FaultServer.Request got = server.received().get(0);
            assertThat(got.header("X-Token")).as("an output holding the secret is passed on intact").isEqualTo(SECRET);
            assertThat(got.queryParam("t")).isEqualTo(SECRET);
            assertThat(got.bodyText()).isEqualTo("t=" + SECRET);
            intact++;
        }
        List<String> forms = forms(SECRET);
        forms.addAll(forms("sid=" + SECRET));
        // a secret cut short by a length limit is still a leak: look for the first 12 characters too
        forms.addAll(forms.stream().map(f -> f.substring(0, 12)).toList());
        forms.addAll(moreForms(SECRET));
        // the hook's tokens, Keyline's master key, the database password, the state URL's password
        for (String other : List.of(HOOK_PATH_TOKEN, HOOK_QUERY_TOKEN, masterKey, PG_PASSWORD, URL_PASSWORD)) {
            forms.addAll(forms(other));
        }
        forms = new ArrayList<>(new java.util.LinkedHashSet<>(forms));
        Map<String, String> leaks = new LinkedHashMap<>();
        int scanned = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(tmp)) {
            // Step outputs are data, stored as the step produced them (a server that echoes the cookie in its
            // JSON answer makes it an output, and the carry state was given one): the databases are scanned
            // through the logical dump below, every table and column except step_state's outputs.
            // secret.key is where the master key lives; the backup is compressed (it is unzipped and dumped below)
            files = walk.filter(Files::isRegularFile).filter(f -> !f.startsWith(wb.jobs) && !f.startsWith(carry.jobs)
                    && !f.getFileName().toString().equals("keyline.mv.db") && !f.getFileName().toString().equals("secret.key")
                    && !f.equals(dump) && !f.equals(restoredDump) && !f.getFileName().toString().endsWith(".zip"))
                    .toList();
        }
        for (Path f : files) {
            scanned++;
            String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            for (String form : forms) {
                if (text.contains(form)) {
                    leaks.put(tmp.relativize(f) + " (" + form + ")", "file");
                }
            }
        }
        int storedInOutputs = 0;
        for (Path sql : List.of(dump, restoredDump)) {
            scanned++;
            String insertInto = null;
            for (String line : Files.readAllLines(sql, StandardCharsets.UTF_8)) {
                // SCRIPT writes "INSERT INTO table VALUES" and then one row per line
                insertInto = line.startsWith("INSERT INTO") ? line : line.startsWith("(") ? insertInto : null;
                boolean outputsRow = insertInto != null && insertInto.contains("\"step_state\"");
                for (String form : forms) {
                    if (line.contains(form)) {
                        if (outputsRow) {
                            storedInOutputs++;
                        } else {
                            leaks.put(sql.getFileName() + " (" + form + "): " + BadInputSuite.oneLine(line), "file");
                        }
                    }
                }
            }
        }
        for (var env : childEnvironments.entrySet()) {
            scanned++;
            for (String form : forms) {
                if (env.getValue().contains(form)) {
                    leaks.put("environment of a child: " + env.getKey() + " (" + form + ")", env.getValue());
                }
            }
        }
        if (!backupEntries.equals(List.of("keyline.mv.db", "database.secret"))) {
            leaks.put("the backup holds " + backupEntries, "backup");
        }
        backupLeaks.forEach(l -> leaks.put("backup: " + l, "backup"));
        for (int i = 0; i < outputs.size(); i++) {
            scanned++;
            for (String form : forms) {
                if (outputs.get(i).contains(form)) {
                    leaks.put("output #" + i + " (" + form + ")", outputs.get(i));
                }
            }
        }
        Map<String, Object> fig = new LinkedHashMap<>();
        fig.put("requests_with_secret", used);
        fig.put("files_and_streams", scanned);
        fig.put("forms", forms.size());
        fig.put("encodings", ENCODINGS.size());
        fig.put("outputs_intact", intact);
        fig.put("forms_in_stored_outputs", storedInOutputs);
        fig.put("hook_calls", hookCalls);
        fig.put("child_environments", childEnvironments.size());
        fig.put("backup_entries", backupEntries.size());
        fig.put("leaked", leaks.size());
        Suites.report("secrets", fig, String.join("\n", leaks.keySet()) + "\n\n" + String.join("\n----\n", outputs));
        assertThat(leaks).isEmpty();
    }

    /** What say.sh prints of the secret, besides the plain credential: one line per encoding. */
    static final List<String> ENCODINGS = List.of("hex", "HEX", "json-escaped", "base64 of deploy:secret",
            "split by a space", "split by a line break");

    /** Shell functions for the scripts: S is the secret alone, encodings prints it in each of ENCODINGS. */
    static final String ENCODINGS_SH = """
            S=$(printf %s "$KEYLINE_COOKIE" | sed 's/.*sid=\\([^;]*\\).*/\\1/')
            hex() { od -An -tx1 -v | tr -d ' \\n'; }
            encodings() {
              echo "hex $(printf %s "$S" | hex)"
              echo "HEX $(printf %s "$S" | hex | tr a-f A-F)"
              echo "json {\\"t\\": \\"$(printf %s "$S" | od -An -tx1 -v | tr -s ' \\n' ' ' | sed 's/ \\([0-9a-f][0-9a-f]\\)/\\\\u00\\1/g; s/ //g')\\"}"
              echo "basic Authorization: Basic $(printf 'deploy:%s' "$S" | base64 | tr -d '\\n')"
              echo "split $(printf %s "$S" | cut -c1-9) $(printf %s "$S" | cut -c10-)"
              printf 'wrapped %s\\n%s\\n' "$(printf %s "$S" | cut -c1-9)" "$(printf %s "$S" | cut -c10-)"
            }
            """;

    /** The forms of ENCODINGS that must not appear (the Base64 of deploy:secret by its secret-only end). */
    static List<String> moreForms(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        String hex = HexFormat.of().formatHex(b);
        String basic = Base64.getEncoder().encodeToString(("deploy:" + s).getBytes(StandardCharsets.UTF_8));
        List<String> out = new ArrayList<>();
        out.add(hex);
        out.add(hex.toUpperCase(java.util.Locale.ROOT));
        out.add(jsonEscaped(s));
        out.add(basic);
        out.add(basic.substring(basic.length() - 16));
        out.add(s.substring(0, 9) + " " + s.substring(9));
        out.add(s.substring(0, 9) + "\n" + s.substring(9));
        out.add(s.substring(0, 9));
        out.add(s.substring(9));
        return out;
    }

    static String jsonEscaped(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().forEach(c -> b.append(String.format("\\u%04x", c)));
        return b.toString();
    }

    /** The secret as it would appear: plain, Base64 (standard, URL-safe, unpadded), URL-encoded. */
    static List<String> forms(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        out.add(s);
        out.add(Base64.getEncoder().encodeToString(b));
        out.add(Base64.getEncoder().withoutPadding().encodeToString(b));
        out.add(Base64.getUrlEncoder().withoutPadding().encodeToString(b));
        out.add(URLEncoder.encode(s, StandardCharsets.UTF_8));
        out.add(URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20"));
        return out;
    }
}
