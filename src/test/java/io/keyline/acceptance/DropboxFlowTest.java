package io.keyline.acceptance;

import io.keyline.testing.DropboxSite;
import io.keyline.testing.ExampleJob;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The week's design files packed and archived in a loopback Dropbox by the job shipped as
 * {@code resources/jobs/examples/dropbox-archive.json}, with an OAuth 2.0 refresh-token credential, through the real
 * command line (and a child process for the SIGKILL): Keyline obtains the access token from the token endpoint, asks
 * {@code files/get_metadata} whether the week's file is there ({@code 409 path/not_found}: absent) and uploads it
 * with {@code files/upload}. The site counts the uploads that stored the file: one per key, whatever happened on the
 * way; and no secret it issued (refresh tokens, access tokens, the app secret) is ever shown.
 */
class DropboxFlowTest {

    static final String JOB = "dropbox-archive";
    static final String CRED = "dropbox";
    static final String KEY = "2026-W48";

    @TempDir
    Path tmp;
    Workbench wb;
    DropboxSite site;

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new DropboxSite(wb.clock);
        for (String week : List.of("2026-W46", "2026-W47", KEY)) {
            Path dir = Files.createDirectories(wb.jobs.resolve("designs").resolve(week));
            byte[] png = new byte[20_000];
            new Random(week.hashCode()).nextBytes(png);
            Files.write(dir.resolve("poster.png"), png);
        }
        new ExampleJob(wb, JOB, "pack-designs.sh",
                Map.of("https://api.dropboxapi.com", site.api(), "https://content.dropboxapi.com", site.content()));
    }

    @AfterEach
    void close() throws IOException {
        site.close();
    }

    static String file(String week) {
        return "/Archive/" + week + ".tar.gz";
    }

    /**
     * Stores a refresh token as the operator does: the secrets on standard input, the endpoint and the app key as
     * options; nothing it prints holds a secret.
     */
    Result store(String refreshToken) {
        Result r = wb.cliWithInput("client_secret=" + site.appSecret() + "\nrefresh_token=" + refreshToken + "\n",
                "credentials", "set", CRED, "--type", "oauth2", "--token-url", site.tokenUrl(),
                "--client-id", DropboxSite.APP_KEY);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("oauth2");
        noSecretIn(r.out() + r.err());
        return r;
    }

    Result run(String week) {
        return wb.cli("run", JOB, "--key", week);
    }

    String state(String week) {
        return status(wb, JOB, week).get("state").asText();
    }

    void noSecretIn(String text) {
        for (String secret : site.secrets()) {
            assertThat(text).as("a secret the site issued is shown").doesNotContain(secret);
        }
    }

    /** What Keyline shows of the key anywhere (run output, export, timeline, status, credentials list, the run log). */
    void nothingShownHoldsASecret(String week, Result... runs) throws IOException {
        assertThat(site.count("/oauth2/token")).as("the token endpoint was asked").isPositive();
        List<String> shown = new ArrayList<>(wb.shown(JOB, week, runs));
        shown.add(wb.cli("credentials", "list").out());
        for (String text : shown) {
            noSecretIn(text);
        }
    }

    @Test
    void aNormalWeekObtainsOneAccessTokenUploadsOnceAndARerunSendsNothing() throws IOException {
        store(site.newRefreshToken());
        Result plan = wb.cli("plan", JOB, "--key", KEY, "--json");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).as("the plan asks the probe and shows the header the upload carries, masked")
                .contains("\"Authorization\" : \"*** (credential " + CRED).contains("absent");
        assertThat(site.uploads(file(KEY))).isZero();

        Result r = run(KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state(KEY)).isEqualTo("DONE");
        assertThat(site.uploads(file(KEY))).as("uploads of the week's archive").isEqualTo(1);
        assertThat(site.file(file(KEY))).isEqualTo(Files.readAllBytes(wb.jobs.resolve("archive/" + KEY + ".tar.gz")));
        assertThat(site.count("/oauth2/token")).as("one exchange for the probe and the upload").isEqualTo(1);
        assertThat(site.requests()).filteredOn(q -> q.path().startsWith("/2/"))
                .allSatisfy(q -> assertThat(q.header("Authorization")).startsWith("Bearer sl."));
        int asked = site.requests().size();

        Result again = run(KEY);

        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.requests()).as("a done week sends nothing").hasSize(asked);
        assertThat(site.uploads(file(KEY))).isEqualTo(1);
        nothingShownHoldsASecret(KEY, plan, r, again);
    }

    @Test
    void anAccessTokenThatEndsBetweenRunsOrWithinOneIsRenewedOnceAndNoPersonIsAsked() throws IOException {
        store(site.newRefreshToken());
        Result first = run("2026-W46");
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(site.count("/oauth2/token")).isEqualTo(1);

        String firstToken = site.requests().stream().filter(q -> q.path().startsWith("/2/")).findFirst()
                .orElseThrow().header("Authorization");

        // five hours later the kept token has ended on Keyline's clock: a new one before anything is sent
        wb.clock.advance(Duration.ofHours(5));
        int asked = site.requests().size();
        Result later = run("2026-W47");

        assertThat(later.exit()).as(later.toString()).isZero();
        assertThat(site.count("/oauth2/token")).isEqualTo(2);
        assertThat(site.requests().subList(asked, site.requests().size())).extracting(q -> q.path())
                .containsExactly("/oauth2/token", "/2/files/get_metadata", "/2/files/upload");
        assertThat(site.requests().subList(asked, site.requests().size())).filteredOn(q -> q.path().startsWith("/2/"))
                .noneMatch(q -> q.header("Authorization").equals(firstToken));

        // Dropbox ends the token early: the probe's 401 gets one new token and is asked once more
        site.expireAccessTokens();
        int before = site.requests().size();
        Result within = run(KEY);

        assertThat(within.exit()).as(within.toString()).isZero();
        assertThat(state(KEY)).isEqualTo("DONE");
        assertThat(site.count("/oauth2/token")).as("one renewal").isEqualTo(3);
        assertThat(site.requests().subList(before, site.requests().size())).extracting(q -> q.path())
                .containsExactly("/2/files/get_metadata", "/oauth2/token", "/2/files/get_metadata", "/2/files/upload");
        for (String week : List.of("2026-W46", "2026-W47", KEY)) {
            assertThat(site.uploads(file(week))).as(week).isEqualTo(1);
        }
        nothingShownHoldsASecret(KEY, first, later, within);
    }

    @Test
    void aRevokedRefreshTokenParksTheWeekUntilARenewedOneIsStoredThenItUploadsOnce() throws IOException {
        store(site.newRefreshToken());
        site.revokeAll();
        site.echo(true);

        Result r = run(KEY);
        Result again = run(KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(again.exit()).as(again.toString()).isEqualTo(4);
        assertThat(state(KEY)).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(status(wb, JOB, KEY).get("message").asText()).contains("invalid_grant", "refresh token is invalid");
        assertThat(site.count("/oauth2/token")).as("a refused refresh token is not sent again").isEqualTo(1);
        assertThat(site.count("/2/files/get_metadata") + site.count("/2/files/upload")).isZero();
        Result test = wb.cli("credentials", "test", CRED);
        assertThat(test.exit()).as(test.toString()).isEqualTo(2);
        assertThat(test.out()).contains("invalid_grant");

        Result renewed = store(site.newRefreshToken());
        assertThat(renewed.out()).contains(JOB + " " + KEY);
        Result after = run(KEY);

        assertThat(after.exit()).as(after.toString()).isZero();
        assertThat(state(KEY)).isEqualTo("DONE");
        assertThat(site.uploads(file(KEY))).isEqualTo(1);
        nothingShownHoldsASecret(KEY, r, again, test, renewed, after);
    }

    @Test
    void aRotatedRefreshTokenIsKeptAcrossASigkillRightAfterTheTokenAnswer() throws Exception {
        wb.clock.followSystemClock();
        site.rotate(true);
        String stored = site.newRefreshToken();
        store(stored);
        String before = wb.cli("credentials", "list").out();
        site.holdAfterToken();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", JOB, "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the token endpoint answered the child").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();
        assertThat(site.count("/oauth2/token")).isEqualTo(1);
        assertThat(site.uploads(file(KEY))).isZero();
        assertThat(wb.cli("credentials", "list").out()).as("the rotated refresh token is stored").isNotEqualTo(before);

        // the site forgot the stored refresh token when it rotated it: only the rotated one works now
        Result r = run(KEY);

        assertThat(r.exit()).as(r + "\n" + Files.readString(tmp.resolve("child.log"))).isZero();
        assertThat(state(KEY)).isEqualTo("DONE");
        assertThat(site.uploads(file(KEY))).isEqualTo(1);
        assertThat(site.requests()).filteredOn(q -> q.path().equals("/oauth2/token"))
                .extracting(q -> q.bodyText().contains(stored)).containsExactly(true, false);
        assertThat(wb.cli("credentials", "list").out()).isNotEqualTo(before);
        assertThat(wb.cli("timeline", JOB, KEY).out()).contains("credential " + CRED + " refreshed");
        nothingShownHoldsASecret(KEY, r);
    }

    /** A 401 to a token just obtained is the site's refusal of the login: the key parks, once, never a loop. */
    @Test
    void a401ToAFreshTokenParksTheWeekAfterOneRenewalOfAKeptOne() throws IOException {
        store(site.newRefreshToken());
        Result first = run("2026-W47");
        assertThat(first.exit()).as(first.toString()).isZero();
        site.suspend();

        Result r = run(KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(state(KEY)).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(status(wb, JOB, KEY).get("message").asText()).contains("user_suspended");
        assertThat(site.count("/oauth2/token")).as("one renewal after the kept token's 401").isEqualTo(2);
        assertThat(site.count("/2/files/get_metadata")).as("W47's, then the kept token's and the new one's")
                .isEqualTo(3);
        assertThat(site.uploads(file(KEY))).isZero();

        Result again = run(KEY);
        assertThat(again.exit()).isEqualTo(4);
        assertThat(site.count("/oauth2/token") + site.count("/2/files/get_metadata")).as("nothing more is sent")
                .isEqualTo(5);
        nothingShownHoldsASecret(KEY, first, r, again);
    }

    @Test
    void aRotatedRefreshTokenIsStoredAndTheNextExchangeUsesIt() throws IOException {
        site.rotate(true);
        String stored = site.newRefreshToken();
        store(stored);
        Result first = run("2026-W46");
        assertThat(first.exit()).as(first.toString()).isZero();
        wb.clock.advance(Duration.ofHours(5));

        Result later = run("2026-W47");

        assertThat(later.exit()).as(later.toString()).isZero();
        assertThat(site.requests()).filteredOn(q -> q.path().equals("/oauth2/token"))
                .extracting(q -> q.bodyText().contains(stored)).containsExactly(true, false);
        assertThat(wb.cli("timeline", JOB, "2026-W46").out()).contains("credential " + CRED + " refreshed");
        nothingShownHoldsASecret("2026-W47", first, later);
    }

    @Test
    void aTokenEndpointThatIsDownSendsNothingToTheSiteAndTheWeekGoesOnWhenItIsBack() throws IOException {
        store(site.newRefreshToken());
        site.tokenDown(true);

        Result r = run(KEY);

        assertThat(r.exit()).as(r.toString()).isNotZero();
        assertThat(state(KEY)).isIn("RETRY_WAIT", "FAILED");
        assertThat(site.count("/oauth2/token")).as("retried").isGreaterThan(1);
        assertThat(site.count("/2/files/get_metadata") + site.count("/2/files/upload")).as("nothing sent").isZero();
        assertThat(r.out()).contains("nothing was sent to the site");

        site.tokenDown(false);
        wb.clock.advance(Duration.ofHours(1));
        if (state(KEY).equals("FAILED")) {
            assertThat(wb.cli("retry", JOB, KEY).exit()).isZero();
        }
        Result later = run(KEY);

        assertThat(later.exit()).as(later.toString()).isZero();
        assertThat(state(KEY)).isEqualTo("DONE");
        assertThat(site.uploads(file(KEY))).isEqualTo(1);
        nothingShownHoldsASecret(KEY, r, later);
    }

    @Test
    void anUploadWhoseAnswerIsLostIsFoundByTheProbeAndNotSentAgain() throws IOException {
        store(site.newRefreshToken());
        site.loseNextUploadAnswer();

        Result r = run(KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state(KEY)).isEqualTo("DONE");
        assertThat(site.uploads(file(KEY))).isEqualTo(1);
        assertThat(site.count("/2/files/upload")).isEqualTo(1);
        assertThat(site.count("/2/files/get_metadata")).as("before the upload, and after its lost answer").isEqualTo(2);
        assertThat(wb.cli("timeline", JOB, KEY).out()).contains("reconciled");
        nothingShownHoldsASecret(KEY, r);
    }
}
