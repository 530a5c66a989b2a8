package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.DiscourseSite;
import io.keyline.testing.DiscourseSite.Seen;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 09:00 article published as a topic on a forum shaped like Discourse, driven through the real command line:
 * a command writes the article, an XHR to {@code /session/csrf} gives the session's token, an unsafe
 * {@code POST /posts.json} with {@code X-CSRF-Token} makes the topic, guarded by a probe on the topic's slug
 * ({@code /t/SLUG.json}: {@code 301} when it is there, {@code 404} when not) that reads the site's
 * {@code Discourse-Logged-Out} header as a rejected login. The site counts the topics made under each title: one
 * per key, whatever happened on the way.
 */
class DiscourseFlowTest {

    static final String KEY = "2026-11-29";
    static final String TITLE = "Daily " + KEY;
    static final String CRED = "forum";

    static final String PROBE = """
            { "kind": "http", "method": "GET", CRED_FIELD
              "url": "BASE/t/daily-{key}.json",
              "response": { "authWhen": { "header": "Discourse-Logged-Out", "matches": "1" },
                            "successWhen": { "status": [301, 404] } },
              "presentWhen": { "status": [301] } }""";

    static final String JOB = """
            { "name": "forum-daily", "key": { "type": "date", "zone": "UTC" },
              "probe": JOB_PROBE,
              "steps": [
                { "id": "write", "kind": "command", "effect": "none", "command": ["sh", "write.sh", "{key}"] },
                { "id": "csrf", "kind": "http", "effect": "none", "credential": "forum",
                  "request": { "method": "GET", "url": "BASE/session/csrf",
                               "headers": { "X-Requested-With": "XMLHttpRequest" } },
                  "response": { "authWhen": { "header": "Discourse-Logged-Out", "matches": "1" } },
                  "extract": { "token": { "json": "/csrf" } } },
                { "id": "publish", "kind": "http", "effect": "unsafe", "credential": "forum", "timeout": "PT2S",
                  "retryFrom": "csrf",
                  "request": { "method": "POST", "url": "BASE/posts.json",
                               "headers": { "X-CSRF-Token": "{steps.csrf.outputs.token}",
                                            "X-Requested-With": "XMLHttpRequest" },
                               "json": { "title": "Daily {key}", "raw": "{steps.write.outputs.text}",
                                         "category": 5 EXTRA } },
                  "response": {
                    "authWhen": { "jsonPointer": "/error_type", "equals": "not_logged_in" },
                    "retryWhen": { "bodyContains": "BAD CSRF" },
                    "successWhen": { "all": [ { "status": [200] },
                                              { "jsonPointer": "/topic_slug", "equals": "daily-{key}" } ] } },
                  "probe": STEP_PROBE } ] }
            """;

