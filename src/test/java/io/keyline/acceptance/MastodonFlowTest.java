package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.ExampleJob;
import io.keyline.testing.MastodonSite;
import io.keyline.testing.MastodonSite.Seen;
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
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The day's status with its picture posted to a server shaped like Mastodon, by the job shipped as
 * {@code resources/jobs/examples/mastodon-status.json}, driven through the real command line (and a child process for
 * the SIGKILL): a command writes the text (with the day's hashtag), {@code POST /api/v2/media} uploads the picture,
 * {@code GET /api/v1/media/:id} is asked until it is processed, and an unsafe {@code POST /api/v1/statuses} posts the
 * status with the media id, guarded by a probe on the account's statuses with the day's hashtag
 * ({@code ?tagged=daily2026-11-29}). The server counts the statuses made with the day's hashtag: one per key,
 * whatever happened on the way, and no token is ever shown.
 */
class MastodonFlowTest {

    static final String KEY = "2026-11-29";
    static final String TAG = "daily20261129";
    static final String JOB = "mastodon-status";
    static final String CRED = "mastodon";
    /** A 1×1 PNG. */
    static final byte[] PNG = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");

    @TempDir
    Path tmp;
    Workbench wb;
    MastodonSite site;
    ExampleJob example;
    final List<String> tokens = new ArrayList<>();

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new MastodonSite(wb.clock);
        Files.createDirectories(wb.jobs.resolve("images"));
        Files.write(wb.jobs.resolve("images").resolve("default.png"), PNG);
        example = new ExampleJob(wb, JOB, "write-status.sh",
                Map.of("https://mastodon.example.org", site.base(), "109348834771298765", MastodonSite.ACCOUNT_ID));
    }

    @AfterEach
    void close() throws IOException {
        site.close();
    }

    /** The post gives up on an answer after two seconds instead of a minute. */
    void quickPost() throws IOException {
        example.with("\"timeout\": \"PT1M\"", "\"timeout\": \"PT2S\"");
    }

    /** Stores the application's access token as the operator does: {@code credentials set mastodon --type bearer}. */
    void storeToken() {
        String token = site.newToken();
        tokens.add(token);
        Result r = wb.cliWithInput(token + "\n", "credentials", "set", CRED, "--type", "bearer");
        assertThat(r.exit()).as(r.toString()).isZero();
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
        assertThat(site.requests()).as("the token went to the server")
                .anyMatch(q -> ("Bearer " + tokens.get(0)).equals(q.authorization()));
        for (String text : shown) {
            for (String t : tokens) {
                assertThat(text).as("a token is shown").doesNotContain(t).doesNotContain(t.substring(0, 12));
            }
        }
    }

    /** Waits until the request the server held has made its status. */
    void awaitPosted() throws InterruptedException {
        for (int i = 0; i < 100 && site.posted(TAG) == 0; i++) {
            Thread.sleep(50);
        }
        assertThat(site.posted(TAG)).isEqualTo(1);
    }

    long asked(String method, String pathPrefix) {
        return site.requests().stream().filter(q -> q.method().equals(method) && q.path().startsWith(pathPrefix))
                .count();
    }

    @Test
    void theDaysStatusIsPostedOnceWithItsPictureAndARerunSendsNothing() throws IOException {
        example.isShownInTheDocs();
        storeToken();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
        MastodonSite.Status s = site.statuses().get(0);
        assertThat(s.text()).startsWith("Good morning! The picture of " + KEY + ".").endsWith("#" + TAG);
        assertThat(s.mediaIds()).hasSize(1);
        MastodonSite.Media m = site.media(s.mediaIds().get(0));
        assertThat(m.bytes()).isEqualTo(PNG.length);
        assertThat(m.description()).isEqualTo("The picture of " + KEY);
        Seen post = site.requests().stream().filter(q -> q.path().equals("/api/v1/statuses")).findFirst().orElseThrow();
        assertThat(post.idempotencyKey()).isEqualTo(JOB + ":" + KEY + ":post");
        Result again = run();
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.statusRequests()).as("a done key sends nothing").isEqualTo(1);
        assertThat(site.uploads()).isEqualTo(1);
        nothingShownHoldsAToken(r, again);
    }

    /** A status with the day's hashtag is there already (posted by hand): the job's probe finds it, nothing is sent. */
    @Test
    void aStatusOfTheDayPostedByHandIsLeftAsItIs() {
        storeToken();
        site.postByHand("Posted from my phone today. #" + TAG);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.uploads()).as("no picture is uploaded for a day that is posted").isZero();
        assertThat(site.statusRequests()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
    }

    /** Another account's status, or one of another day, is not the day's: the probe asks for this account's tag. */
    @Test
    void aStatusOfAnotherDayDoesNotCountForToday() {
        storeToken();
        site.postByHand("Yesterday's picture. #daily20261128");

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
    }

    @Test
    void aStatusWhoseAnswerWasLostIsFoundByTheProbeAndNotPostedAgain() throws IOException {
        quickPost();
        storeToken();
        site.holdAfterPost();

        Result r = run();

        site.release();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(site.statusRequests()).isEqualTo(1);
        nothingShownHoldsAToken(r);
    }

    @Test
    void aConnectionResetAfterThePostIsFoundByTheProbeAndNotPostedAgain() {
        storeToken();
        site.resetAfterPost();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(site.statusRequests()).isEqualTo(1);
    }

    @Test
    void aRunKilledDuringThePostLeavesOneStatus() throws Exception {
        wb.clock.followSystemClock();
        storeToken();
        site.holdAfterPost();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", JOB, "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the status reached the server").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(site.statusRequests()).isEqualTo(1);
        nothingShownHoldsAToken(r);
    }

    /** The upload answers 202 and the media 206 three times: the status is posted once, after the picture is ready. */
    @Test
    void aPictureStillProcessingIsWaitedForAndTheStatusPostedOnce() {
        storeToken();
        site.processing(3);

        Result r = run();

        if (r.exit() == 5) {
            wb.clock.advance(Duration.ofMinutes(5));
            r = run();
        }
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(asked("GET", "/api/v1/media/")).as("206, 206, 206, 200").isEqualTo(4);
        assertThat(site.uploads()).as("the upload is not sent again while the server processes it").isEqualTo(1);
        assertThat(site.statuses().get(0).mediaIds()).hasSize(1);
    }

    /**
     * The user revoked the application: the job's probe is answered 401 (Doorkeeper, {@code invalid_token}). The key
     * waits for a new token with nothing uploaded or posted, a second run sends nothing, and the new token posts once.
     */
    @Test
    void aRevokedTokenParksTheKeyAndTheNewTokenPostsOnce() throws IOException {
        storeToken();
        site.revokeAll();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        assertThat(st.get("message").asText()).as("the server's words: revoked, not expired or unknown")
                .contains("HTTP 401").contains("The access token was revoked");
        assertThat(site.uploads()).isZero();
        assertThat(site.requests()).as("only the job's probe was asked").hasSize(1);
        Result still = run();
        assertThat(still.exit()).as(still.toString()).isEqualTo(4);
        assertThat(site.requests()).as("nothing is sent with a rejected token").hasSize(1);

        storeToken();
        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
        nothingShownHoldsAToken(parked, still, r);
    }

    /**
     * The token is revoked after the picture went up: the post is answered 401. The key waits; the new token resumes
     * it from the upload (the first step with the token), and the status is posted once, with the new picture.
     */
    @Test
    void aTokenRevokedBeforeThePostParksTheKeyAndTheNewTokenPostsOnce() throws IOException {
        storeToken();
        site.revokeAtNextPost();

        Result parked = run();

        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.posted(TAG)).isZero();
        assertThat(site.uploads()).isEqualTo(1);

        storeToken();
        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(site.uploads()).as("the resumed key uploads the picture with the new token").isEqualTo(2);
        String attached = site.statuses().get(0).mediaIds().get(0);
        assertThat(site.media(attached).statusId()).isEqualTo(site.statuses().get(0).id());
        nothingShownHoldsAToken(parked, r);
    }

    /** {@code keyline credentials test mastodon} asks the probes with the token: a revoked one is rejected. */
    @Test
    void credentialsTestTellsARevokedTokenFromALiveOne() {
        storeToken();
        Result alive = wb.cli("credentials", "test", CRED, "--key", KEY);
        assertThat(alive.exit()).as(alive.toString()).isZero();

        site.revokeAll();
        Result gone = wb.cli("credentials", "test", CRED, "--key", KEY);

        assertThat(gone.exit()).as(gone.toString()).isEqualTo(2);
        assertThat(gone.out() + gone.err()).contains("rejected");
        assertThat(site.statusRequests()).isZero();
        assertThat(site.uploads()).isZero();
    }

    /**
     * The account posted its limit: Mastodon answers 429 with {@code X-RateLimit-Reset} (an ISO-8601 time) and no
     * {@code Retry-After}, until that time. The post is sent again when the server said it may be, and once.
     */
    @Test
    void aRateLimitedPostIsSentAgainAfterTheResetTheServerGaveAndPostedOnce() {
        storeToken();
        Instant before = wb.clock.instant();
        site.throttleStatusesFor(Duration.ofMinutes(4));

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("RETRY_WAIT");
        assertThat(Instant.parse(st.get("nextAttemptAt").asText())).as(st.toString())
                .isAfterOrEqualTo(before.plus(Duration.ofMinutes(4)));
        assertThat(site.statusRequests()).as("not sent again before the reset").isEqualTo(1);
        wb.clock.advance(Duration.ofMinutes(5));
        r = run();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(site.statusRequests()).isEqualTo(2);
    }

    /**
     * The token made its 300 requests of five minutes just before the post's probe: Mastodon refuses every request
     * with it 429 until the reset it gives in {@code X-RateLimit-Reset}. The probe cannot tell; the key waits until
     * the reset instead of spending its asks, then the probe finds nothing and the status is posted once.
     */
    @Test
    void aProbeRefusedByTheRateLimitWaitsForTheResetAndTheStatusIsPostedOnce() {
        storeToken();
        Instant before = wb.clock.instant();
        site.throttleApiAfter(3, Duration.ofMinutes(4));

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("RETRY_WAIT");
        assertThat(Instant.parse(st.get("nextAttemptAt").asText())).as(st.toString())
                .isAfterOrEqualTo(before.plus(Duration.ofMinutes(4)));
        assertThat(site.statusRequests()).isZero();
        wb.clock.advance(Duration.ofMinutes(5));
        r = run();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(site.statusRequests()).isEqualTo(1);
    }

    /** A text over 500 characters is refused 422 before anything is made: the key fails with Mastodon's words. */
    @Test
    void aStatusOverTheCharacterLimitFailsWithTheServersWordsAndIsNotSentAgain() throws IOException {
        storeToken();
        Files.createDirectories(wb.jobs.resolve("texts"));
        Files.writeString(wb.jobs.resolve("texts").resolve(KEY + ".txt"), "A long day. ".repeat(45) + "\n");

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("422").contains("character limit of 500 exceeded");
        assertThat(site.posted(TAG)).isZero();
        assertThat(site.statusRequests()).isEqualTo(1);
    }

    /**
     * The post's answer was lost while Mastodon was still working on it (resolving a mention on another server): the
     * probe finds nothing yet, and a person is asked. They confirm a minute later, while the first request still holds
     * its key's lock; it ends as the resend arrives. The resend carries the same {@code Idempotency-Key}
     * ({@code job:key:post}), within the hour Mastodon keeps it: Mastodon answers the status the first request made,
     * and makes no second one.
     */
    @Test
    void aResendWithinTheHourIsAnsweredWithTheStatusTheFirstRequestMade() throws IOException {
        quickPost();
        storeToken();
        site.holdBeforePost();
        Result lost = run();
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(site.posted(TAG)).as("the first request has made nothing yet").isZero();
        wb.clock.advance(Duration.ofMinutes(1));
        site.finishHeldPostWhenResent();

        Result confirmed = wb.cli("confirm", JOB, KEY, "--note", "looked: nothing there yet");

        assertThat(state()).as(confirmed.toString()).isEqualTo("DONE");
        assertThat(site.statusRequests()).as("the confirmed resend went out").isEqualTo(2);
        assertThat(site.posted(TAG)).isEqualTo(1);
        nothingShownHoldsAToken(lost, confirmed);
    }

    /**
     * The same lost answer, confirmed two hours later: Mastodon forgot the key after its hour, so a resend would make
     * a second status. The confirmed run asks the probe first, which finds the status the first request made: the
     * step is reconciled, nothing is sent.
     */
    @Test
    void aResendAfterTheHourIsNotSentBecauseTheProbeFindsTheStatus() throws Exception {
        quickPost();
        storeToken();
        site.holdBeforePost();
        Result lost = run();
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CONFIRMATION");
        site.release();
        awaitPosted();
        wb.clock.advance(Duration.ofHours(2));

        Result confirmed = wb.cli("confirm", JOB, KEY, "--note", "confirmed without looking");

        assertThat(state()).as(confirmed.toString()).isEqualTo("DONE");
        assertThat(site.statusRequests()).as("nothing sent after the hour").isEqualTo(1);
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(timeline(wb, JOB, KEY).stream().map(e -> e.get("message").asText()))
                .anyMatch(m -> m.contains("present"));
    }

    /** The {@code Idempotency-Key} of every status request, in order. */
    List<String> statusKeys() {
        return site.requests().stream().filter(q -> q.method().equals("POST") && q.path().equals("/api/v1/statuses"))
                .map(MastodonSite.Seen::idempotencyKey).toList();
    }

    /**
     * A person deletes the day's status to have it posted again, and re-arms the key within the hour Mastodon keeps
     * the post's {@code Idempotency-Key}. The redo is a new request, so it carries a new key: sent with the old one,
     * Mastodon would answer with the status that key made (here {@code 404 Record not found}, as it is deleted) and
     * post nothing. The status is posted again, once.
     */
    @Test
    void aStatusDeletedAndReArmedWithinTheHourIsPostedAgainWithANewIdempotencyKey() {
        storeToken();
        Result first = run();
        assertThat(first.exit()).as(first.toString()).isZero();
        site.deleteByHand(site.statuses().get(0).id());
        wb.clock.advance(Duration.ofMinutes(20));
        Result rearm = wb.cli("rearm", JOB, KEY, "--note", "deleted it: a typo");
        assertThat(rearm.exit()).as(rearm.toString()).isZero();

        Result again = run();

        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.posted(TAG)).as("the deleted one and the new one").isEqualTo(2);
        assertThat(statusKeys()).containsExactly("mastodon-status:2026-11-29:post",
                "mastodon-status:2026-11-29:post:redo1");
        site.statuses().forEach(st -> site.deleteByHand(st.id()));
        Result rearmAgain = wb.cli("rearm", JOB, KEY, "--note", "once more", "--from-step", "post");
        assertThat(rearmAgain.exit()).as(rearmAgain.toString()).isZero();
        Result plan = wb.cli("plan", JOB, "--key", KEY);
        assertThat(plan.out()).as("the plan shows the key the run sends")
                .contains("Idempotency-Key: mastodon-status:2026-11-29:post:redo2");
    }

    /**
     * Within one life of the re-armed post, every send carries the same key, across a run killed during the post and a
     * confirmed resend: the killed run's request was still being processed when the person confirmed, and Mastodon
     * answers the resend with the status it made. One status for the redo, not two.
     */
    @Test
    void aReArmedPostKilledMidwayAndConfirmedIsSentWithTheSameNewKeyAndPostedOnce() throws Exception {
        wb.clock.followSystemClock();
        quickPost();
        storeToken();
        Result first = run();
        assertThat(first.exit()).as(first.toString()).isZero();
        site.deleteByHand(site.statuses().get(0).id());
        Result rearm = wb.cli("rearm", JOB, KEY, "--note", "deleted it: a typo");
        assertThat(rearm.exit()).as(rearm.toString()).isZero();
        site.holdBeforePost();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", JOB, "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the redo reached the server").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();

        Result after = run();
        assertThat(after.exit()).as(after.toString()).isEqualTo(4);
        assertThat(state()).as("nothing found yet: a person decides").isEqualTo("NEEDS_CONFIRMATION");
        site.finishHeldPostWhenResent();
        Result confirmed = wb.cli("confirm", JOB, KEY, "--note", "looked: nothing there yet");

        assertThat(state()).as(confirmed.toString()).isEqualTo("DONE");
        assertThat(statusKeys()).containsExactly("mastodon-status:2026-11-29:post",
                "mastodon-status:2026-11-29:post:redo1", "mastodon-status:2026-11-29:post:redo1");
        assertThat(site.posted(TAG)).as("the deleted one and the redo's one").isEqualTo(2);
    }

    /**
     * What the job must not say: a post marked {@code idempotent} without a probe, trusting Mastodon's
     * {@code Idempotency-Key}. Its answer lost, it is sent again when its retry is due. Ten minutes later Mastodon
     * answers the status the first request made. Two hours later it has forgotten the key: the resend is refused only
     * because the picture is attached to the first status ({@code 422 Media … already attached to another post}), and
     * a status without a picture is made a second time.
     */
    @Test
    void mastodonsIdempotencyKeyHoldsForAnHourOnly() throws IOException {
        String text = example.text();
        String post = "{ \"id\": \"post\", \"kind\": \"http\", \"effect\": \"unsafe\", \"credential\": \"mastodon\","
                + " \"timeout\": \"PT1M\",\n      \"retry\": { \"maxAttempts\": 5, \"initialDelay\": \"PT10S\",";
        assertThat(text).contains(post);
        String trusting = text.replace(post, "{ \"id\": \"post\", \"kind\": \"http\", \"effect\": \"idempotent\","
                + " \"credential\": \"mastodon\", \"timeout\": \"PT2S\",\n      \"retry\": { \"maxAttempts\": 5,"
                + " \"initialDelay\": \"PT5M\",");
        trusting = trusting.substring(0, trusting.lastIndexOf(",\n      \"probe\"")) + " }\n  ]\n}\n";
        example.write(trusting);
        storeToken();

        Result within = lostThenResentAfter("2026-11-27", Duration.ofMinutes(10));
        assertThat(within.exit()).as(within.toString()).isZero();
        assertThat(site.posted("daily20261127")).as("within the hour: the same status").isEqualTo(1);

        Result after = lostThenResentAfter("2026-11-28", Duration.ofHours(2));
        assertThat(after.exit()).as(after.toString()).isEqualTo(2);
        assertThat(status(wb, JOB, "2026-11-28").get("message").asText()).contains("422")
                .contains("already attached to another post");
        assertThat(site.posted("daily20261128")).as("after the hour: refused for its picture alone").isEqualTo(1);

        String noPicture = "\"media_ids\": [\"{steps.upload.outputs.id}\"],";
        assertThat(trusting).contains(noPicture);
        example.write(trusting.replace(noPicture, ""));
        Result twice = lostThenResentAfter(KEY, Duration.ofHours(2));
        assertThat(twice.exit()).as(twice.toString()).isZero();
        assertThat(site.posted(TAG)).as("after the hour, without a picture: a second status").isEqualTo(2);
    }

    /**
     * {@code keyline plan} lists write, upload, processed, post with the picture's id as a value known at run time and
     * the token masked; applied while the server processes the picture ({@code 206} twice), the plan's own path is
     * walked and the status posted once.
     */
    @Test
    void anAppliedPlanWaitsForThePictureAndPostsOnce() throws IOException {
        storeToken();
        site.processing(2);
        Result plan = wb.cli("plan", JOB, "--key", KEY);
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("run write,upload,processed,post")
                .contains("/media_ids/0 = from step upload: id (known at run time)")
                .contains("Idempotency-Key: mastodon-status:2026-11-29:post");
        java.util.regex.Matcher id = java.util.regex.Pattern.compile("keyline apply ([0-9a-f]+)").matcher(plan.out());
        assertThat(id.find()).as(plan.out()).isTrue();

        Result r = wb.cli("apply", id.group(1));

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posted(TAG)).isEqualTo(1);
        assertThat(asked("GET", "/api/v1/media/")).isEqualTo(3);
        nothingShownHoldsAToken(plan, r);
    }

    /** The account id in the probes' URL is wrong: the server answers 404, and the key fails before anything is sent. */
    @Test
    void aWrongAccountIdFailsTheKeyBeforeAnythingIsSent() throws IOException {
        String text = example.text();
        assertThat(text).contains("/accounts/109348834771298765/");
        Files.writeString(wb.jobs.resolve(JOB + ".json"), text.replace("https://mastodon.example.org", site.base())
                .replace("/accounts/109348834771298765/", "/accounts/110000000000000001/"), StandardCharsets.UTF_8);
        storeToken();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, JOB, KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("404").contains("Record not found");
        assertThat(site.requests()).as("only the job's probe was asked").hasSize(1);
    }

    /**
     * A person confirms the resend while the first request still runs and holds its key's lock: Mastodon answers the
     * resend {@code 503} (RaceConditionError) and then finishes the first. The resend is retried, the probe looks
     * first and finds the status the first request made: nothing more is sent.
     */
    @Test
    void aResendRefusedWhileTheFirstRequestRunsIsNotSentAgainOnceTheProbeFindsTheStatus() throws IOException {
        quickPost();
        storeToken();
        site.holdBeforePost();
        Result lost = run();
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(4);
        site.finishHeldPostAfterRefusingResend();

        Result confirmed = wb.cli("confirm", JOB, KEY, "--note", "looked: nothing there yet");

        if (confirmed.exit() == 5) {
            wb.clock.advance(Duration.ofMinutes(5));
            confirmed = run();
        }
        assertThat(state()).as(confirmed.toString()).isEqualTo("DONE");
        assertThat(site.statusRequests()).as("the first, and the resend refused 503").isEqualTo(2);
        assertThat(site.posted(TAG)).isEqualTo(1);
    }

    /** The post of {@code key} is made and its answer lost; its retry goes out {@code later}: that run's result. */
    Result lostThenResentAfter(String key, Duration later) {
        site.holdAfterPost();
        Result lost = wb.cli("run", JOB, "--key", key);
        site.release();
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(5);
        wb.clock.advance(later);
        return wb.cli("run", JOB, "--key", key);
    }
}
