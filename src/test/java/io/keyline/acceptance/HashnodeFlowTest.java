package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyline.testing.ExampleJob;
import io.keyline.testing.HashnodeSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The day's article published to a Hashnode blog through its GraphQL API, on a server shaped as Hashnode's own agent
 * skill describes it, by the job shipped as {@code resources/jobs/examples/hashnode-post.json}, driven through the
 * real command line (and a child process for the SIGKILL): a command writes the article, an unsafe {@code publishPost}
 * mutation publishes it with the slug {@code daily-DATE}, guarded by a probe that asks by POST, with a GraphQL query,
 * whether the publication has a post with that slug. Hashnode has no idempotency contract: a second
 * {@code publishPost} makes a second post. Each test counts the posts of the day's slug (never two), and no token is
 * ever shown.
 */
class HashnodeFlowTest {

    static final String KEY = "2026-11-29";
    static final String SLUG = "daily-" + KEY;
    static final String JOB = "hashnode-post";
    static final String CRED = "hashnode";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Workbench wb;
    HashnodeSite site;
    ExampleJob example;
    final List<String> tokens = new ArrayList<>();

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new HashnodeSite(wb.clock);
        example = new ExampleJob(wb, JOB, "write-post.sh", Map.of("https://gql-beta.hashnode.com", site.base()));
    }

    @AfterEach
    void close() throws IOException {
        site.close();
    }

    /** Stores a token as the operator does: {@code credentials set hashnode --type bearer}. */
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

    /** What Keyline shows of the key anywhere: run output, export, timeline, status, the run log. */
    void nothingShownHoldsAToken(Result... runs) throws IOException {
        List<String> shown = wb.shown(JOB, KEY, runs);
        assertThat(tokens).isNotEmpty();
        assertThat(site.requests()).as("the token went to the site")
                .anyMatch(q -> ("Bearer " + tokens.get(0)).equals(q.authorization()));
        for (String text : shown) {
            for (String t : tokens) {
                assertThat(text).as("a token is shown").doesNotContain(t).doesNotContain(t.substring(0, 18));
            }
        }
    }

    @Test
    void theDaysArticleIsPublishedOnceAndARerunSendsNothing() throws IOException {
        example.isShownInTheDocs();
        store(site.newToken());

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        HashnodeSite.Post post = site.postBySlug(SLUG);
        assertThat(post.title()).isEqualTo("Daily notes " + KEY);
        assertThat(post.content()).isEqualTo("What happened on " + KEY + ".\n\nWritten by Keyline.");
        HashnodeSite.Seen probe = site.requests().get(0);
        assertThat(probe.method()).as("the probe asks by POST, a GraphQL query").isEqualTo("POST");
        assertThat(probe.operation()).isEqualTo("me");
        JsonNode asked = JSON.readTree(probe.body());
        assertThat(asked.path("query").asText()).startsWith("query DailyPost(").contains("post(slug: $slug) { id");
        assertThat(asked.path("variables").path("slug").asText()).isEqualTo(SLUG);
        Result again = run();
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.publishRequests()).as("a done key sends nothing").isEqualTo(1);
        assertThat(site.posts(SLUG)).isEqualTo(1);
        nothingShownHoldsAToken(r, again);
    }

    /** The article was published by hand in Hashnode's editor: the probe finds it, and nothing is sent. */
    @Test
    void aPostPublishedByHandIsFoundAndNotPublishedAgain() throws IOException {
        store(site.newToken());
        site.publishByHand(SLUG);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.publishRequests()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(timeline(wb, JOB, KEY).stream().map(e -> e.get("type").asText())).contains("STEP_RECONCILED");
        nothingShownHoldsAToken(r);
    }

    @Test
    void aPostWhoseAnswerWasLostIsFoundByTheProbeAndNotPublishedAgain() throws IOException {
        example.with("\"timeout\": \"PT1M\"", "\"timeout\": \"PT2S\"");
        store(site.newToken());
        site.holdAfterPublish();

        Result r = run();

        site.release();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(site.publishRequests()).isEqualTo(1);
        assertThat(timeline(wb, JOB, KEY).stream().map(e -> e.get("type").asText())).contains("STEP_RECONCILED");
        nothingShownHoldsAToken(r);
    }

    @Test
    void aConnectionResetAfterThePostIsFoundByTheProbe() {
        store(site.newToken());
        site.resetAfterPublish();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(site.publishRequests()).isEqualTo(1);
    }

    @Test
    void aRunKilledDuringThePublishLeavesOnePost() throws Exception {
        wb.clock.followSystemClock();
        store(site.newToken());
        site.holdAfterPublish();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", JOB, "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the post reached the server").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(site.publishRequests()).isEqualTo(1);
        nothingShownHoldsAToken(r);
    }

    /**
     * The token was revoked: Hashnode answers {@code 200} with {@code UNAUTHENTICATED} in {@code errors}. The probe
     * asks {@code me} with the token, so the key waits for a new one before anything is published; a second run sends
     * nothing; the token stored with {@code credentials set} resumes the key, which publishes once.
     */
    @Test
    void aRejectedTokenParksTheKeyAndTheRenewedOnePublishesOnce() throws IOException {
        store(site.newToken());
        site.revokeAll();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).as(st.toString()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        assertThat(st.get("message").asText()).contains("UNAUTHENTICATED");
        assertThat(site.publishRequests()).isZero();
        int asked = site.requests().size();
        Result still = run();
        assertThat(still.exit()).as(still.toString()).isEqualTo(4);
        assertThat(site.requests()).as("nothing is sent with a rejected token").hasSize(asked);

        store(site.newToken());
        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        nothingShownHoldsAToken(parked, still, r);
    }

    /** The token is revoked between the probe and the publish: the mutation's UNAUTHENTICATED parks the key too. */
    @Test
    void aTokenRejectedByTheMutationParksTheKeyWithNothingPublished() throws IOException {
        store(site.newToken());
        site.revokeAtNextPublish();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.posts(SLUG)).isZero();
        store(site.newToken());
        Result r = run();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        nothingShownHoldsAToken(parked, r);
    }

    /** Invalid input is refused with {@code BAD_USER_INPUT} in a {@code 200}: the key fails with the site's words. */
    @Test
    void aValidationErrorInA200FailsTheKeyWithTheSitesMessage() throws IOException {
        StringBuilder tags = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            tags.append(i == 0 ? "" : ", ").append("{ \"slug\": \"t").append(i).append("\" }");
        }
        example.with("[ { \"slug\": \"daily-notes\", \"name\": \"Daily notes\" } ]", "[ " + tags + " ]");
        store(site.newToken());

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("A post can have at most 15 tags").contains("BAD_USER_INPUT")
                .as("GraphQL's data is null: nothing was published, and the key says so").contains("nothing was done")
                .doesNotContain("may have done it");
        assertThat(site.posts(SLUG)).isZero();
        assertThat(site.publishRequests()).isEqualTo(1);
    }

    /** A 503 before anything is made is sent again after its Retry-After, the probe first: one post. */
    @Test
    void a503BeforeThePostIsRetriedAndPublishesOnce() {
        store(site.newToken());
        site.unavailableBeforeNextPublish();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(site.publishRequests()).isEqualTo(2);
        assertThat(site.requests().stream().filter(q -> "me".equals(q.operation())).count())
                .as("the probe asked before each send").isEqualTo(2);
    }

    /** {@code keyline credentials test hashnode} asks the probe with the token: a revoked one is rejected. */
    @Test
    void credentialsTestTellsARevokedTokenFromALiveOne() {
        store(site.newToken());
        Result alive = wb.cli("credentials", "test", CRED, "--key", KEY);
        assertThat(alive.exit()).as(alive.toString()).isZero();

        site.revokeAll();
        Result gone = wb.cli("credentials", "test", CRED, "--key", KEY);

        assertThat(gone.exit()).as(gone.toString()).isEqualTo(2);
        assertThat(gone.out() + gone.err()).contains("rejected").contains("UNAUTHENTICATED");
        assertThat(site.publishRequests()).isZero();
    }

    /**
     * A job keyed by hand (no current key) whose probe names the key only in its POST body: {@code credentials test}
     * without {@code --key} says it needs one, and asks nothing with a literal {@code {key}} in the query's variables.
     */
    @Test
    void credentialsTestOfAManualJobAsksForAKeyItsProbesBodyNeeds() throws IOException {
        example.with("\"key\": { \"type\": \"date\", \"zone\": \"UTC\", \"start\": \"2026-11-01\" },\n"
                + "  \"schedule\": \"0 9 * * *\",", "\"key\": { \"type\": \"manual\" },");
        store(site.newToken());
        Result jobs = wb.cli("jobs");
        assertThat(jobs.out()).as(jobs.toString()).contains(JOB).doesNotContain("error");

        Result r = wb.cli("credentials", "test", CRED);

        assertThat(r.out() + r.err()).as(r.toString()).contains("--key");
        assertThat(site.requests()).as("nothing asked about the slug daily-{key}").isEmpty();
    }

    /** {@code keyline plan} shows the probe's request as it will be sent: POST, its body's fields and their hash. */
    @Test
    void thePlanShowsTheProbesQueryAsItWillBeSent() throws IOException {
        store(site.newToken());

        Result plan = wb.cli("plan", JOB, "--key", KEY);

        assertThat(plan.exit()).as(plan.toString()).isZero();
        String out = plan.out();
        assertThat(out).contains("publish (probe): POST " + site.base() + "/")
                .contains("Content-Type: application/json")
                .contains("Authorization: *** (credential hashnode")
                .contains("/query = query DailyPost($publicationId: ObjectId!, $slug: String!) { me { id }")
                .contains("/variables/slug = " + SLUG)
                .containsPattern("body: \\d+ bytes, sha256 [0-9a-f]{64} \\(json\\)");
        assertThat(out.substring(out.indexOf("publish (probe)"), out.lastIndexOf("publish: POST")))
                .as("the probe carries no Idempotency-Key").doesNotContain("Idempotency-Key");
        HashnodeSite.Seen asked = site.requests().get(0);
        assertThat(asked.operation()).as("plan asked the probe, read-only").isEqualTo("me");
        assertThat(out).as("the hash shown is that of the body sent")
                .contains(io.keyline.core.exec.Rendering.sha256(asked.body().getBytes(StandardCharsets.UTF_8)));
        assertThat(site.publishRequests()).isZero();
        assertThat(site.posts(SLUG)).isZero();
        nothingShownHoldsAToken(plan);
    }

    /** A probe must not change anything: the job whose probe sends a mutation is refused as it is read. */
    @Test
    void aProbeThatWouldPublishIsRefusedWhenTheJobIsRead() throws IOException {
        example.with("\"query\": \"query DailyPost(", "\"query\": \"mutation DailyPost(");
        store(site.newToken());

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out() + r.err()).contains(JOB + ".json:").contains("steps[1].probe.json.query")
                .contains("mutation");
        assertThat(site.requests()).isEmpty();
    }
}
