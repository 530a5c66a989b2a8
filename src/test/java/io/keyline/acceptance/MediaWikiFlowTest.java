package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.MediaWikiSite;
import io.keyline.testing.MediaWikiSite.Seen;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The day's journal created as a page on a wiki shaped like MediaWiki, through its action API, by the job shipped
 * as {@code resources/jobs/examples/wiki-page.json}, driven through the real command line (and a child process for
 * the SIGKILL): a command writes the text, {@code meta=tokens} gives the session's CSRF token ({@code +\} when the
 * login is gone), an unsafe {@code action=edit} with {@code createonly} and {@code assert=user} creates the page,
 * guarded by a probe on {@code pages[0].missing}. The site counts the edits that made each page: one per key,
 * whatever happened on the way.
 */
class MediaWikiFlowTest {

    static final String KEY = "2026-11-29";
    static final String TITLE = "Journal/" + KEY;
    static final String CRED = "wiki";
    static final Path EXAMPLE = Path.of("resources/jobs/examples/wiki-page.json");

    @TempDir
    Path tmp;
    Workbench wb;
    MediaWikiSite site;
    String cookies;

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new MediaWikiSite();
        Files.createDirectories(wb.jobs.resolve("scripts"));
        Files.copy(Path.of("resources/jobs/scripts/write-journal.sh"),
                wb.jobs.resolve("scripts").resolve("write-journal.sh"));
        job(Files.readString(EXAMPLE, StandardCharsets.UTF_8));
    }

    @AfterEach
    void close() throws IOException {
        site.close();
    }

    void job(String text) throws IOException {
        Files.writeString(wb.jobs.resolve("wiki-page.json"), text.replace("https://wiki.example.org", site.base()),
                StandardCharsets.UTF_8);
    }

    /** The save gives up on an answer after two seconds instead of a minute. */
    void quickSave() throws IOException {
        String text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
        assertThat(text).contains("\"timeout\": \"PT1M\"");
        job(text.replace("\"timeout\": \"PT1M\"", "\"timeout\": \"PT2S\""));
    }

    /** Stores the browser's cookies.txt as the operator does, with the page where a person logs in. */
    void storeLogin() throws IOException {
        cookies = site.logIn();
        Path file = tmp.resolve("cookies.txt");
        Files.writeString(file, cookies, StandardCharsets.UTF_8);
        Result r = wb.cli("credentials", "set", CRED, "--login-url", site.loginUrl(), "--from-file", file.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    Result run() {
        return wb.cli("run", "wiki-page", "--key", KEY);
    }

    String state() {
        return status(wb, "wiki-page", KEY).get("state").asText();
    }

    /** Every token the site gave and every cookie value it set or was sent: none may be shown. */
    List<String> secrets() {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\t(my_wiki\\w+)\t(\\S+)").matcher(cookies);
        while (m.find()) {
            if (!m.group(1).equals(MediaWikiSite.USER_ID) && !m.group(1).equals(MediaWikiSite.USER_NAME)) {
                out.add(m.group(2));
            }
        }
        for (Seen q : site.requests()) {
            String t = q.param("token");
            if (t != null && t.length() > MediaWikiSite.SUFFIX.length()) {
                out.add(t);
                out.add(t.substring(0, 32));
            }
            Matcher c = Pattern.compile(MediaWikiSite.SESSION + "=([0-9a-f]+)").matcher(String.valueOf(q.cookie()));
            while (c.find()) {
                out.add(c.group(1));
            }
        }
        return out;
    }

    /** What Keyline shows of the key anywhere: run output, export, timeline, status, the run log. */
    void nothingShownHoldsASecret(Result... runs) throws IOException {
        List<String> shown = new ArrayList<>();
        for (Result r : runs) {
            shown.add(r.out() + r.err());
        }
        for (Result r : List.of(wb.cli("export", "--json", "wiki-page"), wb.cli("timeline", "wiki-page", KEY, "--json"),
                wb.cli("timeline", "wiki-page", KEY), wb.cli("status", "wiki-page", "--json"),
                wb.cli("credentials", "list"))) {
            assertThat(r.exit()).as(r.toString()).isZero();
            shown.add(r.out() + r.err());
        }
        Path log = wb.logs().resolve("runs.jsonl");
        if (Files.exists(log)) {
            shown.add(Files.readString(log, StandardCharsets.UTF_8));
        }
        List<String> secrets = secrets();
        assertThat(secrets).isNotEmpty();
        for (String text : shown) {
            for (String s : secrets) {
                assertThat(text).as("a token or cookie is shown").doesNotContain(s);
                assertThat(text).as("a token or cookie is shown JSON-escaped")
                        .doesNotContain(s.replace("\\", "\\\\"));
            }
        }
    }

    @Test
    void theDaysPageIsCreatedOnceWithTheTokenAsTheWikiGaveIt() throws IOException {
        assertThat(Files.readString(Path.of("docs/job-files.md"), StandardCharsets.UTF_8))
                .as("the docs show the shipped example as it is")
                .contains(Files.readString(EXAMPLE, StandardCharsets.UTF_8).strip());
        storeLogin();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.page(TITLE).author()).isEqualTo(MediaWikiSite.USER);
        assertThat(site.page(TITLE).text()).contains("== Journal " + KEY + " ==").contains("[[Category:Journal]]");
        Seen edit = site.requests().stream().filter(q -> "edit".equals(q.param("action"))).findFirst().orElseThrow();
        assertThat(edit.param("token")).as("+ and \\ arrive as they were given").endsWith("+\\").hasSize(32 + 8 + 2);
        Result again = run();
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.edits()).as("a done key sends nothing").isEqualTo(1);
        nothingShownHoldsASecret(r, again);
    }

    /** The session the cookies.txt holds expired on the server: the remember-me cookie opens one, the token is its. */
    @Test
    void aSessionTheWikiForgotIsOpenedAgainByTheRememberMeCookieAndThePageCreatedOnce() throws IOException {
        storeLogin();
        site.expireSessions();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.page(TITLE).author()).isEqualTo(MediaWikiSite.USER);
        nothingShownHoldsASecret(r);
    }

    @Test
    void aSaveWhoseAnswerWasLostIsFoundByTheProbeAndNotSentAgain() throws IOException {
        quickSave();
        storeLogin();
        site.holdAfterSave();

        Result r = run();

        site.release();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.edits()).isEqualTo(1);
        nothingShownHoldsASecret(r);
    }

    @Test
    void aConnectionResetAfterTheSaveIsFoundByTheProbeAndNotSentAgain() throws IOException {
        storeLogin();
        site.resetAfterSave();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.edits()).isEqualTo(1);
    }

    @Test
    void aRunKilledDuringTheSaveLeavesOnePage() throws Exception {
        wb.clock.followSystemClock();
        storeLogin();
        site.holdAfterSave();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", "wiki-page", "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the edit reached the wiki").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.edits()).isEqualTo(1);
    }

    /**
     * The login is gone (the remember-me token no longer matches): the wiki answers the token query with {@code 200}
     * and the anonymous token {@code +\}. The key waits for the login, nothing is saved (not even as an IP), and the
     * renewed login creates the page once.
     */
    @Test
    void anExpiredLoginsAnonymousTokenParksTheKeyAndTheRenewedLoginSavesOnce() throws IOException {
        storeLogin();
        site.expireLogins();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, "wiki-page", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        // the token as the wiki gave it, two characters: not as JSON writes it ("+\\")
        assertThat(st.get("message").asText()).contains("/query/tokens/csrftoken = \"+\\\"")
                .doesNotContain("+\\\\");
        assertThat(parked.out()).contains("/query/tokens/csrftoken = \"+\\\"").doesNotContain("+\\\\");
        assertThat(site.edits()).as("the +\\ token is never sent").isZero();
        long tokenQueries = site.requests().stream().filter(q -> "tokens".equals(q.param("meta"))).count();
        assertThat(tokenQueries).as("a rejected login is not asked again and again").isEqualTo(1);
        Result still = run();
        assertThat(still.exit()).as(still.toString()).isEqualTo(4);
        assertThat(site.requests().stream().filter(q -> "tokens".equals(q.param("meta"))).count())
                .as("nothing is sent with a rejected login").isEqualTo(tokenQueries);

        storeLogin();
        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.page(TITLE).author()).isEqualTo(MediaWikiSite.USER);
        nothingShownHoldsASecret(parked, still, r);
    }

    /** The login ends between the token and the save: {@code assertuserfailed}. Renewed, a new token, one save. */
    @Test
    void aLoginThatEndsBeforeTheSaveParksTheKeyAndResumesWithATokenOfTheNewSession() throws IOException {
        storeLogin();
        site.expireAtNextEdit();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, "wiki-page", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("message").asText()).contains("assertuserfailed");
        assertThat(site.saves(TITLE)).isZero();
        long tokensBefore = site.requests().stream().filter(q -> "tokens".equals(q.param("meta"))).count();

        storeLogin();
        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.requests().stream().filter(q -> "tokens".equals(q.param("meta"))).count())
                .as("a token of the new session").isEqualTo(tokensBefore + 1);
        nothingShownHoldsASecret(parked, r);
    }

    /** maxlag answers 200 with Retry-After: the save waits at least that long and goes out once. */
    @Test
    void aLaggedWikiIsWaitedForAsItAsksAndThePageSavedOnce() throws IOException {
        storeLogin();
        Instant before = wb.clock.instant();
        site.lagged(12, 1);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isIn(0, 5);
        if (r.exit() == 5) {
            JsonNode st = status(wb, "wiki-page", KEY);
            assertThat(st.get("state").asText()).isEqualTo("RETRY_WAIT");
            assertThat(Instant.parse(st.get("nextAttemptAt").asText())).isAfterOrEqualTo(before.plusSeconds(5));
            wb.clock.advance(Duration.ofMinutes(1));
            r = run();
        } else {
            assertThat(wb.sleeps.stream().mapToLong(Duration::toSeconds).sum()).isGreaterThanOrEqualTo(5);
        }
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
    }

    /**
     * The save's probe asks with {@code maxlag} while the replicas lag: the wiki answers {@code maxlag} with
     * {@code Retry-After} (here 30 seconds, for {@code maxlag=30}). The probe is asked again after that wait, as a
     * save answered so would be, not after the retry policy's shorter first delay.
     */
    @Test
    void aProbeAnsweredMaxlagIsAskedAgainAfterTheWaitTheWikiAsks() throws IOException {
        String text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
        assertThat(text).contains("&maxlag=5\"");
        job(text.replace("&maxlag=5\"", "&maxlag=30\""));
        storeLogin();
        site.laggedQueries(45, 2);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(wb.sleeps).as(r.toString()).anyMatch(d -> d.toSeconds() >= 30);
        assertThat(timeline(wb, "wiki-page", KEY).stream()
                .filter(e -> e.get("type").asText().equals("RETRY_SCHEDULED")).map(e -> e.get("message").asText()))
                .singleElement().asString().contains("maxlag").contains("(Retry-After 30s)");
    }

    @Test
    void aRateLimitedSaveIsTriedAgainLaterAndSavedOnce() throws IOException {
        storeLogin();
        site.rateLimited(1);
        savedOnceAfterOneRefusal();
    }

    @Test
    void aSaveWhileTheWikiIsReadOnlyIsTriedAgainLaterAndSavedOnce() throws IOException {
        storeLogin();
        site.readOnly(1);
        savedOnceAfterOneRefusal();
    }

    /**
     * An applied plan showed write, token, save; the wiki answers the save ratelimited, and the retry goes back to
     * token as the job says ({@code retryFrom}). That is the plan's own path, not a departure from it: the page is
     * saved once.
     */
    @Test
    void anAppliedPlanWhoseSaveIsRetriedFromTheTokenStaysOnItsPlan() throws IOException {
        storeLogin();
        Result plan = wb.cli("plan", "wiki-page", "--key", KEY);
        assertThat(plan.exit()).as(plan.toString()).isZero();
        Matcher id = Pattern.compile("keyline apply ([0-9a-f]+)").matcher(plan.out());
        assertThat(id.find()).as(plan.out()).isTrue();
        site.rateLimited(1);

        Result r = wb.cli("apply", id.group(1));

        if (r.exit() == 5) {
            wb.clock.advance(Duration.ofMinutes(5));
            r = wb.cli("run", "wiki-page", "--key", KEY);
        }
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.edits()).isEqualTo(2);
    }

    /** The wiki refuses the first save and asks to try later: the retry saves once, nothing is saved twice. */
    void savedOnceAfterOneRefusal() {
        Result r = run();

        if (r.exit() == 5) {
            assertThat(state()).isEqualTo("RETRY_WAIT");
            wb.clock.advance(Duration.ofMinutes(5));
            r = run();
        }
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
        assertThat(site.edits()).isEqualTo(2);
    }

    /** A person wrote the day's page already: the job's probe finds it and nothing is saved over it. */
    @Test
    void aPageAPersonWroteIsLeftAsItIs() throws IOException {
        storeLogin();
        site.writeByHand(TITLE, "Written by Alice.");

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.edits()).isZero();
        assertThat(site.page(TITLE).text()).isEqualTo("Written by Alice.");
        assertThat(site.requests().stream().filter(q -> "tokens".equals(q.param("meta"))).count())
                .as("no token is asked for work that is there").isZero();
    }

    /**
     * A save whose answer never came, that the wiki never got: the probe finds no page and a person is asked. When
     * the person confirms, the wiki has forgotten the session the token belongs to and opens a new one from the
     * remember-me cookie: the save is refused {@code badtoken} (nothing was done). The retry goes back to the token
     * step ({@code retryFrom}) and the page is created once, with a token of the session the save is sent with.
     */
    @Test
    void aSaveConfirmedAfterTheSessionEndedIsSentWithATokenOfTheNewSession() throws IOException {
        quickSave();
        storeLogin();
        site.loseNextEdit();
        Result lost = run();
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(site.saves(TITLE)).isZero();
        site.expireSessions();
        wb.clock.advance(Duration.ofMinutes(20));

        Result confirmed = wb.cli("confirm", "wiki-page", KEY, "--note", "checked the wiki: no page");

        assertThat(site.saves(TITLE)).as(confirmed.toString()).isEqualTo(1);
        assertThat(state()).as(status(wb, "wiki-page", KEY).toString()).isEqualTo("DONE");
        assertThat(site.requests().stream().filter(q -> "edit".equals(q.param("action"))).map(q -> q.param("token"))
                .distinct().count()).as("the retry sends a token of the new session").isEqualTo(2);
        assertThat(timeline(wb, "wiki-page", KEY).stream().map(e -> e.get("message").asText()))
                .anyMatch(m -> m.contains("first it goes back to step token: token run again"));
        nothingShownHoldsASecret(lost, confirmed);
    }

    /**
     * A save whose answer was lost waits for a person, who confirms it three hours later; the wiki answers the
     * confirmed edit {@code ratelimited} (nothing done, try later). The wait is kept and the page saved once: the
     * step's time budget ({@code maxElapsed}) counts from the attempt the person confirmed, not from the lost one.
     */
    @Test
    void aConfirmedSaveTheWikiAsksToSendLaterIsSentLaterInsteadOfFailing() throws IOException {
        quickSave();
        storeLogin();
        site.loseNextEdit();
        Result lost = run();
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CONFIRMATION");
        wb.clock.advance(Duration.ofHours(3));
        site.rateLimited(1);

        Result confirmed = wb.cli("confirm", "wiki-page", KEY, "--note", "checked the wiki: no page");

        if (confirmed.exit() == 5) {
            assertThat(state()).isEqualTo("RETRY_WAIT");
            wb.clock.advance(Duration.ofMinutes(5));
            confirmed = run();
        }
        assertThat(state()).as(confirmed.toString()).isEqualTo("DONE");
        assertThat(site.saves(TITLE)).isEqualTo(1);
    }

    /**
     * A private wiki answers a gone login's question about the page {@code readapidenied}: the job's probe parks the
     * key before any step runs, and the renewed login saves once.
     */
    @Test
    void onAPrivateWikiTheJobsProbeParksAGoneLoginBeforeAnyStep() throws IOException {
        site.makePrivate();
        storeLogin();
        site.expireLogins();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, "wiki-page", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("message").asText()).startsWith("credential wiki was rejected by the job's probe")
                .contains("readapidenied");
        assertThat(site.requests()).as("nothing but the probe was asked").hasSize(1);
        storeLogin();
        Result r = run();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.saves(TITLE)).isEqualTo(1);
    }

    /**
     * {@code keyline credentials test wiki} tells a gone login ({@code +\} from the token query, though the public
     * wiki answers the probes) from a live one whose session the wiki opens again from the remember-me cookie.
     */
    @Test
    void credentialsTestTellsAGoneLoginFromOneTheRememberMeCookieKeepsAlive() throws IOException {
        storeLogin();
        site.expireSessions();
        Result alive = wb.cli("credentials", "test", CRED, "--key", KEY);
        assertThat(alive.exit()).as(alive.toString()).isZero();

        site.expireLogins();
        Result gone = wb.cli("credentials", "test", CRED, "--key", KEY);

        assertThat(gone.exit()).as(gone.toString()).isEqualTo(2);
        assertThat(gone.out() + gone.err()).contains("rejected");
        assertThat(site.edits()).isZero();
    }

    /**
     * A person creates the day's page between the save's probe and the save: MediaWiki refuses the edit
     * {@code articleexists} (createonly). Nothing of the job's was saved; the key fails for a person to look, and what
     * it says does not claim the save may have made the page.
     */
    @Test
    void aPageAPersonCreatesJustBeforeTheSaveIsRefusedAndTheKeySaysTheSaveDidNothing() {
        storeLogin0();
        site.writeByHandBeforeNextEdit(TITLE);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(site.page(TITLE).author()).isEqualTo("Alice");
        assertThat(site.saves(TITLE)).isEqualTo(1);
        JsonNode st = status(wb, "wiki-page", KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("articleexists")
                .contains("the site's answer says it refused the request, nothing was done")
                .doesNotContain("may have done it");
    }

    /**
     * A probe whose {@code refusedWhen} meets the answer is a question the site refuses as it is asked: the key
     * fails before anything is sent, with the wiki's words, instead of asking the same question again.
     */
    @Test
    void aProbeTheWikiRefusesFailsTheKeyBeforeAnythingIsSent() throws IOException {
        String text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
        String jobProbeRule = "\"response\": { \"authWhen\": { \"jsonPointer\": \"/error/code\", \"equals\": \"readapidenied\" },";
        assertThat(text).contains(jobProbeRule);
        job(text.replaceFirst(java.util.regex.Pattern.quote(jobProbeRule),
                "\"response\": { \"refusedWhen\": { \"jsonPointer\": \"/error/code\", \"exists\": true },"));
        site.makePrivate();
        storeLogin();
        site.expireLogins();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, "wiki-page", KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("readapidenied");
        assertThat(site.requests()).as("only the probe was asked").hasSize(1);
    }

    /**
     * The wiki wants a CAPTCHA for the edit: {@code 200 {"edit": {"captcha": {…}, "result": "Failure"}}}. Nothing
     * was saved; the key fails saying the wiki refused it, and does not send the edit again by itself.
     */
    @Test
    void anEditTheWikiHoldsForACaptchaFailsAsARefusalAndIsNotSentAgain() {
        storeLogin0();
        site.requireCaptcha();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(site.saves(TITLE)).isZero();
        assertThat(site.edits()).isEqualTo(1);
        JsonNode st = status(wb, "wiki-page", KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("captcha")
                .contains("the site's answer says it refused the request, nothing was done")
                .doesNotContain("may have done it");
    }

    void storeLogin0() {
        try {
            storeLogin();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
