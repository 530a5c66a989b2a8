package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.WordPressSite;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A blog shaped like WordPress, driven through the real command line: the REST nonce read from an admin page with a
 * regex, an unsafe {@code POST /wp-json/wp/v2/posts} with {@code X-WP-Nonce} guarded by a probe that asks for the
 * slug, and the nonce's tie to the login it came from (a renewed login makes every older nonce a {@code 403}).
 */
class WordPressFlowTest {

    static final String KEY = "2026-11-29";
    static final String SLUG = "daily-" + KEY;
    static final String CRED = "wp";

    static final String JOB = """
            { "name": "wp-daily", "key": { "type": "date", "zone": "UTC" },
              "probe": { "kind": "http", "method": "GET", "credential": "wp",
                         "url": "BASE/wp-json/wp/v2/posts?slug=daily-{key}",
                         "presentWhen": { "jsonPointer": "/0/id", "exists": true } },
              "steps": [
                { "id": "nonce", "kind": "http", "effect": "none", "credential": "wp",
                  "request": { "method": "GET", "url": "BASE/wp-admin/post-new.php" },
                  "response": { "successWhen": { "status": [200] } },
                  "extract": { "nonce": { "regex": "wpApiSettings = \\\\{[^}]*\\"nonce\\":\\"([0-9a-f]+)\\"" } } },
                { "id": "publish", "kind": "http", "effect": "unsafe", "credential": "wp",
                  "request": { "method": "POST", "url": "BASE/wp-json/wp/v2/posts",
                               "headers": { "X-WP-Nonce": "{steps.nonce.outputs.nonce}" },
                               "json": { "title": "Daily {key}", "slug": "daily-{key}", "status": "publish" } },
                  "response": { "successWhen": { "all": [ { "status": [201] },
                                                          { "jsonPointer": "/slug", "equals": "daily-{key}" } ] } },
                  "probe": { "kind": "http", "method": "GET",
                             "url": "BASE/wp-json/wp/v2/posts?slug=daily-{key}&status=any",
                             "headers": { "X-WP-Nonce": "{steps.nonce.outputs.nonce}" },
                             "presentWhen": { "jsonPointer": "/0/id", "exists": true } } } ] }
            """;

