package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.ExampleJob;
import io.keyline.testing.GitHubSite;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The week's report published as a release of a repository on a server shaped like GitHub's REST API, by the job
 * shipped as {@code resources/jobs/examples/github-weekly-report.json}, driven through the real command line (and a
 * child process for the SIGKILL): a command writes the Markdown, an unsafe {@code POST /repos/o/r/releases} makes the
 * release tagged {@code report-2026-W48} (guarded by a probe on {@code GET /repos/o/r/releases/tags/report-2026-W48},
 * which takes the release's id when it finds one), and an unsafe upload to the uploads host attaches the report to the
 * release with that id (guarded by a probe on the release's assets). Each test counts the releases and assets of the
 * week: never two, and no token is ever shown.
 */
class GitHubFlowTest {

    static final String KEY = "2026-W48";
    static final String TAG = "report-" + KEY;
    static final String ASSET = "report-" + KEY + ".md";
    static final String JOB = "github-weekly-report";
    static final String CRED = "github";

    @TempDir
    Path tmp;
    Workbench wb;
    GitHubSite site;
    ExampleJob example;
    final List<String> tokens = new ArrayList<>();

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new GitHubSite(wb.clock);
        example = new ExampleJob(wb, JOB, "write-weekly-report.sh",
                Map.of("https://api.github.com", site.apiBase(), "https://uploads.github.com", site.uploadsBase()));
    }

    @AfterEach
    void close() throws IOException {
        site.close();
    }

    /** The release is given up on after two seconds instead of a minute. */
    void quickPublish() throws IOException {
        example.with("\"timeout\": \"PT1M\"", "\"timeout\": \"PT2S\"");
    }

    /** Stores a token as the operator does: {@code credentials set github --type bearer}. */
    void store(String token) {
        tokens.add(token);
        Result r = wb.cliWithInput(token + "\n", "credentials", "set", CRED, "--type", "bearer");
        assertThat(r.exit()).as(r.toString()).isIn(0, 4);
    }

    Result run() {
        return wb.cli("run", JOB, "--key", KEY);
    }

    String state() {
        return status(wb, JOB, KEY).get("state").asText();
    }

    int assets() {
        GitHubSite.Release r = site.releaseByTag(TAG);
        return r == null ? 0 : (int) r.assets().stream().filter(a -> a.name().equals(ASSET)).count();
    }

    /** What Keyline shows of the key anywhere: run output, export, timeline, status, the run log. */
    void nothingShownHoldsAToken(Result... runs) throws IOException {
        List<String> shown = wb.shown(JOB, KEY, runs);
        assertThat(tokens).isNotEmpty();
        assertThat(site.requests()).as("the token went to both hosts")
                .anyMatch(q -> q.host().equals("api") && ("Bearer " + tokens.get(0)).equals(q.authorization()));
        for (String text : shown) {
            for (String t : tokens) {
                assertThat(text).as("a token is shown").doesNotContain(t).doesNotContain(t.substring(0, 20));
            }
        }
    }

    @Test
    void theWeeksReportIsPublishedOnceWithItsFileAndARerunSendsNothing() throws IOException {
        example.isShownInTheDocs();
        store(site.newToken());

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
        GitHubSite.Release rel = site.releaseByTag(TAG);
        assertThat(rel.name()).isEqualTo("Weekly report " + KEY);
        assertThat(rel.body()).startsWith("# Weekly report " + KEY + "\n\n").contains("Written by Keyline.");
        assertThat(assets()).isEqualTo(1);
        assertThat(rel.assets().get(0).contentType()).isEqualTo("text/markdown");
        assertThat(rel.assets().get(0).size()).isEqualTo(Files.size(wb.jobs.resolve("out").resolve(ASSET)));
        assertThat(site.requests()).as("the upload went to the uploads host, with the token, to the release made")
                .anyMatch(q -> q.host().equals("uploads") && ("Bearer " + tokens.get(0)).equals(q.authorization())
                        && q.path().equals("/repos/octo-org/weekly/releases/" + rel.id() + "/assets"));
        assertThat(site.requests()).as("nothing reads the release again").noneMatch(q -> q.method().equals("GET")
                && q.path().endsWith("/releases/tags/" + TAG) && site.requests().indexOf(q) > 1);
        Result again = run();
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.createRequests()).as("a done key sends nothing").isEqualTo(1);
        assertThat(site.uploadRequests()).isEqualTo(1);
        nothingShownHoldsAToken(r, again);
    }

    /**
     * The release was made by hand on the web page: it is left as it is, the publish is reconciled by its probe, and
     * the release's id the probe found is the publish's output, so the report is attached to that release without
     * reading it again.
     */
    @Test
    void aReleaseMadeByHandGivesItsIdToTheNextStep() throws IOException {
        store(site.newToken());
        GitHubSite.Release byHand = site.createByHand(TAG);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.createRequests()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(assets()).isEqualTo(1);
        assertThat(site.requests()).as("the report went to the release made by hand")
                .anyMatch(q -> q.host().equals("uploads")
                        && q.path().equals("/repos/octo-org/weekly/releases/" + byHand.id() + "/assets"));
        nothingShownHoldsAToken(r);
    }

    /**
     * The release was made by hand, the publish reconciled with the release's id, and the run killed while the file
     * was being attached: the next run reads the id from the state (no step reads the release again), and the attach's
     * probe finds the file there, so nothing is attached twice.
     */
    @Test
    void aRunKilledAfterTheReleaseWasFoundStillHasItsId() throws Exception {
        wb.clock.followSystemClock();
        store(site.newToken());
        GitHubSite.Release byHand = site.createByHand(TAG);
        site.holdAfterUpload();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", JOB, "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the file reached the server").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();
        int before = site.requests().size();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.createRequests()).isZero();
        assertThat(site.uploadRequests()).isEqualTo(1);
        assertThat(assets()).isEqualTo(1);
        assertThat(site.requests().subList(before, site.requests().size()))
                .as("after the kill, only the attach's probe asked, with the id kept in the state")
                .singleElement().satisfies(q -> assertThat(q.path())
                        .isEqualTo("/repos/octo-org/weekly/releases/" + byHand.id() + "/assets"));
        nothingShownHoldsAToken(r);
    }

    /**
     * {@code keyline plan} says where the attach's release id will come from: the publish's answer while no release
     * exists, the publish's probe once it finds one (made by hand), as it asks the probe read-only.
     */
    @Test
    void thePlanSaysTheIdComesFromThePublishsProbeWhenItFindsTheRelease() {
        store(site.newToken());

        Result none = wb.cli("plan", JOB, "--key", KEY);
        site.createByHand(TAG);
        Result byHand = wb.cli("plan", JOB, "--key", KEY);

        assertThat(none.exit()).as(none.toString()).isZero();
        assertThat(none.out()).contains("/releases/{from step publish: id (known at run time)}/assets")
                .doesNotContain("from the probe of step publish");
        assertThat(byHand.exit()).as(byHand.toString()).isZero();
        assertThat(byHand.out()).contains("/releases/{from the probe of step publish: id (found at run time)}/assets");
        assertThat(site.createRequests()).isZero();
    }

    /**
     * Without the probe's {@code extract}, the attach would have no id whenever the probe finds the release: the job
     * does not load, and {@code keyline jobs} says where, as the docs quote it.
     */
    @Test
    void withoutTheProbesExtractTheJobDoesNotLoad() throws IOException {
        example.with(",\n                 \"extract\": { \"id\": { \"json\": \"/id\" } } } },", " } },");

        Result r = wb.cli("jobs");

        String said = ": steps[2].request.url: step \"attach\" uses {steps.publish.outputs.id}, which step"
                + " \"publish\" does not have when its probe finds the work already done";
        // the test's loopback host is 4 characters shorter than https://uploads.github.com, whose column the docs say
        assertThat(r.out() + r.err()).contains("github-weekly-report.json:26:82" + said)
                .contains("add \"id\" to its probe's \"extract\"");
        assertThat(site.uploadsBase().length()).isEqualTo("https://uploads.github.com".length() - 4);
        assertThat(Files.readString(Path.of("docs/job-files.md"), StandardCharsets.UTF_8).replaceAll("\\s+", " "))
                .contains("github-weekly-report.json:26:86" + said);
    }

    @Test
    void aReleaseWhoseAnswerWasLostIsFoundByTheProbeAndNotMadeAgain() throws IOException {
        quickPublish();
        store(site.newToken());
        site.holdAfterCreate();

        Result r = run();

        site.release();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(site.createRequests()).isEqualTo(1);
        assertThat(assets()).isEqualTo(1);
        assertThat(timeline(wb, JOB, KEY).stream().map(e -> e.get("type").asText())).contains("STEP_RECONCILED");
        assertThat(site.requests()).as("the file went to the release the lost answer made, by the id its probe found")
                .anyMatch(q -> q.host().equals("uploads") && q.path().equals("/repos/octo-org/weekly/releases/"
                        + site.releaseByTag(TAG).id() + "/assets"));
        nothingShownHoldsAToken(r);
    }

    @Test
    void aConnectionResetAfterTheReleaseIsFoundByTheProbeAndNotMadeAgain() {
        store(site.newToken());
        site.resetAfterCreate();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(site.createRequests()).isEqualTo(1);
        assertThat(assets()).isEqualTo(1);
    }

    @Test
    void aRunKilledDuringThePublishLeavesOneRelease() throws Exception {
        wb.clock.followSystemClock();
        store(site.newToken());
        site.holdAfterCreate();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", JOB, "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the release reached the server").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(site.createRequests()).isEqualTo(1);
        assertThat(assets()).isEqualTo(1);
        nothingShownHoldsAToken(r);
    }

    /**
     * The hour's 5,000 requests are spent just before the release's probe: GitHub answers every request {@code 403}
     * with {@code x-ratelimit-remaining: 0} and the reset in epoch seconds. That is no rejected token: the key waits
     * until the reset (not in {@code NEEDS_CREDENTIAL}), then the release is made once.
     */
    @Test
    void aSpentRateLimitWaitsForTheResetAndTheReleaseIsMadeOnce() throws IOException {
        store(site.newToken());
        Instant before = wb.clock.instant();
        site.spendRateLimitAfter(0, Duration.ofMinutes(40));

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).as(st.toString()).isEqualTo("RETRY_WAIT");
        assertThat(st.get("message").asText()).contains("403").contains("API rate limit exceeded");
        assertThat(Instant.parse(st.get("nextAttemptAt").asText())).as(st.toString())
                .isAfterOrEqualTo(before.plus(Duration.ofMinutes(40)));
        assertThat(site.createRequests()).isZero();
        Result early = run();
        assertThat(early.exit()).as("nothing is sent before the reset: " + early).isEqualTo(5);
        assertThat(site.requests()).as("only the probe asked, once").hasSize(1);
        wb.clock.advance(Duration.ofMinutes(41));
        r = run();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(assets()).isEqualTo(1);
        nothingShownHoldsAToken(r);
    }

    /**
     * Making releases too fast meets a secondary rate limit: {@code 403} with {@code retry-after: 90}. Nothing was
     * made; the release is sent again after the wait (its probe first), once.
     */
    @Test
    void aSecondaryRateLimitIsWaitedForAndTheReleaseMadeOnce() {
        store(site.newToken());
        site.secondaryLimitAtNextCreate(90);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        assertThat(state()).isEqualTo("RETRY_WAIT");
        assertThat(status(wb, JOB, KEY).get("message").asText()).contains("secondary rate limit");
        wb.clock.advance(Duration.ofMinutes(2));
        r = run();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(site.createRequests()).isEqualTo(2);
    }

    /**
     * A secondary rate limit answered without a {@code retry-after}: the job's {@code retryWhen} on GitHub's words
     * makes it "try again" after the step's backoff (a minute first, as GitHub asks), not a rejected token.
     */
    @Test
    void aSecondaryRateLimitWithoutRetryAfterIsTriedAgainAfterAMinute() {
        store(site.newToken());
        Instant before = wb.clock.instant();
        site.secondaryLimitWithoutRetryAfterAtNextCreate(90);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("RETRY_WAIT");
        assertThat(Instant.parse(st.get("nextAttemptAt").asText())).as(st.toString())
                .isAfterOrEqualTo(before.plusSeconds(30));
        wb.clock.advance(Duration.ofMinutes(3));
        r = run();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(site.createRequests()).isEqualTo(2);
    }

    /**
     * A person published the week's release between the probe and the request: GitHub refuses the second one
     * {@code 422 already_exists}. Nothing is made twice; the key fails with GitHub's words for a person to look at.
     */
    @Test
    void aReleaseMadeByHandJustBeforeTheRequestIsRefusedAndNotMadeTwice() {
        store(site.newToken());
        site.byHandBeforeNextCreate();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("422").contains("already_exists").contains("tag_name");
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(site.createRequests()).isEqualTo(1);
    }

    /**
     * The token was revoked (or expired): GitHub answers {@code 401 Bad credentials}. The key waits for a new token
     * with nothing made, a second run sends nothing, and the new token makes the release once.
     */
    @Test
    void aRevokedTokenParksTheKeyAndTheNewTokenPublishesOnce() throws IOException {
        store(site.newToken());
        site.revokeAll();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        assertThat(st.get("message").asText()).contains("HTTP 401").contains("Bad credentials");
        int asked = site.requests().size();
        Result still = run();
        assertThat(still.exit()).as(still.toString()).isEqualTo(4);
        assertThat(site.requests()).as("nothing is sent with a rejected token").hasSize(asked);

        store(site.newToken());
        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
        assertThat(assets()).isEqualTo(1);
        nothingShownHoldsAToken(parked, still, r);
    }

    /**
     * A token that may read the repository but not write its contents: the release is refused {@code 403 Resource not
     * accessible by personal access token}. The key waits for a token with the permission, which makes it once.
     */
    @Test
    void aTokenWithoutThePermissionToWriteWaitsForOneThatHasIt() {
        store(site.readOnlyToken());

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("message").asText()).contains("Resource not accessible by personal access token");
        assertThat(site.releases(TAG)).isZero();

        store(site.newToken());
        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.releases(TAG)).isEqualTo(1);
    }

    /**
     * A token not given the repository: GitHub answers {@code 404 Not Found} for all of it, the probe too, which reads
     * it as "no release". The release itself is refused {@code 404}: the key fails, nothing is made.
     */
    @Test
    void aTokenThatCannotSeeTheRepositoryFailsTheKeyWithNothingMade() {
        store(site.tokenWithoutAccess());

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("404").contains("Not Found");
        assertThat(site.releases(TAG)).isZero();
        assertThat(site.createRequests()).isEqualTo(1);
    }

    /** {@code keyline credentials test github} asks the probe with the token: a revoked one is rejected. */
    @Test
    void credentialsTestTellsARevokedTokenFromALiveOne() {
        store(site.newToken());
        Result alive = wb.cli("credentials", "test", CRED, "--key", KEY);
        assertThat(alive.exit()).as(alive.toString()).isIn(0, 4);

        site.revokeAll();
        Result gone = wb.cli("credentials", "test", CRED, "--key", KEY);

        assertThat(gone.exit()).as(gone.toString()).isEqualTo(2);
        assertThat(gone.out() + gone.err()).contains("rejected");
        assertThat(site.createRequests()).isZero();
    }
}
