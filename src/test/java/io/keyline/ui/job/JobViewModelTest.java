package io.keyline.ui.job;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Calendar;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Threads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JobViewModelTest {

    @TempDir
    Path tmp;
    ConsoleFixture fx;
    JobViewModel vm;

    @BeforeEach
    void setUp() throws IOException {
        fx = new ConsoleFixture(tmp);
        vm = new JobViewModel(fx.services, Threads.direct());
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
    }

    /** The job of Jobs.command with key.start moved to 2026-10-01. */
    private JobDefinition job(String script) throws IOException {
        fx.wb.job("c", Jobs.command("c", "none", script, "PT5S").replace("2026-01-01", "2026-10-01"), null);
        return fx.services.catalog().get().job("c").orElseThrow();
    }

    @Test
    void heatmapCoversUpToNinetyDaysFromTheJobsFirstWeekWithGapsForKeysThatNeverRan() throws IOException {
        job("[ \"$KEYLINE_KEY\" != 2026-11-28 ] || exit 64");
        fx.wb.cli("run", "--yes", "c", "--from", "2026-11-26", "--to", "2026-11-28");

        vm.load("c");

        List<Calendar.Cell> heat = vm.calendarProperty().get().cells();
        // 90 days back reach 2026-09-01, but the job starts on Thursday 2026-10-01: from the Monday of that week
        assertThat(heat).hasSize(63);
        assertThat(heat.get(62).key()).isEqualTo("2026-11-29");
        assertThat(heat.get(0).key()).isEqualTo("2026-09-28");
        assertThat(heat.get(0).beforeStart()).isTrue();
        assertThat(heat).filteredOn(Calendar.Cell::beforeStart).extracting(Calendar.Cell::key)
                .containsExactly("2026-09-28", "2026-09-29", "2026-09-30");
        Calendar.Cell oct1 = heat.stream().filter(c -> c.key().equals("2026-10-01")).findFirst().orElseThrow();
        assertThat(oct1.gap()).isTrue();
        assertThat(heat.stream().filter(c -> c.key().equals("2026-11-27")).findFirst().orElseThrow().state())
                .isEqualTo(KeyState.DONE);
        assertThat(heat.stream().filter(c -> c.key().equals("2026-11-28")).findFirst().orElseThrow().state())
                .isEqualTo(KeyState.FAILED);
        assertThat(heat.stream().filter(Calendar.Cell::gap).count()).isEqualTo(60 - 3); // Oct 1 to Nov 29; 3 ran
        // the missing keys are exactly the gaps, and the count the sidebar and the attention list show
        assertThat(vm.calendarProperty().get().missing()).hasSize(60 - 3).contains("2026-10-01")
                .doesNotContain("2026-11-27", "2026-11-28", "2026-09-30");
        assertThat(heat.get(0).firstDay()).isEqualTo(LocalDate.of(2026, 9, 28));
    }

    @Test
    void failedFilterAndSearchAreAppliedInSqlAndPaged() throws IOException {
        JobDefinition def = job("exit 0");
        List<String> keys = KeyRules.range(def.key(), "2026-10-01", "2026-11-29");
        for (String k : keys) {
            fx.ws.store().ensure(KeyRecord.fresh("c", k, fx.wb.clock.instant()));
            if (k.endsWith("5")) {
                fx.wb.cli("run", "c", "--key", k);
            }
        }
        vm.load("c");
        assertThat(vm.totalProperty().get()).isEqualTo(keys.size());
        assertThat(vm.rows().get(0).key()).isEqualTo("2026-11-29"); // newest first

        vm.filterProperty().set(new JobViewModel.Filter("Done", java.util.EnumSet.of(KeyState.DONE)));
        assertThat(vm.rows()).extracting(JobViewModel.KeyRow::key).allMatch(k -> k.endsWith("5"));
        assertThat(vm.totalProperty().get()).isEqualTo(6);

        vm.filterProperty().set(JobViewModel.ALL);
        vm.searchProperty().set("2026-10-1");
        assertThat(vm.rows()).extracting(JobViewModel.KeyRow::key).hasSize(10).allMatch(k -> k.startsWith("2026-10-1"));

        // a filter or a search that finds none says so, not that keys appear once they run (they ran)
        vm.searchProperty().set("no such key");
        assertThat(vm.rows()).isEmpty();
        assertThat(vm.emptyTextProperty().get()).isEqualTo("No key matches the filter and the search.");
        vm.searchProperty().set("");
        vm.filterProperty().set(new JobViewModel.Filter("Skipped", java.util.EnumSet.of(KeyState.SKIPPED)));
        assertThat(vm.rows()).isEmpty();
        assertThat(vm.emptyTextProperty().get()).isEqualTo("No key matches the filter and the search.");
        vm.filterProperty().set(JobViewModel.ALL);
        assertThat(vm.emptyTextProperty().get()).startsWith("No keys yet.");
    }

    @Test
    void pagesHoldTwoHundredRows() throws IOException {
        JobDefinition def = job("exit 0");
        for (String k : KeyRules.range(def.key(), "2026-10-01", "2027-06-01")) {
            fx.ws.store().ensure(KeyRecord.fresh("c", k, fx.wb.clock.instant()));
        }
        vm.load("c");
        assertThat(vm.totalProperty().get()).isEqualTo(244);
        assertThat(vm.rows()).hasSize(JobViewModel.PAGE_SIZE);
        vm.pageProperty().set(1);
        assertThat(vm.rows()).hasSize(44);
        assertThat(vm.rows().get(43).key()).isEqualTo("2026-10-01");
    }

    /**
     * "To confirm" (Needs confirmation) lists the keys whose unsafe step waits for a person's confirmation, "To review"
     * (Needs review) those that wait for their job's review (nothing was sent); both are asked of the state page by
     * page, so the count and the second page hold what the filter says. A wait stored without its reason stays a
     * confirmation.
     */
    @Test
    void needsConfirmationAndNeedsReviewEachListTheirOwnWaitsPageByPage() throws IOException {
        fx.wb.job("c", Jobs.command("c", "unsafe", "exit 0", "PT5S"), null);
        JobDefinition def = fx.services.catalog().get().job("c").orElseThrow();
        List<String> reviewed = KeyRules.range(def.key(), "2026-05-01", "2026-11-26");
        for (String k : reviewed) {
            waits(k, WaitReason.REVIEW);
        }
        waits("2026-11-27", WaitReason.OUTCOME_UNKNOWN);
        waits("2026-11-28", WaitReason.CONFIRM_ALWAYS);
        waits("2026-11-29", null);
        vm.load("c");
        assertThat(vm.totalProperty().get()).isEqualTo(reviewed.size() + 3);

        List<String> labels = JobViewModel.filters().stream().map(JobViewModel.Filter::label).toList();
        // the chips' words, the states in full for a screen reader and on hover
        assertThat(labels).containsSequence("To confirm", "To review");
        assertThat(JobViewModel.filters().stream().map(JobViewModel.Filter::inFull).toList())
                .containsSequence("Needs confirmation", "Needs review");
        vm.filterProperty().set(filter("To confirm"));
        assertThat(vm.totalProperty().get()).as("keys that wait for a confirmation").isEqualTo(3);
        assertThat(vm.rows()).extracting(JobViewModel.KeyRow::key)
                .containsExactly("2026-11-29", "2026-11-28", "2026-11-27");

        vm.filterProperty().set(filter("To review"));
        assertThat(vm.totalProperty().get()).as("keys that wait for the job's review").isEqualTo(reviewed.size());
        assertThat(vm.rows()).hasSize(JobViewModel.PAGE_SIZE)
                .allMatch(r -> r.record().waitReason() == WaitReason.REVIEW);
        assertThat(vm.rows().get(0).key()).isEqualTo("2026-11-26");
        vm.pageProperty().set(1);
        List<String> rest = new java.util.ArrayList<>(reviewed.subList(0, reviewed.size() - JobViewModel.PAGE_SIZE));
        java.util.Collections.reverse(rest);
        assertThat(vm.rows()).extracting(JobViewModel.KeyRow::key).containsExactlyElementsOf(rest);

        vm.filterProperty().set(JobViewModel.ATTENTION);
        assertThat(vm.totalProperty().get()).as("both wait for a person").isEqualTo(reviewed.size() + 3);
    }

    /**
     * The keys highlighted in the table are kept by key: a reload that replaces their rows (a minute later, every
     * waiting key's age reads anew) keeps them, whatever the table does to its selection meanwhile; a key the reload no
     * longer lists is let go, and another job's key of the same name is not highlighted.
     */
    @Test
    void theHighlightedKeysAreKeptByKeyAcrossReloadsAndLetGoWhenNoLongerListed() throws IOException {
        job("exit 0");
        waits("2026-11-27", WaitReason.CONFIRM_ALWAYS);
        waits("2026-11-28", WaitReason.CONFIRM_ALWAYS);
        vm.filterProperty().set(JobViewModel.ATTENTION);
        vm.load("c");
        vm.highlight(List.of("2026-11-27", "2026-11-28"));
        List<JobViewModel.KeyRow> before = List.copyOf(vm.rows());

        fx.wb.clock.advance(java.time.Duration.ofMinutes(5));
        // a table drops its selection when the rows it shows are replaced
        javafx.collections.ListChangeListener<JobViewModel.KeyRow> table = c -> vm.highlight(List.of());
        vm.rows().addListener(table);
        vm.reload();
        vm.rows().removeListener(table);
        assertThat(vm.rows()).as("the rows were replaced").doesNotContainAnyElementsOf(before);
        assertThat(vm.highlighted()).as("after a reload").containsExactly("2026-11-27", "2026-11-28");

        assertThat(fx.wb.cli("mark-done", "c", "2026-11-28", "--note", "checked").exit()).isZero();
        vm.reload();
        assertThat(vm.rows()).extracting(JobViewModel.KeyRow::key).containsExactly("2026-11-27");
        assertThat(vm.highlighted()).as("a key no longer listed is let go").containsExactly("2026-11-27");

        fx.wb.job("d", Jobs.command("d", "none", "exit 0", "PT5S").replace("2026-01-01", "2026-10-01"), null);
        waits("d", "2026-11-27", WaitReason.CONFIRM_ALWAYS);
        vm.load("d");
        assertThat(vm.rows()).extracting(JobViewModel.KeyRow::key).containsExactly("2026-11-27");
        assertThat(vm.highlighted()).as("the key of the same name of another job").isEmpty();
    }

    /** Key {@code key} of job c waits at its step for {@code why} (null: a wait stored before waits kept theirs). */
    private void waits(String key, WaitReason why) {
        waits("c", key, why);
    }

    /** Key {@code key} of job {@code job} waits at its step work for {@code why}. */
    private void waits(String job, String key, WaitReason why) {
        var now = fx.wb.clock.instant();
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh(job, key, now));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.NEEDS_CONFIRMATION).withStep("work", 1)
                .withWaitReason(why), null, new KeyEvent(0, job, key, now, "seed", EventType.WAITING_FOR_CONFIRMATION,
                "work", 1, KeyState.NEEDS_CONFIRMATION, null, "seeded", null, null, null));
    }

    private static JobViewModel.Filter filter(String label) {
        return JobViewModel.filters().stream().filter(f -> f.label().equals(label)).findFirst()
                .orElseThrow(() -> new AssertionError("no filter '" + label + "'"));
    }

    @Test
    void pauseShowsTheReasonAndResumeClearsIt() throws IOException {
        job("exit 0");
        vm.load("c");
        vm.pause("site maintenance", null);
        assertThat(vm.pausedProperty().get()).isTrue();
        assertThat(vm.pauseTextProperty().get()).contains("site maintenance").contains("tester");
        assertThat(fx.wb.cli("run", "c").exit()).isEqualTo(1);
        vm.resume();
        assertThat(vm.pausedProperty().get()).isFalse();
        assertThat(fx.wb.cli("run", "c").exit()).isZero();
    }

    @Test
    void runningSelectedKeysFromTheTableCompletesThem() throws IOException {
        job("exit 0");
        vm.load("c");
        vm.run(List.of("2026-11-28", "2026-11-29"), c -> false, () -> { });
        assertThat(vm.noticeProperty().get()).contains("2 done");
        assertThat(vm.rows()).extracting(JobViewModel.KeyRow::state).containsOnly(KeyState.DONE);
    }

    @Test
    void doneKeysShowWhenTheyFinishedHowLongTheyTookAndWhatTheyCameTo() throws IOException {
        fx.wb.job("c", Jobs.command("c", "none",
                "echo '{{\"outputs\": {{\"rows\": \"4\", \"total\": \"17.50\"}}}}'", "PT5S")
                .replace("2026-01-01", "2026-10-01"), null);
        var run = fx.wb.cli("run", "c", "--key", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isZero();
        vm.load("c");

        JobViewModel.KeyRow row = vm.rows().get(0);
        assertThat(row.state()).isEqualTo(KeyState.DONE);
        assertThat(row.outcome()).isNotNull();
        assertThat(row.outcome().finishedAt()).isEqualTo(row.record().updatedAt());
        assertThat(row.outcome().took()).isNotNull();
        assertThat(row.outcome().text()).contains("rows=4").contains("total=17.50");
        // in the table: the time alone under Updated (how long ago in its tooltip), the run's length leading Outcome
        assertThat(row.when()).matches("\\d\\d-\\d\\d \\d\\d:\\d\\d");
        assertThat(row.whenInFull()).startsWith(row.when()).endsWith(")");
        assertThat(row.said()).startsWith("took " + row.outcome().tookText() + "  ·  ").contains("rows=4");
    }
}
