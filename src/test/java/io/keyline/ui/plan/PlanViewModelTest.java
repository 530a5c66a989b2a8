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
        vm.jobProperty().set("p");
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
        Plan.KeyPlan row = vm.rows().get(0);
        assertThat(row.key()).isEqualTo(TODAY);
        assertThat(row.state()).isEqualTo(KeyState.PENDING);
        assertThat(row.action()).isEqualTo("run write,publish");
        Plan.RequestPreview post = row.requests().get(0);
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.url()).isEqualTo(fx.site.base() + "/api/articles");
        assertThat(post.headers()).containsEntry("Idempotency-Key", "p:" + TODAY + ":publish");
        assertThat(post.note()).contains("an earlier step writes it");

        assertThat(vm.selectedProperty().get()).isEqualTo(row);
        assertThat(vm.detailProperty().get())
                .contains("publish: POST " + fx.site.base() + "/api/articles")
                .contains("Idempotency-Key: p:" + TODAY + ":publish")
                .contains("body: file out/" + TODAY + ".md - body file out/" + TODAY + ".md does not exist yet");
        assertThat(vm.summary()).containsExactly(new PlanViewModel.ActionCount("run write,publish", 1));
        assertThat(vm.summaryTextProperty().get()).isEqualTo("1 key · 1 × run write,publish");
        assertThat(vm.planIdProperty().get()).hasSize(16);
        assertThat(fx.services.store().plan(vm.planIdProperty().get())).isPresent();
        assertThat(vm.canApplyProperty().get()).isTrue();

        // a dry run: only the read-only probe GETs reached the site, and no key was created
        assertThat(fx.site.server().received()).allMatch(r -> r.method().equals("GET"));
        assertThat(fx.state("p", TODAY)).isNull();
        assertThat(tmp.resolve("jobs/out")).doesNotExist();
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
        assertThat(vm.finalStatesProperty().get()).containsEntry(KeyState.DONE, 1);
        assertThat(vm.outcomeProperty().get()).startsWith("Applied plan " + vm.planIdProperty().get() + ": 1 done")
                .contains("Exit 0: every targeted key is done");
        assertThat(vm.appliedProperty().get()).isTrue();
        assertThat(vm.canApplyProperty().get()).isFalse();

        vm.apply(); // a second click does nothing
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);
        assertThat(fx.site.posts()).isEqualTo(1);
    }

    @Test
    void aStateChangeBetweenPlanAndApplyIsRefusedAsStaleThenReplanWorks() {
        vm.targetProperty().set(PlanViewModel.Target.KEYS);
        vm.keysTextProperty().set("2026-11-28, " + TODAY);
        vm.plan();
        String first = vm.planIdProperty().get();
        assertThat(vm.rows()).extracting(Plan.KeyPlan::action).containsExactly("run write,publish", "run write,publish");

        // meanwhile, an operator (another console, the CLI) skips one of the keys
        fx.services.actions().skip(fx.services.catalog().get().job("p").orElseThrow(), "2026-11-28", "done by hand");

        vm.apply();
        assertThat(vm.staleProperty().get()).isTrue();
        assertThat(vm.outcomeProperty().get()).startsWith("Stale plan").contains(first).contains("Nothing was run");
        assertThat(vm.canApplyProperty().get()).isFalse();
        assertThat(fx.site.posts()).isZero();
        assertThat(fx.state("p", TODAY)).isNull();

        vm.replan();
        assertThat(vm.staleProperty().get()).isFalse();
        assertThat(vm.planIdProperty().get()).isNotEqualTo(first);
        assertThat(vm.rows()).extracting(Plan.KeyPlan::action)
                .containsExactly("skip (skipped by an operator)", "run write,publish");
        vm.apply();
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);
        assertThat(fx.site.effects("2026-11-28")).isZero();
        assertThat(vm.finalStatesProperty().get()).containsEntry(KeyState.DONE, 1).containsEntry(KeyState.SKIPPED, 1);
        assertThat(vm.exitCodeProperty().get()).isZero();
    }

    @Test
    void invalidKeysAreInlineValidationMessagesNotExceptions() {
        vm.targetProperty().set(PlanViewModel.Target.KEYS);
        vm.keysTextProperty().set("2026-13-45");
        assertThat(vm.validationProperty().get()).contains("2026-13-45");
        vm.plan();
        assertThat(vm.validationProperty().get()).contains("2026-13-45");
        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.rows()).isEmpty();
        assertThat(vm.planProperty().get()).isNull();

        vm.keysTextProperty().set("2025-06-01"); // before key.start
        assertThat(vm.validationProperty().get()).isNotEmpty();

        vm.targetProperty().set(PlanViewModel.Target.RANGE);
        vm.fromProperty().set("yesterday");
        assertThat(vm.validationProperty().get()).contains("yesterday");
        vm.fromProperty().set("2026-11-01");
        assertThat(vm.validationProperty().get()).isEmpty();
        vm.plan();
        assertThat(vm.rows()).hasSize(29);
        assertThat(vm.summary()).containsExactly(new PlanViewModel.ActionCount("run write,publish", 29));
    }

    @Test
    void dueKeysAndThousandsOfKeysPlanWithoutSendingAnything() {
        vm.targetProperty().set(PlanViewModel.Target.DUE);
        vm.plan();
        assertThat(vm.validationProperty().get()).isEmpty();
        assertThat(vm.errorProperty().get()).isEmpty(); // the job has no schedule and no stored keys

        vm.targetProperty().set(PlanViewModel.Target.RANGE);
        vm.fromProperty().set("2026-01-01");
        vm.toProperty().set("2030-12-31");
        vm.plan();
        assertThat(vm.rows()).hasSizeGreaterThan(1800);
        assertThat(fx.site.posts()).isZero();
    }
}
