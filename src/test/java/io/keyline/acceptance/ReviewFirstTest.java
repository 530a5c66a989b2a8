package io.keyline.acceptance;

import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.set;
import static io.keyline.acceptance.CredentialTesting.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys parked on a login of a job whose unsafe steps were never reviewed (the demo's daily-article): a renewal or a
 * test that finds the login accepted resumes them, and what it says, the run's next steps and the waiting key's own
 * words lead to the review first, not to a run that only parks them again or to a confirmation that is refused.
 */
class ReviewFirstTest {

    static final String[] PARKED = {"2026-11-27", "2026-11-28", "2026-11-29"};

    @TempDir
    Path tmp;
    Workbench wb;
    TestSite site;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        site = new TestSite();
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
        site.requireCookie("session=good");
        set(wb, CRED, "session=stale");
        // typed by a person: it runs an unreviewed job, and the stale login parks its keys
        Result run = wb.cli("run", "--yes", "p", "--from", PARKED[0], "--to", PARKED[2]);
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        for (String k : PARKED) {
            assertThat(status(wb, "p", k).get("state").asText()).as(k).isEqualTo("NEEDS_CREDENTIAL");
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        site.close();
    }

    @Test
    void aRenewalOfAnUnreviewedJobsLoginSaysToReviewTheJobFirst() {
        Result renew = set(wb, CRED, "session=good");
        assertThat(renew.out()).as(renew.toString()).contains("3 parked keys resumed", "keyline plan p",
                "keyline approve p").doesNotContain("they run on the next run");

        // the advice followed: approve, then the next unattended run sends them, once each
        Result approve = wb.cli("approve", "p");
        assertThat(approve.exit()).as(approve.toString()).isZero();
        Result due = wb.cli("run", "--due");
        assertThat(due.exit()).as(due.toString()).isZero();
        assertThat(site.allEffects()).containsOnlyKeys(PARKED).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
    }

    /**
     * The person who pastes a new login has not seen the plan of an unreviewed job: running the resumed keys at once
     * holds that job's keys for its review, as an unattended run does, and runs a reviewed job's keys.
     */
    @Test
    void aRenewalThatRunsTheResumedKeysSendsNothingOfAnUnreviewedJob() throws IOException {
        wb.job("q", Jobs.publish("q", "unsafe", false, USES_CRED), site.base());
        assertThat(wb.cli("approve", "q").exit()).isZero();
        Result parked = wb.cli("run", "q", "--key", PARKED[2]);
        assertThat(parked.exit()).as(parked.toString()).isEqualTo(4);
        assertThat(status(wb, "q", PARKED[2]).get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");

        Result renew = wb.cliWithInput("session=good", "credentials", "set", CRED, "--run");

        assertThat(posts("p")).as(renew.toString()).isEmpty();
        for (String k : PARKED) {
            assertThat(status(wb, "p", k).get("state").asText()).as(k).isEqualTo("NEEDS_CONFIRMATION");
            assertThat(status(wb, "p", k).get("message").asText()).as(k).contains("review its plan");
        }
        assertThat(posts("q")).as(renew.toString()).hasSize(1);
        assertThat(status(wb, "q", PARKED[2]).get("state").asText()).isEqualTo("DONE");
        assertThat(renew.exit()).as(renew.toString()).isEqualTo(4);
        assertThat(renew.out()).as(renew.toString()).contains("4 parked keys resumed: 1 ran, 1 completed",
                "3 wait for the review of p and were not sent",
                "next: review job p first: keyline plan p, then keyline apply PLAN_ID; or keyline approve p");
    }

    /**
     * A key that waits for its job's review is not a failure: Attention shows no evidence with it, not the answer of
     * the login the renewal replaced.
     */
    @Test
    void keysThatWaitForTheReviewAfterARenewalShowNoEvidenceOfTheOldLogin() throws IOException {
        wb.cliWithInput("session=good", "credentials", "set", CRED, "--run");
        try (io.keyline.workspace.Workspace ws = new io.keyline.workspace.Workspace(wb.state, wb.jobs, wb.options(),
                wb.env())) {
            var items = ws.operations().attention(ws.catalog().jobs(), java.util.Map.of(), wb.clock.instant());
            assertThat(items).as("attention").hasSize(1);
            assertThat(items.get(0).kind()).isEqualTo(io.keyline.core.operations.Attention.Kind.REVIEW);
            assertThat(items.get(0).keys()).containsExactly(PARKED);
            assertThat(items.get(0).evidence()).as("the item's evidence line").isEmpty();
            // the console's card says what to do there, once, not the command line's commands
            assertThat(items.get(0).reason()).contains("Plan…", "publish").doesNotContain("keyline ");
        }
    }

    /** The POSTs of {@code job} the site received (each carries {@code Idempotency-Key: job:key:step}). */
    private java.util.List<io.keyline.testing.FaultServer.Request> posts(String job) {
        return site.server().received().stream().filter(r -> r.method().equals("POST"))
                .filter(r -> String.valueOf(r.header("Idempotency-Key")).startsWith(job + ":")).toList();
    }

    @Test
    void aTestThatFindsAnUnreviewedJobsLoginAcceptedSaysToReviewTheJobFirst() {
        site.requireCookie("session=stale"); // the site takes the old login again
        Result test = wb.cli("credentials", "test", CRED);
        assertThat(test.exit()).as(test.toString()).isZero();
        assertThat(test.out()).contains("3 parked keys resumed", "keyline plan p", "keyline approve p")
                .doesNotContain("run them with keyline run --due");
    }

    @Test
    void inChineseTheReviewFirstReadsInChinese() {
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            Result renew = set(wb, CRED, "session=good");
            assertThat(renew.out()).as(renew.toString()).contains("3 个等待的任务项已恢复，但在作业 p 审核之前，"
                    + "keyline run --due、调度器和工作进程会让它们再次等待", "下一步：先审核作业 p：keyline plan p，再 "
                    + "keyline apply PLAN_ID；或 keyline approve p").doesNotContain("parked", "resumed");
            Result due = wb.cli("run", "--due");
            assertThat(due.out()).as(due.toString()).contains("下一步：先审核作业 p",
                    "新作业：请审核它的计划；在此之前，任何运行都不会为这个任务项发送 publish")
                    .doesNotContain("keyline confirm", "review");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void aReviewedJobsResumedKeysRunOnTheNextRunAsBefore() {
        assertThat(wb.cli("approve", "p").exit()).isZero();
        Result renew = set(wb, CRED, "session=good");
        assertThat(renew.out()).contains("3 parked keys resumed: they run on the next run")
                .doesNotContain("approve");
        assertThat(wb.cli("run", "--due").exit()).isZero();
        assertThat(site.allEffects()).containsOnlyKeys(PARKED);
    }

    @Test
    void aReviewedJobsKeysResumedByATestRunOnTheNextRunAsBefore() {
        assertThat(wb.cli("approve", "p").exit()).isZero();
        site.requireCookie("session=stale");
        Result test = wb.cli("credentials", "test", CRED);
        assertThat(test.exit()).as(test.toString()).isZero();
        assertThat(test.out()).contains("3 parked keys resumed: run them with keyline run --due")
                .doesNotContain("approve");
    }

    @Test
    void aRunThatParksKeysForTheReviewPointsToTheReviewAndAnUnknownOutcomeToConfirm() throws IOException {
        // another job, reviewed, whose POST gets no complete answer and has no probe: its outcome is unknown
        wb.job("u", Jobs.publish("u", "unsafe", false, null), site.base());
        assertThat(wb.cli("approve", "u").exit()).isZero();
        site.requireCookie(null);
        set(wb, CRED, "session=good");
        site.failPosts(TestSite.Fault.STATUS_500_AFTER_ACTING);
        wb.seed("u", java.util.List.of("2026-11-29"));

        Result due = wb.cli("run", "--due");
        assertThat(due.exit()).as(due.toString()).isEqualTo(4);
        assertThat(status(wb, "p", PARKED[0]).get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(status(wb, "u", "2026-11-29").get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(due.out()).as(due.toString())
                .doesNotContain("keyline confirm p ", "keyline mark-done p ")
                .contains("next: review job p first: keyline plan p, then keyline apply PLAN_ID; or keyline approve p")
                .contains("next: keyline confirm u 2026-11-29   or   keyline mark-done u 2026-11-29");
        // what the run's next step says is what works: confirm is refused for a key that waits for the review
        assertThat(wb.cli("confirm", "p", PARKED[0]).exit()).isEqualTo(1);
    }

    @Test
    void aKeyThatWaitsForTheReviewSaysThatNoRunSendsItNotOnlyAnUnattendedOne() {
        set(wb, CRED, "session=good");
        assertThat(wb.cli("run", "--due").exit()).isEqualTo(4); // parks the three for the review
        long posts = site.posts();

        // a person types a run of one of them: it does not send publish either, and the words say so
        Result typed = wb.cli("run", "p", "--key", PARKED[2]);
        assertThat(typed.exit()).as(typed.toString()).isEqualTo(4);
        assertThat(site.posts()).isEqualTo(posts);
        assertThat(site.allEffects()).isEmpty();
        assertThat(typed.out()).as(typed.toString()).doesNotContain("unattended")
                .contains("until then no run sends publish of this key");
        assertThat(status(wb, "p", PARKED[2]).get("message").asText())
                .contains("until then no run sends publish of this key").doesNotContain("unattended");
    }
}
