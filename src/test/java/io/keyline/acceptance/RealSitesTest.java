package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.List;

import static io.keyline.acceptance.CredentialTesting.listRow;
import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser-era web application as it is (a wiki with a login form, a CSRF token in its edit page and a form
 * save that answers 302 to the saved page), driven through the real command line with plain http steps: the
 * shipped example job, form and JSON bodies, redirects that mean "saved", login URLs matched with their query,
 * a strict credentials test, a renewal with the rejected value, and cookies the site rotates.
 */
class RealSitesTest {

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

    /** The shipped example job, pointed at the test site. */
    String example() throws IOException {
        return Files.readString(EXAMPLE, StandardCharsets.UTF_8).replace("https://wiki.example.org", site.base());
    }

    void installExample() throws IOException {
        Files.writeString(wb.jobs.resolve("wiki-journal.json"), example(), StandardCharsets.UTF_8);
    }

    Result storeLogin(String cookies, String... options) {
        List<String> args = new java.util.ArrayList<>(List.of("credentials", "set", CRED));
        args.addAll(List.of(options));
        Result r = wb.cliWithInput(cookies, args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        return r;
    }

    Result run(String job) {
        return wb.cli("run", job, "--key", KEY);
    }

    String state(String job) {
        return status(wb, job, KEY).get("state").asText();
    }

    // --- the example job: token from the page, form save, 302 to the page -------------------------------------

    @Test
    void theExampleJobSavesThePageOnceWithTheTokenOfItsEditPageAndReadsThe302AsDone() throws IOException {
        installExample();
        storeLogin(site.logIn(), "--login-url", site.loginUrl());

        Result r = run("wiki-journal");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state("wiki-journal")).isEqualTo("DONE");
        assertThat(site.saves(PAGE)).isEqualTo(1);
        assertThat(site.text(PAGE)).isEqualTo("====== Journal " + KEY + " ======\n\nWritten by Keyline.\n");
        WikiSite.Seen save = site.requests().stream().filter(q -> "save".equals(q.form("do"))).findFirst().orElseThrow();
        assertThat(save.forms("sectok")).as("the token of the edit page, once").hasSize(1);
        assertThat(save.body()).doesNotContain("{steps.");
        assertThat(listRow(wb, CRED)[6]).as("the site accepted the login").isEqualTo("accepted");
        Result again = run("wiki-journal");
        assertThat(again.exit()).isZero();
        assertThat(site.saves(PAGE)).as("a DONE key is not saved again").isEqualTo(1);
    }

    @Test
    void theExampleJobsFolderIsNotLoadedAsLiveJobs() throws IOException {
        Files.createDirectories(wb.jobs.resolve("examples"));
        Files.copy(EXAMPLE, wb.jobs.resolve("examples").resolve("wiki-journal.json"));
        Result jobs = wb.cli("jobs");
        assertThat(jobs.out()).as(jobs.toString()).doesNotContain("wiki-journal");
        Workbench other = new Workbench(tmp.resolve("other"));
        Files.copy(EXAMPLE, other.jobs.resolve("wiki-journal.json"));
        Result valid = other.cli("jobs");
        assertThat(valid.exit()).as(valid.toString()).isZero();
        assertThat(valid.out()).contains("wiki-journal").doesNotContain("invalid");
    }

    @Test
    void aSaveWithAStaleTokenIsPreviewedWith200AndFailsWithoutSaving() throws IOException {
        wb.job("stale", """
                { "name": "stale", "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "save", "kind": "http", "effect": "unsafe", "credential": "wiki",
                      "request": { "method": "POST", "url": "BASE/doku.php",
                                   "form": { "id": "journal:{key}", "do": "save", "sectok": "0000", "wikitext": "x" } },
                      "response": { "authWhen": { "bodyContains": "id=\\"dw__login\\"" },
                                    "successWhen": { "all": [ { "status": [302] },
                                        { "header": "Location", "matches": "[?&]id=journal:{key}(&|$)" } ] } } } ] }
                """, site.base());
        storeLogin(site.logIn());

        Result r = run("stale");

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, "stale", KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("the answer does not show success");
        assertThat(site.saves(PAGE)).isZero();
    }

    // --- redirects: a 302 to the page is not a login; the login URL is matched with its query ------------------

    /** A save as a hand-encoded form (no new job-file fields): 302 to the page, with or without a successWhen. */
    static String handSave(String name, String sectok, String response) {
        return """
                { "name": "%s", "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "save", "kind": "http", "effect": "unsafe", "credential": "wiki",
                      "request": { "method": "POST", "url": "BASE/doku.php",
                                   "headers": { "Content-Type": "application/x-www-form-urlencoded" },
                                   "body": "id=journal%%3A{key}&do=save&sectok=%s&wikitext=x" }%s } ] }
                """.formatted(name, sectok, response);
    }

