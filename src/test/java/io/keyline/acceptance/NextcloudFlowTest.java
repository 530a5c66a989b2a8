package io.keyline.acceptance;

import io.keyline.testing.FaultServer.Request;
import io.keyline.testing.ExampleJob;
import io.keyline.testing.NextcloudSite;
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
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The week's design files packed and uploaded to a server shaped like Nextcloud's WebDAV, by the job shipped as
 * {@code resources/jobs/examples/nextcloud-archive.json}, driven through the real command line (and a child process
 * for the SIGKILL): a command packs {@code designs/2026-W48/} into {@code archive/2026-W48.tar.gz}, {@code MKCOL}
 * makes the year's folder (405: it is there), a conditional {@code PUT} ({@code If-None-Match: *}) uploads the
 * archive as it is on disk (412: it is there), and {@code PROPFIND} checks it. The server counts the uploads that
 * stored the file: one per key, whatever happened on the way; the bytes that arrive are the archive's (SHA-256); and
 * the app password is never shown.
 */
class NextcloudFlowTest {

    static final String KEY = "2026-W48";
    static final String JOB = "nextcloud-archive";
    static final String CRED = "nextcloud";
    static final String FILE = "Archive/2026/2026-W48.tar.gz";

    @TempDir
    Path tmp;
    Workbench wb;
    NextcloudSite site;
    ExampleJob example;
    final List<String> passwords = new ArrayList<>();

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new NextcloudSite();
        Path week = Files.createDirectories(wb.jobs.resolve("designs").resolve(KEY));
        // exported designs are binary: every byte value, bytes that are no UTF-8, a NUL, CR LF
        byte[] png = new byte[70_000];
        new Random(48).nextBytes(png);
        Files.write(week.resolve("poster.png"), png);
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        Files.write(week.resolve("palette.bin"), all);
        Files.writeString(week.resolve("notes-\u5468.txt"), "r\u00e9sum\u00e9 \u5468\u62a5\r\n", StandardCharsets.UTF_8);
        example = new ExampleJob(wb, JOB, "pack-designs.sh", Map.of("https://cloud.example.org", site.base()));
    }

    @AfterEach
    void close() throws IOException {
        site.close();
    }

    /** The example with a job-level probe that asks PROPFIND (Depth 0) whether the week's archive is there. */
    void jobWithPropfindProbe() throws IOException {
        String text = example.text();
        assertThat(text).contains("  \"steps\": [");
        example.write(text.replace("  \"steps\": [", "  \"probe\": { \"kind\": \"http\", \"method\": \"PROPFIND\", "
                + "\"credential\": \"nextcloud\", \"headers\": { \"Depth\": \"0\" }, "
                + "\"url\": \"https://cloud.example.org/remote.php/dav/files/alice/Archive/2026/{key}.tar.gz\", "
                + "\"presentWhen\": { \"status\": [207] } },\n  \"steps\": ["));
    }

    /** Stores an app password as the operator does: {@code user:app-password} into {@code credentials set nextcloud --type basic}. */
    void storePassword() {
        String password = site.newAppPassword();
        passwords.add(password);
        Result r = wb.cliWithInput(NextcloudSite.USER + ":" + password + "\n",
                "credentials", "set", CRED, "--type", "basic");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out() + r.err()).doesNotContain(password);
    }

    Result run() {
        return wb.cli("run", JOB, "--key", KEY);
    }

    String state() {
        return status(wb, JOB, KEY).get("state").asText();
    }

    byte[] archive() throws IOException {
        return Files.readAllBytes(wb.jobs.resolve("archive").resolve(KEY + ".tar.gz"));
    }

    Request lastPut() {
        List<Request> puts = site.requests().stream().filter(q -> q.method().equals("PUT")).toList();
        return puts.get(puts.size() - 1);
    }

    /** The archive on the server is the one on disk, byte for byte, and was stored once. */
    void uploadedOnceIntact() throws IOException {
        assertThat(site.uploads(FILE)).as("uploads of the week's archive").isEqualTo(1);
        assertThat(NextcloudSite.sha256(site.file(FILE))).isEqualTo(NextcloudSite.sha256(archive()));
    }

    /** What Keyline shows of the key anywhere: run output, export, timeline, status, the run log. */
    void nothingShownHoldsThePassword(Result... runs) throws IOException {
        assertThat(wb.logs().resolve("runs.jsonl")).exists();
        List<String> shown = wb.shown(JOB, KEY, runs);
        assertThat(site.requests()).as("the password went to the server")
                .anyMatch(q -> NextcloudSite.basic(passwords.get(0)).equals(q.header("Authorization")));
        for (String text : shown) {
            for (String p : passwords) {
                String basic = NextcloudSite.basic(p);
                assertThat(text).as("an app password is shown").doesNotContain(p)
                        .doesNotContain(basic.substring("Basic ".length()))
                        .doesNotContain(java.util.Base64.getEncoder().withoutPadding()
                                .encodeToString(p.getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    @Test
    void aNormalWeekUploadsTheArchiveOnceByteForByteAndARerunSendsNothing() throws IOException {
        storePassword();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.folder("Archive/2026/")).isTrue();
        uploadedOnceIntact();
        Request put = lastPut();
        assertThat(put.header("Content-Length")).isEqualTo(Integer.toString(archive().length));
        assertThat(put.header("Content-Type")).isEqualTo("application/gzip");
        assertThat(put.header("If-None-Match")).isEqualTo("*");
        assertThat(site.requests()).filteredOn(q -> q.method().equals("PROPFIND"))
                .singleElement().satisfies(q -> assertThat(q.header("Depth")).isEqualTo("0"));
        int asked = site.requests().size();

        Result again = run();

        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.requests()).as("a done week sends nothing").hasSize(asked);
        uploadedOnceIntact();
        nothingShownHoldsThePassword(r, again);
    }

    @Test
    void aRevokedAppPasswordParksTheWeekWithOneRefusalAndARenewedOneUploadsIt() throws IOException {
        storePassword();
        site.revokeAll();

        Result r = run();
        Result again = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(again.exit()).as(again.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.failedLogins()).as("no request goes out with a password the server refused")
                .isEqualTo(1);
        assertThat(site.count("PUT")).isZero();

        storePassword();
        Result renewed = run();

        assertThat(renewed.exit()).as(renewed.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        uploadedOnceIntact();
        nothingShownHoldsThePassword(r, again, renewed);
    }

    /**
     * A server that writes the login it was sent into its refusal (a debugging proxy, a misconfigured server): the
     * refusal is the key's evidence, and the app password in it is masked bare, as {@code user:password} and in Base64.
     * {@code credentials test} asks the job's PROPFIND probe with the login.
     */
    @Test
    void aBasicLoginEchoedByTheServerIsMaskedInEveryOutputAndTheTestSaysRejectedThenAccepted() throws IOException {
        jobWithPropfindProbe();
        storePassword();
        site.echoLogins(true);
        site.revokeAll();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(state()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.requests()).as("sent as HTTP Basic").first()
                .satisfies(q -> assertThat(q.header("Authorization")).isEqualTo(NextcloudSite.basic(passwords.get(0))));
        assertThat(wb.cli("timeline", JOB, KEY, "--json").out()).as("the refusal is the evidence")
                .contains("echo of the login").contains("***");
        Result rejected = wb.cli("credentials", "test", CRED);
        assertThat(rejected.exit()).as(rejected.toString()).isEqualTo(2);

        storePassword();
        Result accepted = wb.cli("credentials", "test", CRED);
        assertThat(accepted.exit()).as(accepted.toString()).isZero();
        Result renewed = run();

        assertThat(renewed.exit()).as(renewed.toString()).isZero();
        uploadedOnceIntact();
        nothingShownHoldsThePassword(r, rejected, accepted, renewed);
    }

    @Test
    void aRunKilledDuringTheUploadUploadsTheArchiveOnceOnTheNextRun() throws Exception {
        wb.clock.followSystemClock();
        storePassword();
        site.holdNextPut();
        Process p = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("child.log"), "run", JOB, "--key", KEY);
        assertThat(site.awaitHeld(60)).as("the upload reached the server").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        site.release();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.count("PUT")).as("the broken upload, then one whole").isEqualTo(2);
        uploadedOnceIntact();
        nothingShownHoldsThePassword(r);
    }

    @Test
    void maintenanceModeWaitsForItsRetryAfterAndTheWeekGoesOnAfterIt() throws IOException {
        storePassword();
        site.maintenance(true);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        assertThat(state()).isEqualTo("RETRY_WAIT");
        assertThat(status(wb, JOB, KEY).get("nextAttemptAt").asText()).isNotEmpty();
        site.maintenance(false);
        wb.clock.advance(Duration.ofMinutes(3));
        Result later = run();

        assertThat(later.exit()).as(later.toString()).isZero();
        uploadedOnceIntact();
    }

    @Test
    void aFolderThatExistsAnswers405AndTheWeekGoesOn() throws IOException {
        storePassword();
        Result first = wb.cli("run", JOB, "--key", "2026-W47");
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(site.requests()).filteredOn(q -> q.method().equals("MKCOL")).hasSize(1);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.count("MKCOL")).isEqualTo(2);
        uploadedOnceIntact();
    }

    @Test
    void anArchiveAlreadyThereAnswers412AndIsNotReplaced() throws IOException {
        storePassword();
        byte[] byHand = "uploaded from the desktop client".getBytes(StandardCharsets.UTF_8);
        Result mk = wb.cli("run", JOB, "--key", "2026-W47");
        assertThat(mk.exit()).as(mk.toString()).isZero();
        site.putByHand(FILE, byHand);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(site.uploads(FILE)).isZero();
        assertThat(site.file(FILE)).isEqualTo(byHand);
    }

    @Test
    void aFileLockedByAnotherClientIsTriedAgainAndThenUploaded() throws IOException {
        storePassword();
        site.lock(FILE);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        assertThat(state()).isEqualTo("RETRY_WAIT");
        assertThat(site.count("PUT")).as("423: the upload waits for the lock to end").isPositive();
        assertThat(site.uploads(FILE)).isZero();
        site.unlock(FILE);
        wb.clock.advance(Duration.ofMinutes(10));
        Result later = run();

        assertThat(later.exit()).as(later.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        uploadedOnceIntact();
    }

    @Test
    void aFullQuotaFailsTheWeekWithTheServersWordsAndARetryUploadsIt() throws IOException {
        storePassword();
        site.quota(1000);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(state()).isEqualTo("FAILED");
        assertThat(status(wb, JOB, KEY).get("message").asText()).contains("507").contains("Insufficient space");
        assertThat(site.count("PUT")).as("a full quota does not empty itself: not sent again").isEqualTo(1);
        assertThat(site.uploads(FILE)).isZero();

        site.quota(Long.MAX_VALUE);
        Result retried = wb.cli("retry", JOB, KEY);
        assertThat(retried.exit()).as(retried.toString()).isZero();
        Result later = run();

        assertThat(later.exit()).as(later.toString()).isZero();
        uploadedOnceIntact();
    }

    @Test
    void aMissingParentFolderFailsWithTheServersWordsAndSendsNoUpload() throws IOException {
        storePassword();
        site.removeArchiveFolder();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(state()).isEqualTo("FAILED");
        assertThat(status(wb, JOB, KEY).get("message").asText()).contains("409").contains("Parent node does not exist")
                .doesNotContain("in progress");
        assertThat(site.count("MKCOL")).as("a refusal is not sent again").isEqualTo(1);
        assertThat(site.count("PUT")).isZero();
    }

    /**
     * The job without its {@code refusedWhen} for 409: WebDAV's {@code 409 Conflict} to MKCOL (Sabre's
     * {@code Conflict}, "Parent node does not exist") says nothing of the {@code Idempotency-Key} the request carried,
     * so it is no request still in progress: the folder above is missing, nothing was made, and the key fails with the
     * server's words, sent once.
     */
    @Test
    void aBare409IsTheServersRefusalNotARequestInProgress() throws IOException {
        example.with("\"response\": { \"refusedWhen\": { \"status\": [409] }, \"successWhen\"",
                "\"response\": { \"successWhen\"");
        storePassword();
        site.removeArchiveFolder();

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(state()).isEqualTo("FAILED");
        assertThat(status(wb, JOB, KEY).get("class").asText()).isEqualTo("FATAL");
        assertThat(status(wb, JOB, KEY).get("message").asText()).contains("409").contains("Parent node does not exist")
                .doesNotContain("in progress");
        assertThat(site.count("MKCOL")).as("a refusal is not sent again").isEqualTo(1);
        assertThat(site.count("PUT")).isZero();
    }

    /**
     * The upload made {@code unsafe}, without a rule for 507: a full quota did not store the file (RFC 4918: the
     * method could not be performed, and the condition is temporary). It is no outcome a person must confirm: the upload
     * is tried again as the retry policy says, the key saying the server is out of space, and it is stored once space
     * is free.
     */
    @Test
    void aFullQuotaIsTriedAgainLaterEvenForAnUnsafeUploadAndSaysTheServerIsOutOfSpace() throws IOException {
        String text = example.text();
        String upload = "{ \"id\": \"upload\", \"kind\": \"http\", \"effect\": \"idempotent\"";
        String rules = "\"refusedWhen\": { \"status\": [409, 507] },";
        assertThat(text).contains(upload).contains(rules);
        example.write(text.replace(upload, upload.replace("idempotent", "unsafe")).replace(rules, ""));
        storePassword();
        site.quota(1000);

        Result r = run();

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        assertThat(state()).isEqualTo("RETRY_WAIT");
        assertThat(status(wb, JOB, KEY).get("message").asText()).contains("507").contains("out of space")
                .contains("Insufficient space");
        assertThat(site.count("PUT")).isEqualTo(1);
        assertThat(site.uploads(FILE)).isZero();

        site.quota(Long.MAX_VALUE);
        wb.clock.advance(Duration.ofMinutes(2));
        Result later = run();

        assertThat(later.exit()).as(later.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        uploadedOnceIntact();
    }

    /** A job's own probe asks PROPFIND (Depth 0): 207 is there, 404 is not. */
    @Test
    void aPropfindProbeFindsAnArchiveThereAndAsksNothingElse() throws IOException {
        jobWithPropfindProbe();
        storePassword();
        site.putByHand(FILE, new byte[] {1, 2, 3});
        Result there = run();
        Result absent = wb.cli("run", JOB, "--key", "2026-W47");

        assertThat(there.exit()).as(there.toString()).isZero();
        assertThat(state()).isEqualTo("DONE");
        assertThat(absent.exit()).as(absent.toString()).isZero();
        assertThat(site.count("PUT")).as("only the week whose archive was absent").isEqualTo(1);
        assertThat(site.uploads("Archive/2026/2026-W47.tar.gz")).isEqualTo(1);
        assertThat(wb.jobs.resolve("archive").resolve(KEY + ".tar.gz")).as("nothing packed for a week that is there")
                .doesNotExist();
    }
}
