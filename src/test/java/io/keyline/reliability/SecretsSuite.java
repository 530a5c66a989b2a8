package io.keyline.reliability;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * R4: runs that use a known secret, succeed with it, fail with it echoed back by the server (in
 * the body of a 500 and a 401) and by a command (stdout, stderr, its outputs), then scans the state
 * folder, the run log, the exports (status/timeline/plan JSON, an H2 SCRIPT dump) and every
 * stdout/stderr for the secret in plain, Base64 and URL-encoded form.
 */
@Tag("reliability")
class SecretsSuite {

    static final String SECRET = "Kl-s3cr3t/Val+ue_42.xyzzy";

    @TempDir
    Path tmp;

    @Test
    void noSecretLeaksAnywhere() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        List<String> outputs = new ArrayList<>();
        AtomicInteger mode = new AtomicInteger();
        int used;
        try (FaultServer server = new FaultServer(r -> {
            String cookie = String.valueOf(r.header("Cookie"));
            String echo = "{\"youSent\":\"" + cookie.replace("\"", "'") + "\",\"b64\":\""
                    + Base64.getEncoder().encodeToString(cookie.getBytes(StandardCharsets.UTF_8)) + "\",\"url\":\""
                    + URLEncoder.encode(cookie, StandardCharsets.UTF_8) + "\"}";
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
                      "request": { "method": "PUT", "url": "BASE/api/things/{key}?echo={steps.say.outputs.echo}",
                                   "body": "value {steps.say.outputs.echo}" },
                      "timeout": "PT5S" }
                  ]
                }
                """;
            wb.job("leaky", job, server.base());
            Files.writeString(wb.jobs.resolve("say.sh"), """
                echo "cookie $KEYLINE_COOKIE"
                echo "cred $KEYLINE_CREDENTIAL" >&2
                printf %s "$KEYLINE_CREDENTIAL" | base64 >&2
                printf '{"outputs": {"echo": "%s"}}\\n' "$KEYLINE_CREDENTIAL"
                """);
            Files.writeString(wb.jobs.resolve("fail.sh"), """
                echo "bad $KEYLINE_CREDENTIAL" >&2
                printf '{"outcome": "fatal", "message": "rejected %s"}\\n' "$KEYLINE_COOKIE"
                exit 65
                """);
            Result set = wb.cliWithInput("Cookie: sid=" + SECRET + "; theme=dark\n", "credentials", "set", "site",
                    "--type", "cookie");
            outputs.add(set.out() + set.err());
            assertThat(set.exit()).as(set.toString()).isZero();
            // 1: success with the secret; 2: the server echoes it in a 500; 3: in a 401
            mode.set(0);
            outputs.add(wb.cli("run", "leaky", "--key", "2026-11-01").toString());
            mode.set(1);
            outputs.add(wb.cli("run", "leaky", "--key", "2026-11-02").toString());
            mode.set(2);
            outputs.add(wb.cli("run", "leaky", "--key", "2026-11-03").toString());
            // a command that fails with the secret in its message and stderr
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
            // the same in a child process (real stdout/stderr of the JVM, logback included)
            Path childLog = tmp.resolve("child.log");
            Process p = ChildProcess.start(wb.state, wb.jobs, childLog, "run", "leaky", "--key", "2026-11-05");
            p.waitFor(60, TimeUnit.SECONDS);
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
            for (var n : io.keyline.core.Json.read(wb.cli("status", "--json").out(),
                    com.fasterxml.jackson.databind.JsonNode.class)) {
                states.put(n.get("job").asText() + " " + n.get("key").asText(), n.get("state").asText());
            }
            assertThat(states).as("the runs used the secret, and failed with it").containsEntry("leaky 2026-11-01", "DONE")
                    .containsEntry("leaky 2026-11-02", "FAILED").containsEntry("leaky 2026-11-03", "NEEDS_CREDENTIAL")
                    .containsEntry("leaky2 2026-11-04", "FAILED");
            assertThat(server.received()).as("the server saw the secret")
                    .anyMatch(r -> String.valueOf(r.header("Cookie")).contains(SECRET));
            used = server.received().size();
            Path dump = tmp.resolve("export.sql");
            try (var db = io.keyline.store.Database.open(wb.state); Connection c = db.connection();
                 Statement st = c.createStatement()) {
                st.execute("SCRIPT TO '" + dump + "'");
            }
        }
        List<String> forms = forms(SECRET);
        forms.addAll(forms("sid=" + SECRET));
        // a secret cut short by a length limit is still a leak: look for the first 12 characters too
        forms.addAll(forms.stream().map(f -> f.substring(0, 12)).toList());
        forms = new ArrayList<>(new java.util.LinkedHashSet<>(forms));
        Map<String, String> leaks = new LinkedHashMap<>();
        int scanned = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(tmp)) {
            files = walk.filter(Files::isRegularFile).filter(f -> !f.startsWith(wb.jobs)).toList();
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
        fig.put("leaked", leaks.size());
        Suites.report("secrets", fig, String.join("\n", leaks.keySet()) + "\n\n" + String.join("\n----\n", outputs));
        assertThat(leaks).isEmpty();
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