    @Test
    void aRedirectToThePageIsNotALoginEvenWithALoginUrlOnTheSamePath() throws IOException {
        String login = site.logIn();
        storeLogin(login, "--login-url", site.loginUrl());
        wb.job("plain", handSave("plain", site.sectok(login), ""), site.base());
        wb.job("prg", handSave("prg", site.sectok(login), """
                ,
                      "response": { "successWhen": { "all": [ { "status": [302, 303] },
                                        { "header": "Location", "matches": "[?&]id=journal:{key}(&|$)" } ] } }"""),
                site.base());

        Result plain = run("plain");

        JsonNode st = status(wb, "plain", KEY);
        assertThat(st.get("state").asText()).as(plain.toString()).isEqualTo("FAILED");
        assertThat(st.get("class").asText()).isEqualTo("FATAL");
        assertThat(st.get("message").asText()).contains("302").contains("id=" + PAGE);
        assertThat(listRow(wb, CRED)[6]).as("the credential is not rejected").isNotEqualTo("rejected");
        assertThat(site.saves(PAGE)).isEqualTo(1);

        Result prg = run("prg");

        assertThat(prg.exit()).as(prg.toString()).isZero();
        assertThat(state("prg")).isEqualTo("DONE");
        assertThat(site.saves(PAGE)).isEqualTo(2);
        assertThat(listRow(wb, CRED)[6]).isEqualTo("accepted");
    }

    @Test
    void aRedirectToTheLoginUrlWithItsQueryParksTheKeyOnTheCredential() throws IOException {
        installExample();
        site.redirectToLogin(true);
        storeLogin("Cookie: DokuWiki=expired0000", "--login-url", site.loginUrl());

        Result r = run("wiki-journal");

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(state("wiki-journal")).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(status(wb, "wiki-journal", KEY).get("message").asText()).contains("do=login");
        assertThat(site.count("POST", "save")).isZero();
    }

    @Test
    void aLoginUrlCanBeRemoved() {
        storeLogin(site.logIn(), "--login-url", site.loginUrl());
        assertThat(wb.cli("credentials", "list").out()).contains("log in at " + site.loginUrl());

        Result removed = wb.cliWithInput("", "credentials", "set", CRED, "--login-url", "");

        assertThat(removed.exit()).as(removed.toString()).isZero();
        assertThat(wb.cli("credentials", "list").out()).doesNotContain("log in at");
    }

    // --- bodies by field -------------------------------------------------------------------------------------