    @TempDir
    Path tmp;
    Workbench wb;
    WordPressSite site;

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new WordPressSite();
        wb.job("wp-daily", JOB, site.base());
    }

    @AfterEach
    void close() {
        site.close();
    }

    Result storeLogin(String cookies) {
        List<String> args = new ArrayList<>(List.of("credentials", "set", CRED, "--login-url", site.loginUrl()));
        Result r = wb.cliWithInput(cookies, args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        return r;
    }

    List<String> noncesPosted() {
        return site.requests().stream().filter(q -> q.method().equals("POST")).map(WordPressSite.Seen::nonce)
                .toList();
    }

    @Test
    void theDailyPostIsPublishedOnceWithTheNonceOfTheAdminPage() {
        String login = site.logIn();
        storeLogin(login);

        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).containsExactly(site.nonce(login));
    }

    /**
     * A key that waits to retry its post (the site was busy) holds the nonce of the login it was taken with. Once
     * the operator has logged in again, that nonce is the old session's: sent, it is a {@code 403}, and the new
     * login would be marked rejected and every key parked on it. The renewal sends such a key back to the first step
     * that uses the login, as it does for the keys parked on it: the nonce is asked again, the post goes out once.
     */
    @Test
    void aKeyWaitingToRetryWhenTheLoginIsRenewedTakesANonceOfTheNewLoginInsteadOfMarkingItRejected() {
        storeLogin(site.logIn());
        site.busy(503, 1, "120");
        Result busy = wb.cli("run", "wp-daily", "--key", KEY);
        assertThat(busy.exit()).as(busy.toString()).isEqualTo(5);
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).isEqualTo("RETRY_WAIT");

        site.expireLogins();
        String renewed = site.logIn();
        storeLogin(renewed);
        wb.clock.advance(Duration.ofMinutes(3));
        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).last().isEqualTo(site.nonce(renewed));
        assertThat(CredentialTesting.listRow(wb, CRED)[6]).isNotEqualTo("rejected");
        JsonNode updated = timeline(wb, "wp-daily", KEY).stream()
                .filter(e -> e.get("type").asText().equals("CREDENTIAL_UPDATED")).findFirst().orElseThrow();
        assertThat(updated.get("message").asText()).contains("resumes from step nonce");
    }

    /**
     * Runs the key in a child process and kills it while the site holds its post, before the post is stored: the
     * key is left running with its post started and its outcome unknown.
     */
    void killWhileThePostIsHeld() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        site.holdNextPost(arrived, release);
        Path log = tmp.resolve("child.log");
        Process child = ChildProcess.start(wb, log, "run", "wp-daily", "--key", KEY);
        try {
            assertThat(arrived.await(60, TimeUnit.SECONDS)).as(Files.readString(log)).isTrue();
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            release.countDown();
        }
        assertThat(site.posts(SLUG)).isZero();
    }

    /**
     * A post whose outcome is unknown waits for a person with the nonce of the login it was sent with. The login
     * expires and the operator logs in again, then confirms: the nonce is asked again with the new login before the
     * probe and the post, the post goes out once, and the new login is not marked rejected.
     */
    @Test
    void aPostConfirmedAfterTheLoginWasRenewedTakesANonceOfTheNewLoginInsteadOfMarkingItRejected() throws Exception {
        wb.clock.followSystemClock();
        storeLogin(site.logIn());
        killWhileThePostIsHeld();
        Result probed = wb.cli("run", "wp-daily", "--key", KEY);
        assertThat(probed.exit()).as(probed.toString()).isEqualTo(4);
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");

        site.expireLogins();
        String renewed = site.logIn();
        storeLogin(renewed);
        JsonNode waits = status(wb, "wp-daily", KEY);
        assertThat(waits.get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(timeline(wb, "wp-daily", KEY).stream().filter(e -> e.get("type").asText()
                .equals("CREDENTIAL_UPDATED")).findFirst().orElseThrow().get("message").asText())
                .contains("once confirmed, the key goes on from step nonce")
                .contains("the outcome of publish is still unknown");
        Result r = wb.cli("confirm", "wp-daily", KEY, "--note", "checked the blog: it is not there");

        assertThat(CredentialTesting.listRow(wb, CRED)[6]).as(r.toString()).isNotEqualTo("rejected");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("first nonce runs again with the stored login (read-only), then publish is sent");
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).last().isEqualTo(site.nonce(renewed));
        // the probe was asked with the new login's nonce before the post
        assertThat(site.requests().stream().filter(q -> q.method().equals("GET") && q.path().endsWith("/posts"))
                .map(WordPressSite.Seen::nonce).toList()).last().isEqualTo(site.nonce(renewed));
    }

    /**
     * The operator confirms the post after checking the blog, but the session has expired meanwhile: the probe asked
     * before the post meets the login page's refusal, and the confirmed key waits for a new login. The renewal sends
     * the nonce step back (its nonce was the old session's); the confirmation was of the job's request with the
     * values known then, and the nonce fetched again is the one value that changed, so it still holds: the post goes
     * out once, with the new login's nonce, without a second confirmation.
     */
    @Test
    void aPostConfirmedBeforeTheLoginWasRenewedIsSentAfterTheRenewalWithoutConfirmingAgain() throws Exception {
        wb.clock.followSystemClock();
        storeLogin(site.logIn());
        killWhileThePostIsHeld();
        Result probed = wb.cli("run", "wp-daily", "--key", KEY);
        assertThat(probed.exit()).as(probed.toString()).isEqualTo(4);
        site.expireLogins();
        Result confirmed = wb.cli("confirm", "wp-daily", KEY, "--note", "checked the blog: it is not there");
        assertThat(confirmed.exit()).as(confirmed.toString()).isEqualTo(4);
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.posts(SLUG)).isZero();

        String renewed = site.logIn();
        storeLogin(renewed);
        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).last().isEqualTo(site.nonce(renewed));
        assertThat(timeline(wb, "wp-daily", KEY).stream().filter(e -> e.get("type").asText()
                .equals("CREDENTIAL_UPDATED")).findFirst().orElseThrow().get("message").asText())
                .contains("the key resumes from step nonce")
                .contains("the confirmation of publish holds, with the values those steps fetch again");
    }

    /**
     * Confirmed while the job is paused, the key waits to run with its confirmation; the login is renewed meanwhile.
     * The renewal sends its nonce step back and carries the confirmation over as for a key parked on the login: once
     * the job is resumed, the post goes out once with the new login's nonce.
     */
    @Test
    void aPostConfirmedWhileItsJobWasPausedIsSentAfterARenewalWithoutConfirmingAgain() throws Exception {
        wb.clock.followSystemClock();
        storeLogin(site.logIn());
        killWhileThePostIsHeld();
        assertThat(wb.cli("run", "wp-daily", "--key", KEY).exit()).isEqualTo(4);
        assertThat(wb.cli("pause", "wp-daily", "--reason", "the blog moves tonight").exit()).isZero();
        Result confirmed = wb.cli("confirm", "wp-daily", KEY, "--note", "checked the blog: it is not there");
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).as(confirmed.toString()).isEqualTo("PENDING");

        site.expireLogins();
        String renewed = site.logIn();
        storeLogin(renewed);
        assertThat(wb.cli("resume", "wp-daily").exit()).isZero();
        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).last().isEqualTo(site.nonce(renewed));
    }

    /**
     * The same confirmed key, but the post's title in the job file was changed before the login was renewed: that is
     * not what the operator confirmed, and the renewal does not carry the confirmation over to it. The run stops
     * before the post and asks for a new confirmation.
     */
    @Test
    void aPostConfirmedBeforeTheRenewalWhoseJobFileChangedSinceWaitsForANewConfirmation() throws Exception {
        wb.clock.followSystemClock();
        storeLogin(site.logIn());
        killWhileThePostIsHeld();
        assertThat(wb.cli("run", "wp-daily", "--key", KEY).exit()).isEqualTo(4);
        site.expireLogins();
        assertThat(wb.cli("confirm", "wp-daily", KEY, "--note", "checked").exit()).isEqualTo(4);
        wb.job("wp-daily", JOB.replace("\"title\": \"Daily {key}\"", "\"title\": \"Daily {key}, edited\""),
                site.base());

        storeLogin(site.logIn());
        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status(wb, "wp-daily", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(st.get("message").asText()).contains("changed since it was confirmed");
        assertThat(site.posts(SLUG)).isZero();
        assertThat(noncesPosted()).as("only the post the first run lost").hasSize(1);
    }

    /**
     * A run killed while its post was held leaves the key running with the nonce of its login. After the operator
     * logged in again, the next run asks the nonce again before it asks the probe: the probe answers with the new
     * login (the post is not there; the key waits for a person, as after any unknown outcome), and nothing marks the
     * new login rejected. Confirmed, the post goes out once.
     */
    @Test
    void anInterruptedPostResumedAfterTheLoginWasRenewedAsksItsProbeWithANonceOfTheNewLogin() throws Exception {
        wb.clock.followSystemClock();
        storeLogin(site.logIn());
        killWhileThePostIsHeld();

        site.expireLogins();
        String renewed = site.logIn();
        storeLogin(renewed);
        Result resumed = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(CredentialTesting.listRow(wb, CRED)[6]).as(resumed.toString()).isNotEqualTo("rejected");
        assertThat(resumed.exit()).as(resumed.toString()).isEqualTo(4);
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(site.requests().stream().filter(q -> q.method().equals("GET") && q.path().endsWith("/posts"))
                .map(WordPressSite.Seen::nonce).toList()).last().isEqualTo(site.nonce(renewed));
        Result r = wb.cli("confirm", "wp-daily", KEY, "--note", "checked the blog: it is not there");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).doesNotContain("runs again");
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).last().isEqualTo(site.nonce(renewed));
    }

    /**
     * The settings cookie every admin page sets is not a login: it is kept with the stored value (a later renewal
     * compares against it), but a key's timeline does not say so on every run. A run whose login cookies the site
     * did not touch has no CREDENTIAL_REFRESHED event.
     */
    @Test
    void theSettingsCookieOfEveryAdminPageIsKeptWithoutAnEventOnEveryRun() {
        storeLogin(site.logIn());
        String given = CredentialTesting.listedFingerprint(wb, CRED);

        assertThat(wb.cli("run", "wp-daily", "--key", KEY).exit()).isZero();
        String kept = CredentialTesting.listedFingerprint(wb, CRED);
        wb.clock.advance(Duration.ofDays(1));
        assertThat(wb.cli("run", "wp-daily", "--key", "2026-11-30").exit()).isZero();

        assertThat(kept).as("kept after the first run").isNotEqualTo(given);
        assertThat(CredentialTesting.listedFingerprint(wb, CRED)).as("and after the second").isNotEqualTo(kept);
        for (String key : List.of(KEY, "2026-11-30")) {
            assertThat(timeline(wb, "wp-daily", key).stream().map(e -> e.get("type").asText()))
                    .as(key).doesNotContain("CREDENTIAL_REFRESHED");
        }
    }

    /**
     * Every admin page sets {@code wp-settings-time-1}, so the stored login is refreshed by the site (a cookie
     * added) on every run. When the login then expires, giving the same cookies again is giving the value that was
     * rejected, and says so: nothing resumes to be parked again.
     */
    @Test
    void theSameLoginGivenAgainAfterTheSiteAddedItsSettingsCookieIsTheValueThatWasRejected() {
        String login = site.logIn();
        storeLogin(login);
        String given = CredentialTesting.listedFingerprint(wb, CRED);
        assertThat(wb.cli("run", "wp-daily", "--key", KEY).exit()).isZero();
        assertThat(CredentialTesting.listedFingerprint(wb, CRED)).as("the settings cookie is kept").isNotEqualTo(given);
        site.expireLogins();
        String next = "2026-11-30";
        wb.clock.advance(Duration.ofDays(1));
        assertThat(wb.cli("run", "wp-daily", "--key", next).exit()).isEqualTo(4);
        assertThat(status(wb, "wp-daily", next).get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");

        Result again = wb.cliWithInput(login, "credentials", "set", CRED);

        assertThat(again.exit()).as(again.toString()).isEqualTo(4);
        assertThat(again.out()).contains("this is the value that was rejected").contains("nothing resumes");
        assertThat(status(wb, "wp-daily", next).get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(CredentialTesting.listRow(wb, CRED)[6]).as("nothing is sent with it").isEqualTo("rejected");
    }

    /**
     * The REST nonce is as good as the login for as long as the session lives: marked {@code "secret": true}, it is
     * sent as before and masked wherever the key is shown (the admin page's body in the evidence of the step that
     * read it, the export, the timeline).
     */
    @Test
    void aNonceExtractedAsSecretIsSentButNeverShown() throws IOException {
        wb.job("wp-daily", JOB.replace("\"nonce\": { \"regex\": ", "\"nonce\": { \"secret\": true, \"regex\": "),
                site.base());
        String login = site.logIn();
        storeLogin(login);

        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        String nonce = site.nonce(login);
        assertThat(noncesPosted()).containsExactly(nonce);
        Result export = wb.cli("export", "--json", "wp-daily");
        Result timeline = wb.cli("timeline", "wp-daily", KEY, "--json");
        Result shown = wb.cli("timeline", "wp-daily", KEY);
        assertThat(export.out()).as("the export still has the admin page's evidence").contains("wpApiSettings")
                .doesNotContain(nonce);
        assertThat(timeline.out()).contains("wpApiSettings").doesNotContain(nonce);
        assertThat(shown.out() + r.out() + r.err()).doesNotContain(nonce);
    }

    /**
     * A post that waits for a person: Confirm shows the request it will send, the secret nonce masked in its
     * header as a login is.
     */
    @Test
    void confirmShowsTheSecretNonceMaskedInTheHeaderItWillSend() throws Exception {
        wb.job("wp-daily", JOB.replace("\"nonce\": { \"regex\": ", "\"nonce\": { \"secret\": true, \"regex\": ")
                .replace("\"effect\": \"unsafe\",", "\"effect\": \"unsafe\", \"confirm\": \"always\","), site.base());
        String login = site.logIn();
        storeLogin(login);
        Result r = wb.cli("run", "wp-daily", "--key", KEY);
        assertThat(status(wb, "wp-daily", KEY).get("state").asText()).as(r.toString()).isEqualTo("NEEDS_CONFIRMATION");

        try (io.keyline.workspace.Workspace ws = new io.keyline.workspace.Workspace(wb.state, wb.jobs, wb.options(),
                wb.env())) {
            var job = ws.catalog().job("wp-daily").orElseThrow();
            var payload = ws.operations().confirmAndRun().preview(job, KEY).payload();
            assertThat(payload.headers().stream().map(h -> h.shown()).toList()).as(payload.text())
                    .contains("X-WP-Nonce: ***").noneMatch(h -> h.contains(site.nonce(login)));
            assertThat(payload.text()).doesNotContain(site.nonce(login));
        }
    }

    /**
     * The plan shows the nonce header the way it shows a body field taken from an earlier step: where its value
     * comes from, not the placeholder of the job file; a URL that carries the nonce says the same inside it. The
     * login's cookie stays masked.
     */
    @Test
    void thePlanSaysWhereTheNonceHeaderAndAUrlWithTheNonceComeFrom() throws IOException {
        wb.job("wp-daily", JOB.replace("\"url\": \"BASE/wp-json/wp/v2/posts\"",
                "\"url\": \"BASE/wp-json/wp/v2/posts?_wpnonce={steps.nonce.outputs.nonce}\""), site.base());
        String login = site.logIn();
        storeLogin(login);

        Result plan = wb.cli("plan", "wp-daily", "--key", KEY);

        assertThat(plan.exit()).as(plan.toString()).isZero();
        String requests = plan.out().substring(plan.out().indexOf("PENDING"));
        assertThat(requests).as(plan.out())
                .contains("X-WP-Nonce: from step nonce: nonce (extracted at run time)")
                .contains("/wp-json/wp/v2/posts?_wpnonce={from step nonce: nonce (extracted at run time)}")
                .contains("Cookie: *** (credential wp, fingerprint")
                .doesNotContain("{steps.nonce.outputs.nonce}")
                .doesNotContain(login.substring(login.indexOf('=') + 1, login.indexOf(';')));
        JsonNode publish = com.fasterxml.jackson.databind.json.JsonMapper.builder().build()
                .readTree(wb.cli("plan", "wp-daily", "--key", KEY, "--json").out())
                .get("keys").get(0).get("requests").get(1);
        assertThat(publish.get("headers").get("X-WP-Nonce").asText())
                .isEqualTo("from step nonce: nonce (extracted at run time)");
    }

    /**
     * A probe that asks for {@code status=any} without the nonce is anonymous, and WordPress answers it
     * {@code 400 rest_invalid_param}, every time: asking again waits for nothing. Nothing was sent yet, so the key
     * fails at once with the site's answer named, and the post is not made.
     */
    @Test
    void aProbeTheSiteRefusesWith400FailsTheKeyAtOnceNamingTheAnswer() throws IOException {
        String header = "\"headers\": { \"X-WP-Nonce\": \"{steps.nonce.outputs.nonce}\" },";
        int probes = JOB.lastIndexOf(header);
        wb.job("wp-daily", JOB.substring(0, probes) + JOB.substring(probes + header.length()), site.base());
        storeLogin(site.logIn());
        Result plan = wb.cli("plan", "wp-daily", "--key", KEY);
        assertThat(plan.out()).as(plan.toString())
                .contains("the probe of publish is refused as it asks, and would be again: the key fails");

        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        JsonNode st = status(wb, "wp-daily", KEY);
        assertThat(st.get("state").asText()).as(r.toString()).isEqualTo("FAILED");
        assertThat(st.get("class").asText()).isEqualTo("FATAL");
        assertThat(st.get("message").asText()).contains("HTTP 400").contains("rest_invalid_param");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        // the run's line and its log say what the key's message says: refused, not inconclusive
        assertThat(r.out()).contains("probe:refused").doesNotContain("probe:inconclusive");
        assertThat(Files.readString(wb.state.resolve("logs").resolve("runs.jsonl"), StandardCharsets.UTF_8))
                .contains("\"result\":\"probe:refused\"").doesNotContain("probe:inconclusive");
        assertThat(wb.sleeps).as("nothing to wait for").isEmpty();
        assertThat(site.requests().stream().filter(q -> "status=any".equals(param(q.query()))).count())
                .as("the probe is asked once by the plan and once by the run").isEqualTo(2);
        assertThat(site.posts(SLUG)).isZero();
    }

    /**
     * A refused probe is refused wherever it is read: the plan, the timeline (as recorded, as JSON and in the
     * console's words), the export, the key's status. None of them says "inconclusive" or "no clear answer" of a
     * question the site will never answer.
     */
    @Test
    void aRefusedProbeReadsRefusedInThePlanTheTimelineTheExportAndTheConsole() throws Exception {
        String header = "\"headers\": { \"X-WP-Nonce\": \"{steps.nonce.outputs.nonce}\" },";
        int probes = JOB.lastIndexOf(header);
        wb.job("wp-daily", JOB.substring(0, probes) + JOB.substring(probes + header.length()), site.base());
        storeLogin(site.logIn());
        Result plan = wb.cli("plan", "wp-daily", "--key", KEY);
        assertThat(plan.out()).as(plan.toString()).contains("refused").doesNotContain("no clear answer");
        assertThat(wb.cli("run", "wp-daily", "--key", KEY).exit()).isEqualTo(2);

        for (String[] args : List.of(new String[] {"timeline", "wp-daily", KEY},
                new String[] {"timeline", "wp-daily", KEY, "--json"}, new String[] {"export", "--json"},
                new String[] {"status", "--json"}, new String[] {"status"})) {
            Result r = wb.cli(args);
            assertThat(r.out()).as(String.join(" ", args) + ": " + r).contains("refused")
                    .doesNotContain("inconclusive");
        }
        try (io.keyline.workspace.Workspace ws = new io.keyline.workspace.Workspace(wb.state, wb.jobs, wb.options(),
                wb.env())) {
            assertThat(consoleMessages(ws)).anySatisfy(m -> assertThat(m).startsWith("refused: ").contains("HTTP 400"))
                    .noneMatch(m -> m.contains("no clear answer"));
            assertThat(io.keyline.core.operations.Words.keyMessage(ws.operations().key("wp-daily", KEY).orElseThrow()))
                    .startsWith("refused: ").doesNotContain("no clear answer");
        }

        // a state written before a refused question had words of its own kept it as "no answer" whose reason is the
        // refused question: the console still says refused
        try (io.keyline.store.h2.H2Database db = io.keyline.store.h2.H2Database.open(wb.state);
             java.sql.Connection c = db.adminConnection()) {
            assertThat(asWrittenBefore(c, "key_event", "event_type = 'KEY_FAILED'")).isOne();
            assertThat(asWrittenBefore(c, "key_state", "key_value = '" + KEY + "'")).isOne();
        }
        try (io.keyline.workspace.Workspace ws = new io.keyline.workspace.Workspace(wb.state, wb.jobs, wb.options(),
                wb.env())) {
            assertThat(ws.operations().key("wp-daily", KEY).orElseThrow().said().english())
                    .contains("asking again gets the same (inconclusive)");
            assertThat(consoleMessages(ws)).anySatisfy(m -> assertThat(m).startsWith("refused: ").contains("HTTP 400"))
                    .noneMatch(m -> m.contains("no clear answer"));
            assertThat(io.keyline.core.operations.Words.keyMessage(ws.operations().key("wp-daily", KEY).orElseThrow()))
                    .startsWith("refused: ").doesNotContain("no clear answer");
        }
    }

    /**
     * Rewrites the words of the rows of {@code table} that {@code where} picks as a state written before a refused
     * question had words of its own kept them: {@code probeNoAnswer(refusedQuestion(answer))}.
     */
    private static int asWrittenBefore(java.sql.Connection c, String table, String where) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        int n = 0;
        try (java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT message_said FROM " + table + " WHERE " + where)) {
            while (rs.next()) {
                String said = rs.getString(1);
                com.fasterxml.jackson.databind.node.ObjectNode root =
                        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(said);
                com.fasterxml.jackson.databind.node.ObjectNode answer =
                        (com.fasterxml.jackson.databind.node.ObjectNode) root.get("args").get(0);
                assertThat(answer.get("key").asText()).isEqualTo("core.exec.probeRefused");
                com.fasterxml.jackson.databind.node.ObjectNode why = json.createObjectNode();
                why.put("key", "core.exec.refusedQuestion");
                why.set("args", answer.get("args"));
                answer.put("key", "core.exec.probeNoAnswer");
                answer.set("args", json.createArrayNode().add(why));
                try (java.sql.PreparedStatement up = c.prepareStatement("UPDATE " + table
                        + " SET message_said = ? WHERE message_said = ? AND " + where)) {
                    up.setString(1, json.writeValueAsString(root));
                    up.setString(2, said);
                    n += up.executeUpdate();
                }
            }
        }
        return n;
    }

    /** What the console's timeline says for each event of the key, in the language in use. */
    private static List<String> consoleMessages(io.keyline.workspace.Workspace ws) {
        List<String> out = new ArrayList<>();
        for (io.keyline.core.operations.Timeline.Row r : ws.operations().timeline(java.util.Optional.empty(),
                "wp-daily", KEY).rows()) {
            if (r instanceof io.keyline.core.operations.Timeline.EventRow e) {
                out.add(e.message());
            }
        }
        return out;
    }

    /**
     * The job's own probe asks the same question and gets the same {@code 400}: a probe that is refused for how it
     * asks cannot tell for any key, and the key says so before any step runs.
     */
    @Test
    void theJobsProbeRefusedWith400FailsTheKeyBeforeAnyStep() throws IOException {
        wb.job("wp-daily", JOB.replace("posts?slug=daily-{key}\",", "posts?slug=daily-{key}&status=any\","),
                site.base());
        storeLogin(site.logIn());
        Result plan = wb.cli("plan", "wp-daily", "--key", KEY);
        assertThat(plan.out()).as(plan.toString())
                .contains("the job's probe is refused as it asks, and would be again: the key fails before any step")
                .doesNotContain("run nonce");

        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        JsonNode st = status(wb, "wp-daily", KEY);
        assertThat(st.get("state").asText()).as(r.toString()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("HTTP 400").contains("rest_invalid_param");
        assertThat(wb.sleeps).isEmpty();
        assertThat(site.requests()).as("no step ran: the plan's probe and the run's").hasSize(2);
        assertThat(site.posts(SLUG)).isZero();
    }

    private static String param(String query) {
        return query == null || !query.contains("status=") ? null : query.substring(query.indexOf("status="));
    }

    /**
     * After an expired session WordPress shows its login page as {@code wp-login.php?redirect_to=…&reauth=1}, and
     * that address is what a person copies as the login URL. A later expiry on the admin page redirects to the same
     * page with another return address: a rejected login (the key waits for a new one), not a failed key.
     */
    @Test
    void aLoginUrlCopiedWithItsReturnAddressStillReadsAnExpiredSessionAsARejectedLogin() {
        String login = site.logIn();
        String copied = site.loginUrl() + "?redirect_to=" + java.net.URLEncoder.encode(site.base() + "/wp-admin/",
                java.nio.charset.StandardCharsets.UTF_8) + "&reauth=1";
        Result set = wb.cliWithInput(login, "credentials", "set", CRED, "--login-url", copied);
        assertThat(set.exit()).as(set.toString()).isZero();
        site.expireLogins();

        Result r = wb.cli("run", "wp-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status(wb, "wp-daily", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("message").asText()).contains("redirect to the login page");
        assertThat(CredentialTesting.listRow(wb, CRED)[6]).isEqualTo("rejected");
        assertThat(site.posts(SLUG)).isZero();
    }
}
