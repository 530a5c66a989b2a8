package io.keyline.acceptance;

import io.keyline.store.h2.H2Database;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.FaultServer.Request;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Secret hygiene: after runs that used a known secret and failed with 500 and 401 responses that echo the
 * cookie back, and a command step that prints the credential and fails, the secret appears nowhere: not in
 * any file under the state folder (H2 writes strings as plain UTF-8), not in the stored credential values
 * once their Base64 is decoded (where only ciphertext belongs), not in the run log, not in the stdout or stderr
 * of any command, not in {@code timeline --json} — in plain, Base64 (standard and URL-safe, with and without
 * padding) or URL-encoded form.
 */
class CredentialHygieneTest {

    /** Differs across encodings: '+', '/' and '=' change under Base64 alphabets and URL encoding. */
    static final String SECRET = "Zq9+sEcr3t/Val=ue42";
    static final String COOKIE_HEADER = "session=" + SECRET;
    static final String KEY = "2026-11-29";

    @TempDir
    Path tmp;
    Workbench wb;
    FaultServer server;
    final List<Result> outputs = new ArrayList<>();
    final AtomicInteger hPosts = new AtomicInteger();
    final AtomicInteger uPosts = new AtomicInteger();

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        server = new FaultServer(this::handle);
    }

    @AfterEach
    void tearDown() throws IOException {
        server.close();
    }

    // --- the site: every answer echoes the cookie it received, in several encodings ---------------

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static String url(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** A body whose first line (the one that reaches messages) and rest echo the received cookie. */
    static String echo(String what, Request r) {
        String cookie = r.header("Cookie") == null ? "" : r.header("Cookie");
        String value = cookie.startsWith("session=") ? cookie.substring("session=".length()) : cookie;
        return what + " for Cookie: " + cookie + " (b64 " + b64(value) + ", url " + url(value) + ")\n"
                + "header b64: " + b64(cookie) + "\n"
                + "header url: " + url(cookie) + "\n"
                + "value: " + value + "\n"
                + "value b64url: " + Base64.getUrlEncoder().withoutPadding().encodeToString(
                value.getBytes(StandardCharsets.UTF_8)) + "\n";
    }

    private Reply handle(Request r) {
        if (r.path().equals("/h") && r.method().equals("POST")) {
            // idempotent step: first a 500 (retried), then a 401 (parks the key)
            return hPosts.incrementAndGet() == 1
                    ? new Reply.Respond(500, Map.of("Content-Type", "text/plain"), echo("server error", r))
                    : new Reply.Respond(401, Map.of("Content-Type", "text/plain"), echo("login rejected", r));
        }
        if (r.path().equals("/u") && r.method().equals("GET")) {
            // the probe of the unsafe step: absent, and chatty about the cookie
            return new Reply.Respond(200, Map.of("Content-Type", "application/json"),
                    "{\"total\":0,\"seen\":\"" + r.header("Cookie") + "\",\"b64\":\"" + b64(SECRET) + "\"}");
        }
        if (r.path().equals("/u") && r.method().equals("POST")) {
            // unsafe step: a 500 (ambiguous → probe → needs confirmation), then, once confirmed, a 401
            return uPosts.incrementAndGet() == 1
                    ? new Reply.Respond(500, Map.of("Content-Type", "text/plain"), echo("server error", r))
                    : new Reply.Respond(401, Map.of("Content-Type", "text/plain"), echo("login rejected", r));
        }
        if (r.path().equals("/ok") && r.method().equals("POST")) {
            return new Reply.Respond(201, Map.of("Content-Type", "application/json"),
                    "{\"id\":7,\"echo\":\"" + r.header("Cookie") + "\"}");
        }
        return new Reply.Respond(404, Map.of("Content-Type", "text/plain"), echo("no such page", r));
    }

    // --- jobs ---------------------------------------------------------------------------------------

    static String httpJob(String name, String effect, String path, boolean probe) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
            %s
              "steps": [
                { "id": "send", "kind": "http", "effect": "%s", %s
                  "request": { "method": "POST", "url": "BASE%s", "body": "hello {key}" },
                  %s
                  "timeout": "PT2S" }
              ]
            }
            """.formatted(name, Jobs.FAST_RETRY, effect, USES_CRED, path,
                probe ? "\"probe\": { \"kind\": \"http\", \"url\": \"BASE" + path + "?date={key}\", "
                        + "\"presentWhen\": { \"jsonPointer\": \"/total\", \"notEquals\": 0 } }," : "");
    }

    static String commandJob(String name, String script) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "steps": [
                { "id": "work", "kind": "command", "effect": "none", %s
                  "command": ["sh", "-c", %s], "timeout": "PT10S" }
              ]
            }
            """.formatted(name, USES_CRED, Jobs.quote(script));
    }

    Result cli(String... args) {
        Result r = wb.cli(args);
        outputs.add(r);
        return r;
    }

    Result cliWithInput(String input, String... args) {
        Result r = wb.cliWithInput(input, args);
        outputs.add(r);
        return r;
    }

    // --- the scan -----------------------------------------------------------------------------------

    /** Every form of every secret string the scan looks for. */
    static Set<String> forms(String... secrets) {
        Set<String> out = new LinkedHashSet<>();
        for (String s : secrets) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            out.add(s);
            out.add(Base64.getEncoder().encodeToString(bytes));
            out.add(Base64.getEncoder().withoutPadding().encodeToString(bytes));
            out.add(Base64.getUrlEncoder().encodeToString(bytes));
            out.add(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
            String encoded = URLEncoder.encode(s, StandardCharsets.UTF_8);
            out.add(encoded);
            out.add(encoded.replace("%2B", "%2b").replace("%2F", "%2f").replace("%3D", "%3d"));
            out.add(encoded.replace("+", "%20"));
        }
        return out;
    }

    static final Set<String> FORMS = forms(SECRET, COOKIE_HEADER);

    /** Where each form occurs in {@code text}, as "form in where". */
    static List<String> findings(String where, String text) {
        List<String> found = new ArrayList<>();
        for (String form : FORMS) {
            if (text.contains(form)) {
                found.add("'" + form + "' in " + where);
            }
        }
        return found;
    }

    /** Findings in every file under {@code dir}, read as bytes (ISO-8859-1 keeps the ASCII forms intact). */
    static List<String> scanFiles(Path dir) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                found.addAll(findings(dir.relativize(f).toString(), bytes));
            }
        }
        return found;
    }

    List<String> scanEverything(String... jobsAndKeys) throws Exception {
        // timeline --json of each key (their outputs are then also part of the scan)
        for (int i = 0; i < jobsAndKeys.length; i += 2) {
            Result tl = cli("timeline", jobsAndKeys[i], jobsAndKeys[i + 1], "--json");
            assertThat(tl.exit()).as(tl.toString()).isZero();
            Result human = cli("timeline", jobsAndKeys[i], jobsAndKeys[i + 1]);
            assertThat(human.exit()).isZero();
        }
        List<String> found = new ArrayList<>();
        assertThat(wb.state.resolve("logs/runs.jsonl")).exists();
        assertThat(wb.state.resolve("keyline.mv.db")).exists();
        found.addAll(scanFiles(wb.state));
        found.addAll(scanFiles(wb.jobs));
        for (Map.Entry<String, String> stored : storedCredentials().entrySet()) {
            found.addAll(findings("the stored value of " + stored.getKey() + ", decoded", stored.getValue()));
        }
        for (int i = 0; i < outputs.size(); i++) {
            found.addAll(findings("stdout of command " + i, outputs.get(i).out()));
            found.addAll(findings("stderr of command " + i, outputs.get(i).err()));
        }
        return found;
    }

    // --- the tests ----------------------------------------------------------------------------------

    @Test
    void theScanCanFail() throws IOException {
        // the scan finds every form it claims to look for
        for (String form : FORMS) {
            assertThat(findings("control", "before " + form + " after")).isNotEmpty();
        }
        assertThat(findings("control", "x" + b64(SECRET) + "y")).isNotEmpty();
        assertThat(findings("control", "{\"c\":\"" + url(SECRET) + "\"}")).isNotEmpty();
        assertThat(findings("control", Base64.getUrlEncoder().withoutPadding()
                .encodeToString(COOKIE_HEADER.getBytes(StandardCharsets.UTF_8)))).isNotEmpty();
        assertThat(findings("control", "nothing secret here: session=***")).isEmpty();
        // and finds a secret in a file, however deep
        Path dir = tmp.resolve("control/a/b");
        Files.createDirectories(dir);
        Files.write(dir.resolve("blob.bin"), ("\u0000\u0001" + url(SECRET) + "\u0002").getBytes(StandardCharsets.UTF_8));
        assertThat(scanFiles(tmp.resolve("control"))).hasSize(1);
    }

    /** Closes the breaker a 401 opened while keeping the same secret: another value, then the secret again. */
    private void renewToTheSameSecret() {
        assertThat(cliWithInput("Cookie: session=renewed\n", "credentials", "set", CRED).exit()).isZero();
        Result renew = cliWithInput("Cookie: " + COOKIE_HEADER + "\n", "credentials", "set", CRED);
        assertThat(renew.exit()).as(renew.toString()).isZero();
    }

    @Test
    void failedRunsWith500And401AndAPrintingCommandLeaveNoTraceOfTheSecret() throws Exception {
        wb.job("h", httpJob("h", "idempotent", "/h", false), server.base());
        wb.job("u", httpJob("u", "unsafe", "/u", true), server.base());
        wb.job("c", commandJob("c", "printf 'stdout: %s\\n' \"$KEYLINE_CREDENTIAL\"; "
                + "printf 'stderr: %s\\n' \"$KEYLINE_CREDENTIAL\" >&2; "
                + "printf 'cookie: %s\\n' \"$KEYLINE_COOKIE\"; "
                + "printf '%s' \"$KEYLINE_CREDENTIAL\" | base64; "
                + "printf '%s' \"${{KEYLINE_COOKIE#session=}}\" | base64 >&2; "
                + "echo \"failing with $KEYLINE_CREDENTIAL\" >&2; exit 3"), null);

        Result set = cliWithInput("Cookie: " + COOKIE_HEADER + "\n", "credentials", "set", CRED);
        assertThat(set.exit()).as(set.toString()).isZero();

        // h: 500 (retried in place) then 401 → parked
        Result h = cli("run", "h", "--key", KEY);
        assertThat(h.exit()).as(h.toString()).isEqualTo(4);
        assertThat(hPosts.get()).isEqualTo(2);
        assertThat(CredentialTesting.status(wb, "h", KEY).get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");

        // the 401 opened the breaker (the same value is refused until renewed); the next jobs must send the
        // same secret, so it is renewed to another value and back, which closes the breaker as a new login does
        assertThat(cli("run", "u", "--key", KEY).exit()).as("the rejected value is not sent").isEqualTo(4);
        assertThat(uPosts.get()).isZero();
        renewToTheSameSecret();

        // u: probe absent → 500 (ambiguous) → probe absent → confirmation; confirmed → 401 → parked
        Result u = cli("run", "u", "--key", KEY);
        assertThat(u.exit()).as(u.toString()).isEqualTo(4);
        assertThat(CredentialTesting.status(wb, "u", KEY).get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        Result confirm = cli("confirm", "u", KEY, "--note", "not on the site, send it again");
        assertThat(uPosts.get()).as(confirm.toString()).isEqualTo(2);
        assertThat(CredentialTesting.status(wb, "u", KEY).get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");

        // c: prints the credential everywhere, exits 3 → FAILED (UNKNOWN)
        renewToTheSameSecret();
        Result c = cli("run", "c", "--key", KEY);
        assertThat(c.exit()).as(c.toString()).isEqualTo(2);
        assertThat(CredentialTesting.status(wb, "c", KEY).get("class").asText()).isEqualTo("UNKNOWN");

        // every place a person or a tool could look
        cli("status");
        cli("status", "--json");
        cli("status", "--attention");
        cli("jobs");
        cli("credentials", "list");
        cli("plan", "h", "--key", KEY);
        cli("plan", "u", "--key", KEY, "--json");

        // proof that the echoes really happened and were stored (redacted), so the scan is meaningful
        String hTimeline = wb.cli("timeline", "h", KEY, "--json").out();
        assertThat(hTimeline).contains("server error for Cookie: ").contains("login rejected for Cookie: ")
                .contains("***");
        String cTimeline = wb.cli("timeline", "c", KEY, "--json").out();
        assertThat(cTimeline).contains("stdout: ").contains("stderr: ").contains("failing with ");
        String db = new String(Files.readAllBytes(wb.state.resolve("keyline.mv.db")), StandardCharsets.ISO_8859_1);
        assertThat(db).as("H2 stores strings readably, so a leak there would be found")
                .contains("login rejected for Cookie: ");

        List<String> found = scanEverything("h", KEY, "u", KEY, "c", KEY);
        assertThat(found).as("the secret leaked").isEmpty();
    }

    /**
     * Outputs are data for later steps and are never rewritten by the redactor (it once
     * turned every harmless cookie value in them into ***). An answer that echoes the cookie makes it
     * an output, stored as the server sent it - in the database (the operator's alone) and nowhere
     * else: the run log, every command's output and the timeline show it masked.
     */
    @Test
    void aSuccessfulResponseThatEchoesTheCookieIsStoredAsDataAndShownMasked() throws Exception {
        wb.job("ok", httpJob("ok", "idempotent", "/ok", false), server.base());
        Result set = cliWithInput(COOKIE_HEADER, "credentials", "set", CRED);
        assertThat(set.exit()).as(set.toString()).isZero();
        Result run = cli("run", "ok", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isZero();
        Map<String, List<String>> byPlace = new LinkedHashMap<>();
        for (String f : scanEverything("ok", KEY)) {
            byPlace.computeIfAbsent(f.substring(f.indexOf(" in ") + 4), k -> new ArrayList<>()).add(f);
        }
        assertThat(byPlace.keySet()).as("found only where step outputs are stored").containsOnly("keyline.mv.db");
        assertThat(storedOutputs("ok")).as("the output is intact").contains(SECRET);
    }

    @Test
    void commandOutputsThatEchoTheCredentialAreStoredAsDataAndShownMasked() throws Exception {
        wb.job("co", commandJob("co",
                "printf '{{\"outputs\":{{\"seen\":\"%s\"}}}}\\n' \"$KEYLINE_CREDENTIAL\""), null);
        Result set = cliWithInput(COOKIE_HEADER, "credentials", "set", CRED);
        assertThat(set.exit()).as(set.toString()).isZero();
        Result run = cli("run", "co", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(scanEverything("co", KEY)).as("found only where step outputs are stored")
                .allMatch(f -> f.endsWith(" in keyline.mv.db")).isNotEmpty();
        assertThat(storedOutputs("co")).as("the output is intact").contains("\"seen\":\"" + COOKIE_HEADER + "\"");
    }

    /**
     * Each stored credential's value with its Base64 decoded (ISO-8859-1 keeps the bytes): in the database file
     * the value is Base64 text, in which the secret's own Base64 shows only when the bytes before it happen to
     * line up, so the scan looks at the bytes themselves.
     */
    private Map<String, String> storedCredentials() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (io.keyline.store.Database db = H2Database.open(wb.state);
             java.sql.Connection c = db.connection();
             java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT name, secret FROM credential")) {
            while (rs.next()) {
                out.put(rs.getString(1), new String(Base64.getDecoder().decode(rs.getString(2)),
                        StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(out).as("the credentials the runs used").isNotEmpty();
        return out;
    }

    /** The outputs the state holds for a job's steps (JSON), read with the connection the engine uses. */
    private String storedOutputs(String job) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (io.keyline.store.Database db = io.keyline.store.h2.H2Database.open(wb.state);
             java.sql.Connection c = db.connection();
             java.sql.PreparedStatement ps = c.prepareStatement("SELECT outputs FROM step_state WHERE job = ?")) {
            ps.setString(1, job);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sb.append(rs.getString(1)).append('\n');
                }
            }
        }
        return sb.toString();
    }
}