    @Test
    void aFormValueWithAmpersandsAndEqualsSignsStaysOneValue() throws IOException {
        wb.job("form", """
                { "name": "form", "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "page", "kind": "http", "effect": "idempotent", "credential": "wiki",
                      "request": { "method": "GET", "url": "BASE/doku.php?id=journal:{key}&do=edit" },
                      "extract": { "sectok": { "css": "input[name=sectok]", "attr": "value" },
                                   "text": { "css": "textarea[name=wikitext]", "text": true, "optional": true } } },
                    { "id": "save", "kind": "http", "effect": "unsafe", "credential": "wiki",
                      "request": { "method": "POST", "url": "BASE/doku.php",
                                   "form": { "id": "journal:{key}", "do": "save",
                                             "sectok": "{steps.page.outputs.sectok}",
                                             "wikitext": "a&b=c&sectok=evil&do=delete + 100%",
                                             "tags": ["x&y", "z"] } },
                      "response": { "successWhen": { "status": [302] } } } ] }
                """, site.base());
        storeLogin(site.logIn());

        Result r = run("form");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.text(PAGE)).isEqualTo("a&b=c&sectok=evil&do=delete + 100%");
        WikiSite.Seen save = site.requests().stream().filter(q -> "save".equals(q.form("do"))).findFirst().orElseThrow();
        assertThat(save.forms("sectok")).hasSize(1).doesNotContain("evil");
        assertThat(save.forms("do")).containsExactly("save");
        assertThat(save.forms("tags")).containsExactly("x&y", "z");
    }

    @Test
    void aJsonBodyValueCannotAddAField() throws IOException {
        String token = site.apiToken();
        wb.job("api", """
                { "name": "api", "key": { "type": "manual" },
                  "steps": [
                    { "id": "save", "kind": "http", "effect": "idempotent", "credential": "wiki-api",
                      "request": { "method": "POST", "url": "BASE/lib/exe/jsonrpc.php/core.savePage",
                                   "json": { "page": "journal:{key}", "text": "{key}\\", \\"page\\": \\"start",
                                             "minor": true, "summary": null } },
                      "response": { "successWhen": { "jsonPointer": "/result", "equals": true } } } ] }
                """, site.base());
        Result set = wb.cliWithInput(token, "credentials", "set", "wiki-api", "--type", "bearer");
        assertThat(set.exit()).as(set.toString()).isZero();

        Result r = wb.cli("run", "api", "--key", "k1");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.apiCalls()).hasSize(1);
        JsonNode call = site.apiCalls().get(0);
        assertThat(call.get("page").asText()).isEqualTo("journal:k1");
        assertThat(call.get("text").asText()).isEqualTo("k1\", \"page\": \"start");
        assertThat(call.get("minor").asBoolean()).isTrue();
        assertThat(call.size()).isEqualTo(4);
        assertThat(site.saves("start")).isZero();
    }

    // --- credentials test: strict ---------------------------------------------------------------------------

    @Test
    void aDeadCookieIsRejectedByTheStepThatCanTellEvenWhenTheProbeReadsAPublicPage() throws IOException {
        installExample();
        storeLogin(site.logIn(), "--login-url", site.loginUrl());
        site.expireLogins();
        assertThat(run("wiki-journal").exit()).isEqualTo(4);
        assertThat(state("wiki-journal")).isEqualTo("NEEDS_CREDENTIAL");

        Result test = wb.cli("credentials", "test", CRED);

        assertThat(test.exit()).as(test.toString()).isEqualTo(2);
        assertThat(test.out()).contains("rejected");
        assertThat(state("wiki-journal")).as("nothing resumes").isEqualTo("NEEDS_CREDENTIAL");
        Result attention = wb.cli("status", "--attention");
        assertThat(attention.out()).contains("wiki-journal").doesNotContain("Nothing waits for you");
        assertThat(site.count("POST", "save")).as("a test never saves").isZero();
    }

    @Test
    void aCookieTheSiteAcceptsAgainIsAcceptedAndTheParkedKeysResume() throws IOException {
        installExample();
        storeLogin("Cookie: DokuWiki=revived0000", "--login-url", site.loginUrl());
        assertThat(run("wiki-journal").exit()).isEqualTo(4);
        site.adoptSession("revived0000");

        Result test = wb.cli("credentials", "test", CRED);

        assertThat(test.exit()).as(test.toString()).isZero();
        assertThat(test.out()).contains("accepted");
        assertThat(state("wiki-journal")).isEqualTo("PENDING");
        assertThat(site.count("POST", "save")).as("a test never saves").isZero();
        assertThat(run("wiki-journal").exit()).isZero();
        assertThat(site.saves(PAGE)).isEqualTo(1);
    }

    @Test
    void aTestWithNothingThatCanTellIsInconclusiveAndResumesNothing() throws IOException {
        wb.job("blind", """
                { "name": "blind", "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "save", "kind": "http", "effect": "unsafe", "credential": "wiki",
                      "request": { "method": "POST", "url": "BASE/doku.php",
                                   "form": { "id": "journal:{key}", "do": "save", "sectok": "x", "wikitext": "x" } } } ] }
                """, site.base());
        storeLogin(site.logIn());

        Result test = wb.cli("credentials", "test", CRED);

        assertThat(test.exit()).as(test.toString()).isEqualTo(4);
        assertThat(test.out()).contains("inconclusive");
        assertThat(site.count("POST", "save")).isZero();
    }

    // --- renewing with the value that was rejected -----------------------------------------------------------

    @Test
    void renewingWithTheRejectedValueSaysSoAndResumesNothing() throws IOException {
        installExample();
        String dead = "Cookie: DokuWiki=expired0000";
        storeLogin(dead);
        assertThat(run("wiki-journal").exit()).isEqualTo(4);

        Result same = wb.cliWithInput(dead, "credentials", "set", CRED);

        assertThat(same.exit()).as(same.toString()).isEqualTo(4);
        assertThat(same.out()).contains("this is the value that was rejected at").contains("nothing resumes");
        assertThat(state("wiki-journal")).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.count("GET", "edit")).as("nothing was sent with it again").isEqualTo(1);
    }

    // --- cookies the site rotates --------------------------------------------------------------------------

    @Test
    void aRotatedRememberMeCookieIsKeptEncryptedAndTheNextStepCarriesIt() throws IOException {
        installExample();
        site.rotateRemember(true);
        String stored = site.rememberOnly();
        String before = CredentialTesting.fingerprintIn(storeLogin(stored).out());

        Result r = run("wiki-journal");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(PAGE)).isEqualTo(1);
        String after = CredentialTesting.listedFingerprint(wb, CRED);
        assertThat(after).isNotEqualTo(before);
        String timeline = timeline(wb, "wiki-journal", KEY).toString();
        assertThat(timeline).contains("refreshed by the site").contains(after);
        String export = wb.cli("export", "--json").out();
        List<String> issued = site.issued();
        assertThat(issued).as("the value stored, the values rotated in, the sessions opened from them")
                .contains(stored.substring(stored.indexOf('=') + 1)).hasSizeGreaterThan(3);
        for (String value : issued) {
            assertThat(timeline).doesNotContain(value);
            assertThat(r.out() + r.err()).doesNotContain(value);
            assertThat(export).doesNotContain(value);
        }
        // the next run (another key) starts from the stored, refreshed value
        Result next = wb.cli("run", "wiki-journal", "--key", "2026-11-28");
        assertThat(next.exit()).as(next.toString()).isZero();
        assertThat(site.saves("journal:2026-11-28")).isEqualTo(1);
    }

    @Test
    void refreshingCanBeTurnedOff() throws IOException {
        installExample();
        site.rotateRemember(true);
        String before = CredentialTesting.fingerprintIn(storeLogin(site.rememberOnly(), "--no-refresh").out());

        Result r = run("wiki-journal");

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(state("wiki-journal")).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(CredentialTesting.listedFingerprint(wb, CRED)).isEqualTo(before);
        assertThat(site.saves(PAGE)).isZero();
    }
}
