package io.keyline.ui.plan;

import io.keyline.core.Plan;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Threads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The plan preview against a real state folder and a real loopback site, with direct threads. */
class PlanViewModelTest {

    static final String TODAY = "2026-11-29";

    @TempDir
    Path tmp;
    ConsoleFixture fx;
    PlanViewModel vm;

    @BeforeEach
    void setUp() throws IOException {
        fx = new ConsoleFixture(tmp);
        fx.publishJob("p", null);
        vm = new PlanViewModel(fx.services, Threads.direct());
        vm.loadJobs();
        vm.choice().jobProperty().set("p");
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
    }

    @Test
    void planShowsTheRunAndTheExactRequestAndSendsNothing() {
        assertThat(vm.jobs()).containsExactly("p");
        vm.plan();

        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.rows()).hasSize(1);
        PlanViewModel.Row shown = vm.rows().get(0);
        Plan.KeyPlan row = shown.plan();
        assertThat(row.key()).isEqualTo(TODAY);
        assertThat(row.state()).isEqualTo(KeyState.PENDING);
        assertThat(row.action()).isEqualTo("run write,publish");
        Plan.RequestPreview post = row.requests().get(0);
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.url()).isEqualTo(fx.site.base() + "/api/articles");
        assertThat(post.headers()).containsEntry("Idempotency-Key", "p:" + TODAY + ":publish")
                .containsEntry("User-Agent", io.keyline.core.exec.HttpExecutor.USER_AGENT);
        assertThat(post.note().text()).contains("an earlier step writes it");

        assertThat(vm.selectedProperty().get()).isEqualTo(shown);
        assertThat(vm.detailProperty().get())
                .contains("publish: POST " + fx.site.base() + "/api/articles")
                .contains("Idempotency-Key: p:" + TODAY + ":publish")
                .contains("body: file out/" + TODAY + ".md - body file out/" + TODAY + ".md does not exist yet");
        assertThat(vm.summaryTextProperty().get()).isEqualTo("1 key · 1 × run write → publish");
        assertThat(vm.planIdProperty().get()).hasSize(16);
        assertThat(fx.ws.store().plan(vm.planIdProperty().get())).isPresent();
        assertThat(vm.canApplyProperty().get()).isTrue();

        // a dry run: only the read-only probe GETs reached the site, and no key was created
        assertThat(fx.site.server().received()).allMatch(r -> r.method().equals("GET"));
        assertThat(fx.state("p", TODAY)).isNull();
        assertThat(tmp.resolve("jobs/out")).doesNotExist();
    }

    /**
     * The plan's rows are styled by where the key stops, not by the first word of its action: a key that
     * first waits a few seconds for its retry and then stops for a login ("wait until …, then blocked:
     * credential …") is shown as blocked.
     */
    @Test
    void aKeyThatStopsForALoginAfterAShortWaitIsShownBlocked() throws IOException {
        fx.publishJob("q", "ghost");
        java.time.Instant now = fx.services.clock().instant();
        io.keyline.domain.KeyRecord fresh = fx.ws.store().ensure(io.keyline.domain.KeyRecord.fresh("q", TODAY, now));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.RETRY_WAIT).withStep("publish", 1)
                        .withNextAttemptAt(now.plusSeconds(30)),
                new io.keyline.domain.StepRecord("write", io.keyline.domain.StepStatus.SUCCEEDED, 1, now,
                        java.util.Map.of(), now), null);
        vm.choice().jobProperty().set("q");
        vm.plan();

        Plan.KeyPlan row = vm.rows().get(0).plan();
        assertThat(row.action()).startsWith("wait until").contains("blocked: credential ghost");
        assertThat(row.runs()).isFalse();
        assertThat(PlanDialog.actionStyle(row)).isEqualTo("action-blocked");
    }

    /**
     * Seen in a real window: the preview of a key whose body an earlier step still has to write showed
     * no Cookie line while Confirm showed it for the same request. The preview lists the same headers
     * as Confirm, the credential masked, in the same order.
     */
    @Test
    void thePreviewShowsTheCredentialsHeadersMaskedAsConfirmDoes() throws IOException {
        fx.publishJob("c", "site-cookie");
        assertThat(fx.wb.cliWithInput("Cookie: session=s3cr3t-value", "credentials", "set", "site-cookie").exit())
                .isZero();
        vm.loadJobs();
        vm.choice().jobProperty().set("c");
        vm.plan();
        assertThat(vm.errorProperty().get()).isEmpty();
        Plan.RequestPreview post = vm.rows().get(0).plan().requests().get(0);
        assertThat(post.note().text()).as("the body is not written yet").contains("does not exist yet");
        assertThat(post.headers().keySet()).containsExactly("User-Agent", "Content-Type", "Idempotency-Key",
                "Cookie");
        assertThat(post.headers().get("Cookie")).startsWith("*** (credential site-cookie, fingerprint ")
                .doesNotContain("s3cr3t");
        assertThat(vm.detailProperty().get()).contains("  Cookie: *** (credential site-cookie, fingerprint ")
                .contains("  User-Agent: Keyline/").doesNotContain("s3cr3t");
    }

    /**
     * Seen in a real window in Chinese: the masked credential's line said "credential", "fingerprint" and
     * "REJECTED" in English. The line is words; the plan's header map (its JSON) keeps the English.
     */
    @Test
    void inChineseTheMaskedCredentialsLineIsChineseAndTheHeaderMapEnglish() throws IOException {
        fx.publishJob("c", "site-cookie");
        assertThat(fx.wb.cliWithInput("Cookie: session=s3cr3t-value", "credentials", "set", "site-cookie").exit())
                .isZero();
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            vm.loadJobs();
            vm.choice().jobProperty().set("c");
            vm.plan();
            assertThat(vm.errorProperty().get()).isEmpty();
            Plan.RequestPreview post = vm.rows().get(0).plan().requests().get(0);
            assertThat(post.headers().get("Cookie")).startsWith("*** (credential site-cookie, fingerprint ");
            assertThat(vm.detailProperty().get()).contains("  Cookie: ***（凭据 site-cookie，指纹 ")
                    .doesNotContain("(credential").doesNotContain("fingerprint").doesNotContain("s3cr3t");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    /** Red text only once the operator typed something wrong, or pressed Plan. */
    @Test
    void noValidationErrorBeforeInputOnlyAfterTypingOrPlan() {
        vm.choice().targetProperty().set(PlanChoice.Target.RANGE);
        assertThat(vm.choice().validationProperty().get()).as("range chosen, nothing typed").isEmpty();
        vm.choice().fromProperty().set("2026-13-45");
        assertThat(vm.choice().validationProperty().get()).as("a wrong key typed").isNotEmpty();
        vm.choice().targetProperty().set(PlanChoice.Target.KEYS);
        assertThat(vm.choice().validationProperty().get()).as("keys chosen, nothing typed").isEmpty();
        vm.plan();
        assertThat(vm.choice().validationProperty().get()).as("Plan pressed with no keys").contains("enter one or more keys");
        assertThat(fx.site.posts()).isZero();
    }

    /**
     * The console names its own controls, never the command line's options: a key later than the current one
     * is "not yet due" with the checkbox that includes it; a key before the job's first key is said without
     * the job file's field name; step lists read as a sequence.
     */
    @Test
    void consoleTextSaysTheControlsNotTheCommandLineOptions() {
        vm.choice().targetProperty().set(PlanChoice.Target.KEYS);
        vm.choice().keysTextProperty().set("2026-12-03");
        vm.plan();
        assertThat(vm.rows()).hasSize(1);
        assertThat(PlanViewModel.actionText(vm.rows().get(0))).contains("not yet due")
                .contains("tick \"Run ahead of schedule\"").doesNotContain("--");
        assertThat(vm.detailProperty().get()).contains("Run ahead of schedule").doesNotContain("--ahead");
        assertThat(vm.summaryTextProperty().get()).doesNotContain("--");

        vm.choice().keysTextProperty().set("2025-01-01");
        assertThat(vm.choice().validationProperty().get()).isEqualTo("2025-01-01 is before this job's first key, "
                + "2026-01-01.").doesNotContain("key.start");

        assertThat(io.keyline.ui.common.Format.action("run write,publish")).isEqualTo("run write → publish");
        assertThat(io.keyline.ui.common.Format.action("1,234 keys")).isEqualTo("1,234 keys");
        vm.choice().keysTextProperty().set(TODAY);
        vm.plan();
        assertThat(vm.detailProperty().get()).contains("run write → publish").doesNotContain("write,publish");
    }

    /**
     * Due planned 0 keys while 13 days were missing: Due is the catch-up window; older days that never ran
     * are missing, and the preview says so and offers to plan exactly them.
     */
    @Test
    void aDuePlanSaysWhichMissingKeysItLeavesOut() throws IOException {
        fx.wb.job("m", io.keyline.acceptance.Jobs.command("m", "none", "true", "PT5S").replace("2026-01-01",
                "2026-11-10"), null);
        assertThat(fx.wb.cli("run", "--yes", "m", "--from", "2026-11-22", "--to", TODAY).exit()).isZero();
        vm.loadJobs();
        vm.choice().jobProperty().set("m");
        vm.choice().targetProperty().set(PlanChoice.Target.DUE);
        vm.plan();
        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.missingNotDue()).containsExactly("2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13",
                "2026-11-14", "2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20",
                "2026-11-21");
        vm.planKeys(List.copyOf(vm.missingNotDue()));
        assertThat(vm.rows()).hasSize(12);
        assertThat(vm.missingNotDue()).as("not a Due plan").isEmpty();
    }

    @Test
    void applyRunsExactlyThePlanOnceAndReportsTheOutcome() {
        vm.plan();
        vm.apply();

        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.staleProperty().get()).isFalse();
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.DONE);
        assertThat(vm.exitCodeProperty().get()).isZero();
        assertThat(vm.outcomeProperty().get()).isEqualTo("Applied: 1 done. Every key of the plan is done.");
        // the rows say what became of each key (not the state from before the run)
        assertThat(vm.rows()).singleElement().satisfies(r -> assertThat(r.after().state()).isEqualTo(KeyState.DONE));
        assertThat(vm.appliedProperty().get()).isTrue();
        assertThat(vm.canApplyProperty().get()).isFalse();

        vm.apply(); // a second click does nothing
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);
        assertThat(fx.site.posts()).isEqualTo(1);
    }

    /**
     * Applying a plan reviews the job: the job's other keys that an unattended run held for the review go back to
     * pending, and the outcome says so (they are sent without another look).
     */
    @Test
    void applyingAPlanOfOneKeySaysWhichOtherKeysTheReviewReleased() {
        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), List.of("2026-11-27",
                "2026-11-28"), io.keyline.core.RunRequest.due(false));
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        vm.choice().targetProperty().set(PlanChoice.Target.KEYS);
        vm.choice().keysTextProperty().set(TODAY);
        vm.plan();
        vm.apply();

        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.DONE);
        assertThat(fx.state("p", "2026-11-27")).isEqualTo(KeyState.PENDING);
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.PENDING);
        assertThat(vm.outcomeProperty().get()).isEqualTo("Applied: 1 done. Every key of the plan is done. Applying "
                + "the plan reviewed p: 2 other keys that waited for the review go back to pending (2026-11-27, 2026-11-28); "
                + "the scheduler and the next run take them.");
    }

    /**
     * The detail of a key that waits for its job's review names that wait as the row's chip does ("Needs review"),
     * not a confirmation of an outcome that may have changed the world: before Apply, and in what the plan showed
     * before Apply after it. In English and in Chinese.
     */
    @Test
    void theDetailOfAKeyThatWaitsForTheReviewSaysNeedsReview() {
        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), List.of("2026-11-28"),
                io.keyline.core.RunRequest.due(false));
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        for (java.util.Locale language : List.of(io.keyline.text.Text.CHINESE, io.keyline.text.Text.ENGLISH)) {
            io.keyline.text.Text.use(language);
            try {
                String review = language == io.keyline.text.Text.CHINESE ? "待审核" : "Needs review";
                String confirmation = language == io.keyline.text.Text.CHINESE ? "待确认" : "Needs confirmation";
                vm.choice().targetProperty().set(PlanChoice.Target.KEYS);
                vm.choice().keysTextProperty().set("2026-11-28");
                vm.plan();
                assertThat(vm.errorProperty().get()).isEmpty();
                PlanViewModel.Row row = vm.rows().get(0);
                vm.selectedProperty().set(row);
                assertThat(vm.detailProperty().get()).as("in %s", language).startsWith("2026-11-28  " + review + "\n")
                        .doesNotContain(confirmation);
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
            }
        }
        vm.apply();
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.DONE);
        assertThat(vm.detailProperty().get()).contains("What the plan showed before Apply:\n2026-11-28  Needs review\n")
                .doesNotContain("Needs confirmation");
    }

    /**
     * Applying a plan is the job's review, and the review lets every key that waited for it go: the dialog opened on
     * such a job shows all of them, with their requests, not the current key alone.
     */
    @Test
    void theFirstPlanOfAJobThatWaitsForItsReviewIsOfEveryDueKey() {
        // nothing due yet: the current key, not an empty plan
        PlanViewModel first = new PlanViewModel(fx.services, Threads.direct());
        first.loadJobs();
        first.choice().jobProperty().set("p");
        first.planOnOpen();
        assertThat(first.choice().targetProperty().get()).isEqualTo(PlanChoice.Target.TODAY);
        assertThat(first.rows()).extracting(r -> r.plan().key()).containsExactly(TODAY);

        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), List.of("2026-11-27",
                "2026-11-28"), io.keyline.core.RunRequest.due(false));
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        vm.planOnOpen();

        assertThat(vm.choice().targetProperty().get()).isEqualTo(PlanChoice.Target.DUE);
        assertThat(vm.rows()).extracting(r -> r.plan().key()).containsExactly("2026-11-27", "2026-11-28");
        assertThat(vm.rows()).allSatisfy(r -> assertThat(r.plan().requests()).as(r.plan().key()).isNotEmpty());

        // once reviewed, the dialog opens on the current key as before
        assertThat(fx.wb.cli("approve", "p").exit()).isZero();
        PlanViewModel again = new PlanViewModel(fx.services, Threads.direct());
        again.loadJobs();
        again.choice().jobProperty().set("p");
        again.planOnOpen();
        assertThat(again.choice().targetProperty().get()).isEqualTo(PlanChoice.Target.TODAY);
        assertThat(again.rows()).extracting(r -> r.plan().key()).containsExactly(TODAY);
    }

    @Test
    void aStateChangeBetweenPlanAndApplyIsRefusedAsStaleThenReplanWorks() {
        vm.choice().targetProperty().set(PlanChoice.Target.KEYS);
        vm.choice().keysTextProperty().set("2026-11-28, " + TODAY);
        vm.plan();
        String first = vm.planIdProperty().get();
        assertThat(vm.rows()).extracting(r -> r.plan().action()).containsExactly("run write,publish", "run write,publish");

        // meanwhile, an operator (another console, the CLI) skips one of the keys
        fx.services.operations().actions().skip(fx.services.catalog().get().job("p").orElseThrow(), "2026-11-28", "done by hand");

        vm.apply();
        assertThat(vm.staleProperty().get()).isTrue();
        assertThat(vm.outcomeProperty().get()).startsWith("Not applied").contains("Nothing was run")
                .as("what changed since the plan was shown").contains("key 2026-11-28: Skipped now, was not started");
        assertThat(vm.canApplyProperty().get()).isFalse();
        assertThat(fx.site.posts()).isZero();
        assertThat(fx.state("p", TODAY)).isNull();

        vm.replan();
        assertThat(vm.staleProperty().get()).isFalse();
        assertThat(vm.planIdProperty().get()).isNotEqualTo(first);
        assertThat(vm.rows()).extracting(r -> r.plan().action())
                .containsExactly("skip (skipped by an operator)", "run write,publish");
        vm.apply();
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);
        assertThat(fx.site.effects("2026-11-28")).isZero();
        // a skipped key is said as skipped, not counted as done
        assertThat(vm.outcomeProperty().get()).startsWith("Applied: 1 done, 1 skipped.");
        // every row says what the key is now (none is left showing the state from before)
        assertThat(vm.rows()).allSatisfy(r -> assertThat(r.after()).as(r.key()).isNotNull());
        assertThat(vm.rows()).extracting(r -> r.after().state()).containsExactly(KeyState.SKIPPED, KeyState.DONE);
        assertThat(vm.exitCodeProperty().get()).isZero();
    }

    @Test
    void invalidKeysAreInlineValidationMessagesNotExceptions() {
        vm.choice().targetProperty().set(PlanChoice.Target.KEYS);
        vm.choice().keysTextProperty().set("2026-13-45");
        assertThat(vm.choice().validationProperty().get()).contains("2026-13-45");
        vm.plan();
        assertThat(vm.choice().validationProperty().get()).contains("2026-13-45");
        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.rows()).isEmpty();
        assertThat(vm.planProperty().get()).isNull();

        vm.choice().keysTextProperty().set("2025-06-01"); // before key.start
        assertThat(vm.choice().validationProperty().get()).isNotEmpty();

        vm.choice().targetProperty().set(PlanChoice.Target.RANGE);
        vm.choice().fromProperty().set("yesterday");
        assertThat(vm.choice().validationProperty().get()).contains("yesterday");
        vm.choice().fromProperty().set("2026-11-01");
        assertThat(vm.choice().validationProperty().get()).isEmpty();
        vm.plan();
        assertThat(vm.rows()).hasSize(29);
        assertThat(vm.summaryTextProperty().get()).isEqualTo("29 keys · 29 × run write → publish");
    }

    @Test
    void dueKeysAndThousandsOfKeysPlanWithoutSendingAnything() {
        vm.choice().targetProperty().set(PlanChoice.Target.DUE);
        vm.plan();
        assertThat(vm.choice().validationProperty().get()).isEmpty();
        assertThat(vm.errorProperty().get()).isEmpty(); // the job has no schedule and no stored keys

        vm.choice().targetProperty().set(PlanChoice.Target.RANGE);
        vm.choice().fromProperty().set("2026-01-01");
        vm.choice().toProperty().set("2030-12-31");
        vm.choice().aheadProperty().set(true);
        vm.plan();
        assertThat(vm.rows()).hasSizeGreaterThan(1800);
        assertThat(fx.site.posts()).isZero();
    }

    @Test
    void futureKeysAreNotYetDueUnlessTheOperatorChoosesToRunAheadOfSchedule() {
        vm.choice().targetProperty().set(PlanChoice.Target.RANGE);
        vm.choice().fromProperty().set("2026-11-28");
        vm.choice().toProperty().set("2026-11-30");
        vm.plan();
        assertThat(vm.rows()).extracting(r -> r.plan().action().startsWith("not yet due"))
                .containsExactly(false, false, true);
        assertThat(vm.notYetDueProperty().get()).startsWith("1 key is not yet due").contains("Run ahead of schedule");
        vm.apply();
        assertThat(fx.state("p", "2026-11-30")).as("not run without the choice").isNull();
        assertThat(fx.site.effects("2026-11-30")).isZero();

        vm.choice().aheadProperty().set(true);
        assertThat(vm.rows()).as("changing the choice clears the plan on screen").isEmpty();
        vm.plan();
        assertThat(vm.notYetDueProperty().get()).isEmpty();
        assertThat(vm.rows()).extracting(r -> r.plan().action()).containsOnly("run write,publish", "skip (done)");
        vm.apply();
        assertThat(fx.site.effects("2026-11-30")).isEqualTo(1);
    }

    @Test
    void changingTheTargetClearsTheRowsOfThePreviousPlan() {
        vm.plan();
        assertThat(vm.rows()).hasSize(1);
        assertThat(vm.canApplyProperty().get()).isTrue();
        vm.choice().targetProperty().set(PlanChoice.Target.KEYS);
        assertThat(vm.rows()).isEmpty();
        assertThat(vm.planProperty().get()).isNull();
        assertThat(vm.canApplyProperty().get()).isFalse();
        assertThat(vm.summaryTextProperty().get()).isEmpty();
    }

    @Test
    void gapKeysArePlannedExactly() {
        vm.planKeys(java.util.List.of("2026-11-02", "2026-11-05", "2026-11-06"));
        assertThat(vm.choice().targetProperty().get()).isEqualTo(PlanChoice.Target.KEYS);
        assertThat(vm.rows()).extracting(PlanViewModel.Row::key).containsExactly("2026-11-02", "2026-11-05",
                "2026-11-06");
    }
}