    @TempDir
    Path tmp;
    Workbench wb;
    DiscourseSite site;

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new DiscourseSite();
        Files.writeString(wb.jobs.resolve("write.sh"), """
                printf '{"outputs": {"text": "Good morning. The article of %s, written at 09:00."}}\\n' "$1"
                """, StandardCharsets.UTF_8);
        wb.job("forum-daily", job(PROBE), site.base());
    }

    @AfterEach
    void close() {
        site.close();
    }

    static String job(String probe) {
        return job(probe, probe, "");
    }

    static String job(String jobProbe, String stepProbe, String extra) {
        return JOB.replace("JOB_PROBE", jobProbe.replace("CRED_FIELD", "\"credential\": \"forum\","))
                .replace("STEP_PROBE", stepProbe.replace("CRED_FIELD", "")).replace("EXTRA", extra);
    }

    void storeLogin(String cookies) {
        Result r = wb.cliWithInput(cookies, "credentials", "set", CRED, "--login-url", site.loginUrl());
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    long posts() {
        return site.requests().stream().filter(q -> q.method().equals("POST")).count();
    }

    @Test
    void theDailyTopicIsPostedOnceWithTheTokenOfTheSessionItCameFrom() {
        storeLogin(site.logIn());

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.created(TITLE)).isEqualTo(1);
        Result again = wb.cli("run", "forum-daily", "--key", KEY);
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(posts()).as("a done key sends nothing").isEqualTo(1);
    }

    /**
     * A login copied as its {@code _t} cookie alone: the CSRF answer opens a session ({@code _forum_session}), the
     * stored login keeps it, and the POST carries the session its token belongs to.
     */
    @Test
    void theSessionCookieTheCsrfAnswerSetsGoesWithThePostItsTokenBelongsTo() {
        storeLogin(site.logIn().replaceFirst("; _forum_session=[0-9a-f]+", ""));

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.created(TITLE)).isEqualTo(1);
        assertThat(timeline(wb, "forum-daily", KEY).stream().map(e -> e.get("type").asText()))
                .contains("CREDENTIAL_REFRESHED");
    }

    /** The site stored the topic and its answer never came: the slug probe finds it, nothing is posted again. */
    @Test
    void aTopicStoredWhileItsAnswerWasLostIsFoundByTheProbeAndNotPostedAgain() {
        storeLogin(site.logIn());
        site.holdAfterStore();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        site.release();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(site.created(TITLE)).isEqualTo(1);
        assertThat(site.attempts(TITLE)).isEqualTo(1);
    }

    /** Keyline killed (SIGKILL) while the site holds the answer to a topic it stored: the next run finds it. */
    @Test
    void aRunKilledWhileTheSiteHoldsThePostLeavesOneTopic() throws Exception {
        wb.clock.followSystemClock();
        storeLogin(site.logIn());
        site.holdAfterStore();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", "forum-daily", "--key",
                KEY);
        assertThat(site.awaitHeld(60)).as("the POST reached the site").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(site.created(TITLE)).isEqualTo(1);
        assertThat(site.attempts(TITLE)).isEqualTo(1);
    }

    /** Discourse's rate limit: 429 with Retry-After (and extras.wait_seconds); the post goes out once, later. */
    @Test
    void theRateLimitsRetryAfterIsWaitedAndTheTopicIsPostedOnce() {
        storeLogin(site.logIn());
        site.busy(429, 1, "120");
        Instant before = wb.clock.instant();

        Result busy = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(busy.exit()).as(busy.toString()).isEqualTo(5);
        JsonNode st = status(wb, "forum-daily", KEY);
        assertThat(st.get("state").asText()).isEqualTo("RETRY_WAIT");
        assertThat(Instant.parse(st.get("nextAttemptAt").asText())).isAfterOrEqualTo(before.plusSeconds(120));
        wb.clock.advance(Duration.ofMinutes(3));
        Result r = wb.cli("run", "forum-daily", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.created(TITLE)).isEqualTo(1);
    }

    /**
     * {@code status} counts the attempts of the step the key is at: 1 of publish while the key waits for the
     * forum's rate limit. A done key is at no step: its ATTEMPTS cell says so as its STEP cell does ({@code -}) and
     * {@code attempts} is null, not a 0 that reads as "never tried" for a key whose topic went out on the second
     * attempt.
     */
    @Test
    void statusCountsTheAttemptsOfTheStepAKeyIsAtAndNoneForADoneKey() {
        storeLogin(site.logIn());
        site.busy(429, 1, "120");
        wb.cli("run", "forum-daily", "--key", KEY);
        JsonNode waiting = status(wb, "forum-daily", KEY);
        assertThat(waiting.get("step").asText()).isEqualTo("publish");
        assertThat(waiting.get("attempts").asInt()).isEqualTo(1);
        wb.clock.advance(Duration.ofMinutes(3));
        assertThat(wb.cli("run", "forum-daily", "--key", KEY).exit()).isZero();

        JsonNode done = status(wb, "forum-daily", KEY);
        Result table = wb.cli("status", "forum-daily");

        assertThat(done.get("state").asText()).isEqualTo("DONE");
        assertThat(done.get("attempts").isNull()).as(done.toString()).isTrue();
        List<String> lines = table.out().lines().toList();
        String header = lines.stream().filter(l -> l.contains("ATTEMPTS")).findFirst().orElseThrow();
        String row = lines.stream().filter(l -> l.contains(KEY)).findFirst().orElseThrow();
        int at = header.indexOf("ATTEMPTS");
        assertThat(row.substring(at, at + "ATTEMPTS".length()).strip()).as(table.out()).isEqualTo("-");
    }

    /**
     * An expired login: Discourse answers anonymously with {@code Discourse-Logged-Out: 1} (a topic only members
     * see is a 404 then). The key waits for the login before anything is posted, and the renewed one posts once.
     */
    @Test
    void anExpiredLoginParksTheKeyBeforeThePostAndTheRenewedLoginPostsOnce() {
        storeLogin(site.logIn());
        site.expireLogins();

        Result parked = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        // the job's probe met the rejected login, before any step: the words name it, not the step the key waits at
        assertThat(status(wb, "forum-daily", KEY).get("message").asText())
                .startsWith("credential forum was rejected by the job's probe, before any step ran: ");
        assertThat(parked.out()).contains("key probe rejected the credential").doesNotContain("write #0 parked");
        assertThat(posts()).isZero();
        storeLogin(site.logIn());
        Result r = wb.cli("run", "forum-daily", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.created(TITLE)).isEqualTo(1);
    }

    /** The example of docs/job-files.md, shipped with its script, posts the day's topic once on the forum. */
    @Test
    void theShippedExamplePostsTheDaysTopicOnce() throws IOException {
        Path example = Path.of("resources/jobs/examples/forum-topic.json");
        String text = Files.readString(example, StandardCharsets.UTF_8);
        assertThat(Files.readString(Path.of("docs/job-files.md"), StandardCharsets.UTF_8))
                .as("the docs show the shipped example as it is").contains(text);
        Files.delete(wb.jobs.resolve("forum-daily.json"));
        Files.createDirectories(wb.jobs.resolve("scripts"));
        Files.copy(Path.of("resources/jobs/scripts/write-topic.sh"),
                wb.jobs.resolve("scripts").resolve("write-topic.sh"));
        Files.writeString(wb.jobs.resolve("forum-topic.json"), text.replace("https://forum.example.org", site.base()),
                StandardCharsets.UTF_8);
        storeLogin(site.logIn());

        Result r = wb.cli("run", "forum-topic", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.created(TITLE)).isEqualTo(1);
        Seen post = site.requests().stream().filter(q -> q.method().equals("POST")).findFirst().orElseThrow();
        assertThat(post.body()).contains("Good morning. This is the article of " + KEY);
        // the session's CSRF token stands for the login while it lives: it is sent, and kept out of what is shown
        assertThat(post.csrf()).isNotBlank();
        for (Result shown : List.of(wb.cli("export", "--json", "forum-topic"),
                wb.cli("timeline", "forum-topic", KEY, "--json"), wb.cli("timeline", "forum-topic", KEY))) {
            assertThat(shown.exit()).as(shown.toString()).isZero();
            assertThat(shown.out()).as("what the example shows of its key").doesNotContain(post.csrf());
        }
    }

    /**
     * The login ends between the token and the post: {@code 403 not_logged_in}. The key waits for the login with
     * nothing made, and after the renewal asks a token of the new session before it posts, once.
     */
    @Test
    void aLoginThatEndsBeforeThePostIsRenewedAndTheTopicPostedOnceWithANewToken() {
        storeLogin(site.logIn());
        site.expireAtNextPost();

        Result parked = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, "forum-daily", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("message").asText()).contains("not_logged_in");
        assertThat(site.created(TITLE)).isZero();
        long csrfBefore = site.requests().stream().filter(q -> q.path().equals("/session/csrf")).count();
        storeLogin(site.logIn());
        Result r = wb.cli("run", "forum-daily", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.created(TITLE)).isEqualTo(1);
        assertThat(site.requests().stream().filter(q -> q.path().equals("/session/csrf")).count())
                .as("a token of the new session").isEqualTo(csrfBefore + 1);
    }

    /**
     * The session the token belongs to ends before the POST (the login {@code _t} still works): the forum refuses
     * the POST {@code 403 ["BAD CSRF"]}, having done nothing. The job's {@code retryWhen} on those words wins over the
     * 403's default reading as a rejected login, and {@code retryFrom} fetches a token of the session the forum opens
     * now: the topic is posted once, and the login is not marked rejected.
     */
    @Test
    void aStaleCsrfTokenIsFetchedAnewAndTheTopicPostedOnce() {
        storeLogin(site.logIn());
        site.endSessionsAtNextPost();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(site.created(TITLE)).isEqualTo(1);
        List<Seen> posts = site.requests().stream().filter(q -> q.method().equals("POST")).toList();
        assertThat(posts).hasSize(2);
        assertThat(posts.get(1).csrf()).as("the second POST carries a token of the new session")
                .isNotEqualTo(posts.get(0).csrf());
        assertThat(site.requests().stream().filter(q -> q.path().equals("/session/csrf")).count()).isEqualTo(2);
        assertThat(timeline(wb, "forum-daily", KEY).stream().map(e -> e.get("message").asText()))
                .anyMatch(m -> m.contains("BAD CSRF") && m.contains("first it goes back to step csrf"));
        Result creds = wb.cli("credentials", "list");
        assertThat(creds.out()).as(creds.toString()).doesNotContain("rejected");
    }

    /**
     * The token step run again by the retry's {@code retryFrom} counts its attempts from 1 again (its outputs are
     * fetched anew): what the operator reads in the trace and the timeline says why it ran a second time, so the
     * second {@code csrf #1} is not the first one said twice.
     */
    @Test
    void aStepRunAgainByRetryFromSaysSoInTheTraceAndTheTimeline() {
        storeLogin(site.logIn());
        site.endSessionsAtNextPost();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);
        Result shown = wb.cli("timeline", "forum-daily", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        List<String> csrf = r.out().lines().filter(l -> l.contains(" csrf #")).toList();
        assertThat(csrf).as(r.out()).hasSize(2);
        assertThat(csrf.get(0)).doesNotContain("run again");
        assertThat(csrf.get(1)).contains("run again before attempt 2 of publish, its outputs fetched anew");
        List<String> succeeded = timeline(wb, "forum-daily", KEY).stream()
                .filter(e -> e.get("type").asText().equals("STEP_SUCCEEDED") && e.get("step").asText().equals("csrf"))
                .map(e -> e.get("message").asText()).toList();
        assertThat(succeeded).hasSize(2);
        assertThat(succeeded.get(1)).contains("run again before attempt 2 of publish");
        assertThat(shown.out()).as(shown.toString()).contains("run again before attempt 2 of publish");
    }

    /**
     * The session and the login end together: the forum checks the token first, so the POST is {@code BAD CSRF}
     * again. The retry goes back to {@code csrf}, whose answer says the login is gone ({@code Discourse-Logged-Out}):
     * the key waits for the login, with nothing posted, instead of retrying a login that no longer works.
     */
    @Test
    void aBadCsrfWhoseLoginEndedTooParksTheKeyAtTheTokenItFetchesAnew() {
        storeLogin(site.logIn());
        site.endSessionsAtNextPost().expireAtNextPost();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status(wb, "forum-daily", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("step").asText()).isEqualTo("csrf");
        assertThat(site.created(TITLE)).isZero();
        assertThat(posts()).isEqualTo(1);
    }

    /**
     * A login of {@code _t} alone stored with {@code --no-refresh}: the session each token's answer opens is not
     * kept, so every POST is {@code BAD CSRF}. Each retry fetches a token anew, and after the retry policy's attempts
     * the key fails with the forum's answer: no topic, and no rejected login that a renewal of the same value would
     * not cure.
     */
    @Test
    void aLoginThatNeverKeepsItsSessionFailsWithTheForumsAnswerAfterItsAttempts() {
        Result set = wb.cliWithInput(site.logIn().replaceFirst("; _forum_session=[0-9a-f]+", ""), "credentials",
                "set", CRED, "--login-url", site.loginUrl(), "--no-refresh");
        assertThat(set.exit()).as(set.toString()).isZero();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, "forum-daily", KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("BAD CSRF");
        assertThat(posts()).isEqualTo(3);
        assertThat(site.created(TITLE)).isZero();
    }

    /**
     * A probe written without a {@code successWhen} that takes the {@code 301} cannot tell after a lost answer
     * (a redirect is no answer). It is asked again as a safe step is retried, with growing waits and as many times
     * as the retry policy allows, and then a person decides: not every few seconds for the half hour of
     * {@code maxElapsed}.
     */
    @Test
    void aProbeThatCannotTellAfterALostAnswerIsAskedAsASafeStepIsRetriedThenAPersonDecides() throws IOException {
        String noSuccessRule = PROBE.replaceAll(",\\s*\"successWhen\": \\{ \"status\": \\[301, 404\\] \\} \\}", " }");
        assertThat(noSuccessRule).doesNotContain("successWhen");
        wb.job("forum-daily", job(noSuccessRule), site.base());
        storeLogin(site.logIn());
        site.holdAfterStore();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        site.release();
        long probesAfterThePost = site.requests().stream().dropWhile(q -> !q.method().equals("POST"))
                .filter(q -> q.path().startsWith("/t/")).count();
        assertThat(probesAfterThePost).as(r.toString()).isLessThanOrEqualTo(3);
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(site.created(TITLE)).isEqualTo(1);
    }

    /**
     * The same probe that cannot tell, with a retry policy whose waits are longer than a run waits in place: each
     * ask leaves the key waiting to retry, and a later run asks again. The asks are counted across those runs: after
     * {@code maxAttempts} of them a person decides, not after hours of runs that each ask it once.
     */
    @Test
    void aProbeThatCannotTellIsAskedAtMostMaxAttemptsTimesAcrossRuns() throws IOException {
        String noSuccessRule = PROBE.replaceAll(",\\s*\"successWhen\": \\{ \"status\": \\[301, 404\\] \\} \\}", " }");
        String slow = job(noSuccessRule).replace("\"timeout\": \"PT2S\",", "\"timeout\": \"PT2S\", \"retry\": "
                + "{ \"maxAttempts\": 3, \"initialDelay\": \"PT5M\", \"maxDelay\": \"PT30M\", \"jitter\": 0, "
                + "\"maxElapsed\": \"PT12H\" },");
        assertThat(slow).contains("PT12H");
        wb.job("forum-daily", slow, site.base());
        storeLogin(site.logIn());
        site.holdAfterStore();
        Result first = wb.cli("run", "forum-daily", "--key", KEY);
        site.release();
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).as(first.toString()).isEqualTo("RETRY_WAIT");

        for (int run = 0; run < 6 && status(wb, "forum-daily", KEY).get("state").asText().equals("RETRY_WAIT"); run++) {
            wb.clock.advance(Duration.ofHours(1));
            wb.cli("run", "forum-daily", "--key", KEY);
        }

        long probesAfterThePost = site.requests().stream().dropWhile(q -> !q.method().equals("POST"))
                .filter(q -> q.path().startsWith("/t/")).count();
        JsonNode st = status(wb, "forum-daily", KEY);
        assertThat(st.get("state").asText()).as(st.toString()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(probesAfterThePost).isEqualTo(3);
        assertThat(site.created(TITLE)).isEqualTo(1);
    }

    /**
     * The plan of a key whose probe could not tell after the lost answer as often as the retry policy allows but
     * once says what the run does with the next such answer: a person decides. It does not promise to ask again.
     */
    @Test
    void thePlanOfAKeyWhoseProbeCouldNotTellAsOftenAsItsRetriesAllowSaysAPersonDecides() throws IOException {
        wb.job("forum-daily", slowAsks(), site.base());
        storeLogin(site.logIn());
        site.holdAfterStore();
        wb.cli("run", "forum-daily", "--key", KEY);
        site.release();
        wb.clock.advance(Duration.ofHours(1));
        wb.cli("run", "forum-daily", "--key", KEY);
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("RETRY_WAIT");
        wb.clock.advance(Duration.ofHours(1));

        Result plan = wb.cli("plan", "forum-daily", "--key", KEY, "--json");
        Result shown = wb.cli("plan", "forum-daily", "--key", KEY);
        Result run = wb.cli("run", "forum-daily", "--key", KEY);

        JsonNode planned = io.keyline.core.json.Json.read(plan.out(), JsonNode.class).get("keys").get(0);
        assertThat(planned.get("stopKind").asText()).as(plan.toString()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(planned.get("waitReason").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(shown.out()).as(shown.toString()).contains("needs confirmation")
                .doesNotContain("retries the probe of publish later");
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(site.created(TITLE)).isEqualTo(1);
    }

    /**
     * Each ask of the probe that cannot tell after the lost answer says which ask comes next of how many, in the
     * key's timeline: the step's attempt stays the one whose outcome is unknown.
     */
    @Test
    void theTimelineCountsTheAsksOfAProbeThatCannotTellNotTheStepsAttempts() throws IOException {
        wb.job("forum-daily", slowAsks(), site.base());
        storeLogin(site.logIn());
        site.holdAfterStore();
        wb.cli("run", "forum-daily", "--key", KEY);
        site.release();
        wb.clock.advance(Duration.ofHours(1));
        wb.cli("run", "forum-daily", "--key", KEY);

        List<String> asks = timeline(wb, "forum-daily", KEY).stream()
                .filter(e -> e.get("type").asText().equals("RETRY_SCHEDULED")).map(e -> e.get("message").asText())
                .toList();
        assertThat(asks).hasSize(2);
        assertThat(asks.get(0)).contains("the probe will be asked again (ask 2 of 3) at ").doesNotContain("attempt");
        assertThat(asks.get(1)).contains("the probe will be asked again (ask 3 of 3) at ").doesNotContain("attempt");
        Result zh;
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            zh = wb.cli("timeline", "forum-daily", KEY);
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
        assertThat(zh.out()).as(zh.toString()).contains("再次检查（第 2 次，共 3 次）")
                .contains("再次检查（第 3 次，共 3 次）");
    }

    /**
     * The plan of a key that waits to ask its probe again after the lost answer says so, with the ask it waits for:
     * not an attempt of the step, which is not sent again.
     */
    @Test
    void thePlanOfAKeyThatWaitsToAskItsProbeAgainSaysWhichAsk() throws IOException {
        wb.job("forum-daily", slowAsks(), site.base());
        storeLogin(site.logIn());
        site.holdAfterStore();
        wb.cli("run", "forum-daily", "--key", KEY);
        site.release();
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("RETRY_WAIT");

        Result plan = wb.cli("plan", "forum-daily", "--key", KEY);

        assertThat(plan.out()).as(plan.toString()).contains("publish: its probe is asked again (ask 2 of 3)")
                .doesNotContain("attempt 2");
    }

    /**
     * {@code timeline --json} and {@code export --json} carry each event's probe answer as a word of its own
     * ({@code absent} before the post, {@code inconclusive} for each ask after the lost answer, nothing for an event
     * that records no probe): a script reads it there, not in the English message.
     */
    @Test
    void theTimelineAndTheExportCarryTheProbesAnswerOfEachEvent() throws IOException {
        wb.job("forum-daily", slowAsks(), site.base());
        storeLogin(site.logIn());
        site.holdAfterStore();
        wb.cli("run", "forum-daily", "--key", KEY);
        site.release();

        List<JsonNode> timeline = timeline(wb, "forum-daily", KEY);
        Result export = wb.cli("export", "forum-daily", "--json");

        assertThat(export.exit()).as(export.toString()).isZero();
        List<JsonNode> exported = new java.util.ArrayList<>();
        io.keyline.core.json.Json.read(export.out(), JsonNode.class).get("events").forEach(exported::add);
        for (List<JsonNode> events : List.of(timeline, exported)) {
            assertThat(events).as("every event has a probe field").isNotEmpty().allMatch(e -> e.has("probe"));
            List<String> answered = events.stream().filter(e -> !e.get("probe").isNull())
                    .map(e -> e.get("type").asText() + " " + e.get("probe").asText()).toList();
            assertThat(answered).as(events.toString()).containsExactly("PROBE_ANSWERED absent",
                    "PROBE_ANSWERED absent", "RETRY_SCHEDULED inconclusive");
            assertThat(events).filteredOn(e -> e.get("type").asText().equals("STEP_STARTED")).isNotEmpty()
                    .allMatch(e -> e.get("probe").isNull());
        }
    }

    /** The job, with a probe that cannot tell after a lost answer and retry waits longer than a run waits in place. */
    static String slowAsks() {
        String noSuccessRule = PROBE.replaceAll(",\\s*\"successWhen\": \\{ \"status\": \\[301, 404\\] \\} \\}", " }");
        String slow = job(noSuccessRule).replace("\"timeout\": \"PT2S\",", "\"timeout\": \"PT2S\", \"retry\": "
                + "{ \"maxAttempts\": 3, \"initialDelay\": \"PT5M\", \"maxDelay\": \"PT30M\", \"jitter\": 0, "
                + "\"maxElapsed\": \"PT12H\" },");
        assertThat(slow).contains("PT12H").doesNotContain("successWhen\": { \"status\": [301, 404]");
        return slow;
    }

    /**
     * A forum that holds new topics for a moderator answers {@code 200 {"action": "enqueued", …}}: the post is in
     * the review queue, not a topic, so the answer fails the step's successWhen and the slug probe cannot see it.
     * The site took the request: the key fails saying the work may be there, and points to the site and to
     * mark-done, not to a retry that would queue the post a second time.
     */
    @Test
    void aPostTheForumHoldsForAModeratorFailsSayingTheSiteMayHaveTakenIt() {
        storeLogin(site.logIn());
        site.requireApproval();

        Result r = wb.cli("run", "forum-daily", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(site.queued(TITLE)).isEqualTo(1);
        JsonNode st = status(wb, "forum-daily", KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("enqueued")
                .contains("the site took the request (HTTP 200): publish may have done it");
        assertThat(r.out()).contains("keyline mark-done forum-daily " + KEY);
        // the plan says what the key's message says: the site first, then mark it done or retry it
        Result plan = wb.cli("plan", "forum-daily", "--key", KEY);
        assertThat(plan.out()).as(plan.toString()).doesNotContain("retry it to run again")
                .contains("failed at publish, but its work may be there: look on the site first");
    }

    /**
     * A probe that cannot see the topic (Discourse keeps {@code external_id} only from an API key: a browser
     * session's is dropped, so {@code /t/external_id/…} never finds it) leaves an answer lost after the site stored
     * the topic to a person. Confirmed, the POST is refused {@code 422 Title has already been used}: the key's
     * own first attempt may be why. The key fails (no success without evidence, no retry by itself) and says so,
     * pointing to the site and to mark-done rather than to a plain retry.
     */
    @Test
    void aTitleAlreadyUsedAfterAnAttemptOfUnknownOutcomeFailsSayingThatAttemptMayHaveDoneIt() throws IOException {
        String byExternalId = PROBE.replace("/t/daily-{key}.json", "/t/external_id/daily-{key}.json");
        wb.job("forum-daily", job(byExternalId, byExternalId, ", \"external_id\": \"daily-{key}\""), site.base());
        storeLogin(site.logIn());
        site.holdAfterStore();
        Result lost = wb.cli("run", "forum-daily", "--key", KEY);
        site.release();
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(4);
        assertThat(status(wb, "forum-daily", KEY).get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");

        Result confirmed = wb.cli("confirm", "forum-daily", KEY);

        assertThat(site.created(TITLE)).isEqualTo(1);
        assertThat(site.attempts(TITLE)).isEqualTo(2);
        JsonNode st = status(wb, "forum-daily", KEY);
        assertThat(st.get("state").asText()).as(confirmed.toString()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("Title has already been used")
                .contains("attempt 1 of publish, whose outcome is unknown, may have done it");
        assertThat(confirmed.out()).contains("keyline mark-done forum-daily " + KEY);
        Result plan = wb.cli("plan", "forum-daily", "--key", KEY);
        assertThat(plan.out()).as(plan.toString()).doesNotContain("retry it to run again")
                .contains("failed at publish, but its work may be there: look on the site first");
    }
}
