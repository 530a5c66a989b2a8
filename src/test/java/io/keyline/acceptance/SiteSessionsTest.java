package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.WikiSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.keyline.acceptance.CredentialTesting.listedFingerprint;
import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A wiki as a browser-era site is, driven through the real command line: a job's own probe asked before its
 * first step (the editor, which locks the page, is not opened for a page that exists), outputs that do not
 * outlive the login they came from (a renewal, {@code retry --from-step}), a cookie the site refreshes as an
 * audited event of its own, and plans that show a form's fields and where run-time values come from, bound to
 * the request template (a refresh by the site does not make a plan stale, a renewal does).
 */
class SiteSessionsTest {

    static final String KEY = "2026-11-29";
    static final String PAGE = "journal:" + KEY;
    static final String CRED = "wiki";
    static final Path EXAMPLE = Path.of("resources/jobs/examples/wiki-journal.json");

    @TempDir
    Path tmp;
    Workbench wb;
    WikiSite site;

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new WikiSite();
    }

    @AfterEach
    void close() {
        site.close();
    }

    /** The edit page for the token, the form save answering 302, guarded by its probe on the raw export. */
    static final String STEPS = """
              "steps": [
                { "id": "page", "kind": "http", "effect": "idempotent", "credential": "wiki",
                  "request": { "method": "GET", "url": "BASE/doku.php?id=journal:{key}&do=edit" },
                  "response": { "authWhen": { "bodyContains": "id=\\"dw__login\\"" } },
                  "extract": { "sectok": { "css": "input[name=sectok]", "attr": "value" } } },
                { "id": "save", "kind": "http", "effect": "unsafe", "credential": "wiki",
                  "request": { "method": "POST", "url": "BASE/doku.php",
                               "form": { "id": "journal:{key}", "do": "save", "sectok": "{steps.page.outputs.sectok}",
                                         "wikitext": "Journal {key}", "summary": "journal {key}" } },
                  "response": { "authWhen": { "bodyContains": "id=\\"dw__login\\"" },
                                "successWhen": { "all": [ { "status": [302, 303] },
                                    { "header": "Location", "matches": "[?&]id=journal:{key}(&|$)" } ] } },
                  "probe": { "kind": "http", "method": "GET", "url": "BASE/doku.php?id=journal:{key}&do=export_raw",
                             "presentWhen": { "bodyMatches": "\\\\S" } } } ] }
            """;

    /** The job with its own probe on the raw export, sent with the login. */
    static final String WITH_OWN_PROBE = """
            { "name": "journal", "key": { "type": "date", "zone": "UTC" },
              "probe": { "kind": "http", "method": "GET", "credential": "wiki",
                         "url": "BASE/doku.php?id=journal:{key}&do=export_raw",
                         "response": { "authWhen": { "bodyContains": "id=\\"dw__login\\"" } },
                         "presentWhen": { "bodyMatches": "\\\\S" } },
            """ + STEPS;

    /** The same steps without a probe of the job's own. */
    static final String WITHOUT_OWN_PROBE = """
            { "name": "journal", "key": { "type": "date", "zone": "UTC" },
            """ + STEPS;

    Result storeLogin(String cookies, String... options) {
        List<String> args = new ArrayList<>(List.of("credentials", "set", CRED));
        args.addAll(List.of(options));
        Result r = wb.cliWithInput(cookies, args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        return r;
    }

    String state(String job) {
        return status(wb, job, KEY).get("state").asText();
    }

    long edits() {
        return site.count("GET", "edit");
    }

    void installExample() throws IOException {
        Files.writeString(wb.jobs.resolve("wiki-journal.json"), Files.readString(EXAMPLE, StandardCharsets.UTF_8)
                .replace("https://wiki.example.org", site.base()), StandardCharsets.UTF_8);
    }

    // --- a job's own probe --------------------------------------------------------------------------------------

    @Test
    void aJobsOwnProbeFindsThePageThereAndNoStepRunsSoTheEditorIsNeverLocked() throws IOException {
        wb.job("journal", WITH_OWN_PROBE, site.base());
        storeLogin(site.logIn());
        site.write(PAGE, "Written by a person.");

        Result r = wb.cli("run", "journal", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state("journal")).isEqualTo("DONE");
        assertThat(edits()).as("the editor is not opened for work that is there").isZero();
        assertThat(site.lockHolder(PAGE)).isNull();
        assertThat(site.saves(PAGE)).isZero();
        assertThat(site.text(PAGE)).isEqualTo("Written by a person.");
        JsonNode done = timeline(wb, "journal", KEY).stream().filter(e -> e.get("type").asText().equals("KEY_DONE"))
                .findFirst().orElseThrow();
        assertThat(done.get("message").asText()).contains("already done").contains("no step ran");
        assertThat(done.get("evidence").toString()).contains("export_raw");
        assertThat(wb.cli("run", "journal", "--key", KEY).exit()).isZero();
        assertThat(edits()).isZero();
    }

    @Test
    void aJobsOwnProbeThatFindsNothingLetsTheStepsRunAndTheUnsafeStepIsStillGuardedByItsProbe() throws IOException {
        wb.job("journal", WITH_OWN_PROBE, site.base());
        storeLogin(site.logIn());

        Result r = wb.cli("run", "journal", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(PAGE)).isEqualTo(1);
        assertThat(edits()).isEqualTo(1);
        assertThat(site.count("GET", "export_raw")).as("the job's probe, then the save's").isEqualTo(2);
        List<String> probeLines = new ArrayList<>();
        for (String line : Files.readAllLines(wb.logs().resolve("runs.jsonl"))) {
            JsonNode n = Json.read(line, JsonNode.class);
            if (n.path("type").asText().equals("probe")) {
                probeLines.add(n.path("step").isNull() ? "(job)" : n.path("step").asText());
            }
        }
        assertThat(probeLines).containsExactly("(job)", "save");
    }

    @Test
    void aJobsOwnProbeAnsweredWithTheLoginFormParksTheKeyWithoutOpeningTheEditor() throws IOException {
        site.publicRead(false);
        wb.job("journal", WITH_OWN_PROBE, site.base());
        storeLogin("Cookie: DokuWiki=expired0000", "--login-url", site.loginUrl());

        Result r = wb.cli("run", "journal", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status(wb, "journal", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        assertThat(edits()).isZero();
        assertThat(site.count("POST", "save")).isZero();
        assertThat(CredentialTesting.listRow(wb, CRED)[6]).isEqualTo("rejected");
    }

    @Test
    void thePlanAsksTheJobsProbeReadOnlyShowsItsAnswerAndApplyDoesWhatItShowed() throws IOException {
        wb.job("journal", WITH_OWN_PROBE, site.base());
        storeLogin(site.logIn());
        site.write(PAGE, "Written by a person.");

        Result plan = wb.cli("plan", "journal", "--key", KEY);

        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("the job's probe").contains("present")
                .contains("skip: already there (the job's probe answered present); no step runs");
        assertThat(edits()).isZero();
        JsonNode json = Json.read(wb.cli("plan", "journal", "--key", KEY, "--json").out(), JsonNode.class);
        JsonNode k = json.get("keys").get(0);
        assertThat(k.get("steps")).isEmpty();
        assertThat(k.get("stopKind").asText()).isEqualTo("ALREADY_PRESENT");
        assertThat(k.get("probes").get("(key)").asText()).startsWith("present");

        Result apply = wb.cli("apply", json.get("planId").asText());

        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(state("journal")).isEqualTo("DONE");
        assertThat(edits()).isZero();
        assertThat(site.saves(PAGE)).isZero();
    }

    @Test
    void theExampleJobDoesNotOpenTheEditorForAPageThatAlreadyExists() throws IOException {
        installExample();
        storeLogin(site.logIn(), "--login-url", site.loginUrl());
        site.write(PAGE, "Written by a person.");

        Result r = wb.cli("run", "wiki-journal", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state("wiki-journal")).isEqualTo("DONE");
        assertThat(edits()).as("no 15-minute edit lock on a page a person wrote").isZero();
        assertThat(site.lockHolder(PAGE)).isNull();
        assertThat(site.text(PAGE)).isEqualTo("Written by a person.");
    }

    // --- outputs do not outlive the login they came from -------------------------------------------------------

    @Test
    void aKeyParkedOnTheLoginResumesAfterTheRenewalFromTheFirstStepThatUsedItWithAFreshToken() throws IOException {
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        storeLogin(site.logIn(), "--login-url", site.loginUrl());
        site.endLoginsAfterEdit(true);
        assertThat(wb.cli("run", "journal", "--key", KEY).exit()).isEqualTo(4);
        assertThat(state("journal")).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(status(wb, "journal", KEY).get("step").asText()).isEqualTo("save");
        site.endLoginsAfterEdit(false);

        String login = site.logIn();
        Result renewed = wb.cliWithInput(login, "credentials", "set", CRED);
        assertThat(renewed.exit()).as(renewed.toString()).isZero();
        Result r = wb.cli("run", "journal", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state("journal")).isEqualTo("DONE");
        assertThat(site.saves(PAGE)).isEqualTo(1);
        assertThat(edits()).as("the token step ran again with the new login").isEqualTo(2);
        WikiSite.Seen save = site.requests().stream().filter(q -> "save".equals(q.form("do")))
                .reduce((a, b) -> b).orElseThrow();
        assertThat(save.form("sectok")).isEqualTo(site.sectok(login));
        JsonNode resumed = timeline(wb, "journal", KEY).stream()
                .filter(e -> e.get("type").asText().equals("CREDENTIAL_UPDATED")).findFirst().orElseThrow();
        assertThat(resumed.get("message").asText()).contains("resumes from step page");
    }

    @Test
    void retryFromAStepRunsTheTokenStepAgainForAFailedKeyAndIsAudited() throws IOException {
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        storeLogin(site.logIn());
        site.endSessionsAfterEdit(true);
        assertThat(wb.cli("run", "journal", "--key", KEY).exit()).isEqualTo(2);
        assertThat(status(wb, "journal", KEY).get("message").asText()).contains("the answer does not show success");
        site.endSessionsAfterEdit(false);
        Result plain = wb.cli("retry", "journal", KEY, "--run");
        assertThat(plain.exit()).as("a plain retry resumes at the save with the old session's token: " + plain)
                .isEqualTo(2);
        long probesBefore = site.count("GET", "export_raw");

        Result r = wb.cli("retry", "journal", KEY, "--from-step", "page", "--note", "new session", "--run");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state("journal")).isEqualTo("DONE");
        assertThat(site.saves(PAGE)).isEqualTo(1);
        assertThat(edits()).isEqualTo(2);
        assertThat(site.count("GET", "export_raw")).as("the unsafe save still asks its probe first")
                .isGreaterThan(probesBefore);
        JsonNode retried = timeline(wb, "journal", KEY).stream()
                .filter(e -> e.get("type").asText().equals("RETRIED")).reduce((a, b) -> b).orElseThrow();
        assertThat(retried.get("message").asText()).contains("from step page");
        assertThat(retried.get("note").asText()).isEqualTo("new session");
        assertThat(retried.get("user").asText()).isEqualTo("tester");
        assertThat(Files.readString(wb.logs().resolve("runs.jsonl"))).contains("\"fromStep\":\"page\"");
    }

    @Test
    void retryFromAStepThatTheJobDoesNotHaveIsAClearErrorAndChangesNothing() throws IOException {
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        storeLogin(site.logIn());
        site.endSessionsAfterEdit(true);
        assertThat(wb.cli("run", "journal", "--key", KEY).exit()).isEqualTo(2);

        Result r = wb.cli("retry", "journal", KEY, "--from-step", "pgae");

        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("no step \"pgae\"").contains("page, save").doesNotContain("Exception");
        assertThat(state("journal")).isEqualTo("FAILED");
    }

    // --- a login whose cookies go elsewhere -------------------------------------------------------------------

    @Test
    void aLoginWhoseCookiesAreForAnotherHostSendsNothingWithoutThemAndSaysWhichHostTheyAreFor() throws IOException {
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        String line = storeLoginForLocalhost();

        Result r = wb.cli("run", "journal", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(site.requests()).as("no request goes out without the login it needs: an anonymous edit or save")
                .isEmpty();
        JsonNode key = status(wb, "journal", KEY);
        assertThat(key.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(key.get("message").asText()).contains("nothing was sent")
                .contains("no cookie for 127.0.0.1").contains("Host=localhost").doesNotContain(line.substring(9, 20));
        assertThat(r.out()).contains("no cookie for 127.0.0.1");
        String listed = wb.cli("credentials", "list").out().lines().filter(l -> l.startsWith(CRED + " "))
                .findFirst().orElseThrow();
        assertThat(listed).as("a login nothing was sent with was not rejected by the site")
                .contains("not used yet").doesNotContain("rejected");
    }

    /**
     * {@code credentials test} on the same login sends nothing either, and says so: not "1 of 1 answer showed a
     * rejected login" (no site answered), but that the credential holds no cookie for the job's host and which
     * hosts its cookies are for, in both languages; the login is not usable (exit 2), nothing resumes, and the
     * value is not recorded as rejected.
     */
    @Test
    void aTestOfALoginWhoseCookiesAreForAnotherHostSaysNothingWasSentAndForWhichHostsTheyAre() throws IOException {
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        String line = storeLoginForLocalhost();
        String value = line.substring(9, 20);
        try {
            for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
                io.keyline.text.Text.use(language);
                Result r = wb.cli("credentials", "test", CRED);

                assertThat(r.exit()).as(r.toString()).isEqualTo(2);
                String last = r.out().lines().reduce((a, b) -> b).orElse("");
                String summary = r.out().lines().filter(l -> l.startsWith(CRED + ": ")).findFirst().orElse("");
                if (language == io.keyline.text.Text.ENGLISH) {
                    assertThat(summary).as(r.toString()).contains("nothing was sent")
                            .contains("no cookie for 127.0.0.1").contains("Host=localhost")
                            .doesNotContain("rejected login", "Rejected");
                    assertThat(last).as(r.toString()).doesNotContain("is rejected").contains("nothing resumes");
                } else {
                    assertThat(summary).as(r.toString()).contains("什么都没有发送")
                            .contains("没有发往 127.0.0.1 的 Cookie").contains("Host=localhost")
                            .doesNotContain("登录被拒绝", "被拒绝：");
                    assertThat(last).as(r.toString()).doesNotContain("被拒绝").contains("没有任务项恢复");
                }
                assertThat(r.out() + r.err()).doesNotContain(value);
            }
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
        assertThat(site.requests()).as("a test sends nothing without the login either").isEmpty();
        String listed = wb.cli("credentials", "list").out().lines().filter(l -> l.startsWith(CRED + " "))
                .findFirst().orElseThrow();
        assertThat(listed).as("a login nothing was sent with was not rejected by the site")
                .contains("not used yet").doesNotContain("rejected");
    }

    /**
     * Stores the login of a session opened with curl on http://localhost:PORT: its cookies.txt is for localhost,
     * the job sends to 127.0.0.1. Returns the session's Cookie line (to look for its value in outputs).
     */
    private String storeLoginForLocalhost() {
        String line = site.logIn().replaceFirst("^Cookie:\\s*", "");
        StringBuilder txt = new StringBuilder("# Netscape HTTP Cookie File\n");
        for (String pair : line.split(";\\s*")) {
            String[] nv = pair.split("=", 2);
            txt.append("#HttpOnly_localhost\tFALSE\t/\tFALSE\t0\t").append(nv[0]).append('\t').append(nv[1]).append('\n');
        }
        storeLogin(txt.toString());
        return line;
    }

    // --- a cookie the site refreshes ---------------------------------------------------------------------------

    @Test
    void aCookieTheSiteRefreshesIsAnAuditedEventOfItsOwnWithTheNewFingerprintAndNoValue() throws IOException {
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        site.rotateRemember(true);
        String stored = site.rememberOnly();
        storeLogin(stored);

        Result r = wb.cli("run", "journal", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        List<JsonNode> events = timeline(wb, "journal", KEY);
        List<JsonNode> refreshed = events.stream()
                .filter(e -> e.get("type").asText().equals("CREDENTIAL_REFRESHED")).toList();
        assertThat(refreshed).isNotEmpty();
        assertThat(refreshed.get(refreshed.size() - 1).get("message").asText())
                .isEqualTo("credential wiki refreshed by the site (fingerprint " + listedFingerprint(wb, CRED) + ")");
        assertThat(events.stream().filter(e -> e.get("type").asText().startsWith("STEP_"))
                .map(e -> e.get("message").asText())).noneMatch(m -> m.contains("refreshed"));
        String all = events.toString();
        List<String> issued = site.issued();
        assertThat(issued).as("the value stored, the values rotated in, the sessions opened from them")
                .contains(stored.substring(stored.indexOf('=') + 1)).hasSizeGreaterThan(3);
        for (String value : issued) {
            assertThat(all).doesNotContain(value);
        }
    }

    // --- plans: form fields, run-time values, the template bound ------------------------------------------------

    @Test
    void thePlanShowsTheFormsFieldsItsHashAndWhereARunTimeValueComesFrom() throws IOException {
        String login = site.logIn();
        String sid = login.replaceAll(".*DokuWiki=([0-9a-f]+).*", "$1");
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        wb.job("fixed", """
                { "name": "fixed", "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "save", "kind": "http", "effect": "unsafe", "credential": "wiki",
                      "request": { "method": "POST", "url": "BASE/doku.php",
                                   "form": { "id": "journal:{key}", "do": "preview", "wikitext": "a&b=c",
                                             "note": "session SID" } },
                      "response": { "successWhen": { "status": [200] } } } ] }
                """.replace("SID", sid), site.base());
        storeLogin(login);

        Result plan = wb.cli("plan", "journal", "--key", KEY);

        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out())
                .contains("sectok = from step page: sectok (extracted at run time)")
                .contains("id = journal:" + KEY)
                .contains("summary = journal " + KEY)
                .contains("sha256 known at run time")
                .containsPattern("request template sha256 [0-9a-f]{64}");
        JsonNode save = Json.read(wb.cli("plan", "journal", "--key", KEY, "--json").out(), JsonNode.class)
                .get("keys").get(0).get("requests").get(1);
        assertThat(save.get("runTimeBody").asBoolean()).isTrue();
        assertThat(save.get("bodySha256").isNull()).isTrue();
        JsonNode sectok = null;
        for (JsonNode f : save.get("fields")) {
            if (f.get("name").asText().equals("sectok")) {
                sectok = f;
            }
        }
        assertThat(sectok).isNotNull();
        assertThat(sectok.get("runTime").asBoolean()).isTrue();

        Result fixed = wb.cli("plan", "fixed", "--key", KEY);
        assertThat(fixed.out()).as(fixed.toString()).contains("wikitext = a&b=c").doesNotContain(sid)
                .contains("note = session ***");
        Matcher sha = Pattern.compile("body: (\\d+) bytes, sha256 ([0-9a-f]{64}) \\(form\\)").matcher(fixed.out());
        assertThat(sha.find()).as(fixed.out()).isTrue();
        assertThat(wb.cli("run", "fixed", "--key", KEY).exit()).isZero();
        WikiSite.Seen sent = site.requests().stream().filter(q -> "preview".equals(q.form("do"))).findFirst()
                .orElseThrow();
        assertThat(sha256(sent.body())).as("the plan showed the hash of the body that was sent").isEqualTo(sha.group(2));
    }

    @Test
    void aCookieTheSiteRefreshesDoesNotMakeAPlanStaleButARenewalByTheOperatorDoes() throws IOException {
        wb.job("journal", WITHOUT_OWN_PROBE, site.base());
        site.rotateRemember(true);
        storeLogin(site.rememberOnly());
        String before = listedFingerprint(wb, CRED);

        String planId = planId(wb.cli("plan", "journal", "--key", KEY));
        assertThat(listedFingerprint(wb, CRED)).as("the plan's probe was answered with a refreshed cookie")
                .isNotEqualTo(before);
        Result apply = wb.cli("apply", planId);

        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(site.saves(PAGE)).isEqualTo(1);

        String other = "2026-11-28";
        String second = planId(wb.cli("plan", "journal", "--key", other));
        storeLogin(site.logIn());
        Result stale = wb.cli("apply", second);
        assertThat(stale.exit()).as(stale.toString()).isEqualTo(1);
        assertThat(stale.err() + stale.out()).contains("stale");
        assertThat(site.saves("journal:" + other)).isZero();
    }

    static String planId(Result plan) {
        assertThat(plan.exit()).as(plan.toString()).isZero();
        Matcher m = Pattern.compile("keyline apply ([0-9a-f]{16})").matcher(plan.out());
        assertThat(m.find()).as(plan.out()).isTrue();
        return m.group(1);
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
