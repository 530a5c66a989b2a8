package io.keyline.ui.timeline;

import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.common.Threads;
import io.keyline.ui.timeline.TimelineViewModel.Action;
import io.keyline.core.operations.Timeline;
import io.keyline.core.operations.Timeline.EventRow;
import io.keyline.core.operations.Timeline.Row;
import io.keyline.core.operations.Timeline.RunHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import io.keyline.domain.KeyRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

class TimelineViewModelTest {

    @TempDir
    Path tmp;
    TimelineConfirmFixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new TimelineConfirmFixture(tmp);
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, false));
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void failedKeyShowsItsRunWithTheFailuresEvidence() {
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.FAILED);

        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.direct());
        vm.load("daily", KEY);

        TimelineViewModel.Header header = vm.headerProperty().get();
        assertThat(header.record().state()).isEqualTo(KeyState.FAILED);
        assertThat(header.action()).isEqualTo(Action.RETRY);
        assertThat(header.message()).contains("HTTP 404");
        assertThat(header.details()).contains("step publish").contains("refused").doesNotContain("FATAL");
        List<Row> rows = vm.rows();
        assertThat(rows.get(0)).isInstanceOf(RunHeader.class);
        RunHeader run = (RunHeader) rows.get(0);
        assertThat(run.operator()).isFalse();
        assertThat(run.outcome()).isEqualTo(KeyState.FAILED);
        assertThat(run.events()).isEqualTo(rows.size() - 1).isEqualTo(header.events());
        assertThat(run.failures()).isEqualTo(1);
        assertThat(rows.stream().filter(r -> r instanceof RunHeader)).hasSize(1);

        List<EventRow> events = rows.stream().skip(1).map(EventRow.class::cast).toList();
        assertThat(events.get(0).sincePrevious()).isNull();
        assertThat(events.subList(1, events.size())).allSatisfy(e -> assertThat(e.sincePrevious()).isNotNull());
        assertThat(events).extracting(EventRow::type).startsWith(EventType.CLAIMED).endsWith(EventType.KEY_FAILED);
        assertThat(events).extracting(EventRow::stepAttempt).contains("write #1", "publish #1");
        assertThat(events).extracting(EventRow::typeLabel).contains("Run started", "Step started", "Step done",
                "Key failed");

        EventRow failure = events.get(events.size() - 1);
        assertThat(failure.failure()).isTrue();
        assertThat(failure.failureClass()).isEqualTo(FailureClass.FATAL);
        assertThat(failure.failureLabel()).isEqualTo("Refused");
        assertThat(failure.state()).isEqualTo(KeyState.FAILED);
        assertThat(failure.stateChanged()).isTrue();
        Evidence ev = failure.evidence();
        assertThat(ev.status()).isEqualTo(404);
        assertThat(ev.responseBody()).contains("no such site");
        // the latest failure opens by itself, with the evidence an operator needs
        assertThat(vm.expandedProperty().get()).isEqualTo(failure);
        assertThat(failure.evidenceText())
                .contains("POST " + fx.site.base() + "/api/articles")
                .contains("HTTP 404")
                .contains("no such site")
                .contains("Idempotency-Key")
                .contains("sha256 ");
        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.loadingProperty().get()).isFalse();
    }

    /**
     * The probe asked after attempt 1 got no answer is not "attempt 2": no second attempt was made. Its evidence says
     * it is the probe's, asked after attempt 1, in the timeline and in Confirm.
     */
    @Test
    void aProbesEvidenceSaysItIsTheProbesNotAnotherAttempt() throws Exception {
        fx.close();
        fx = new TimelineConfirmFixture(tmp.resolve("probe"));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, true));
        fx.site.failPosts(Fault.HANG_BEFORE_ACTING);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.direct());
        vm.load("daily", KEY);
        List<EventRow> events = vm.rows().stream().filter(EventRow.class::isInstance).map(EventRow.class::cast)
                .toList();
        EventRow firstProbe = events.stream().filter(e -> e.type() == EventType.PROBE_ANSWERED).findFirst().orElseThrow();
        EventRow waits = events.get(events.size() - 1);
        assertThat(waits.type()).isEqualTo(EventType.WAITING_FOR_CONFIRMATION);
        assertThat(waits.stepAttempt()).isEqualTo("publish #1");
        assertThat(firstProbe.evidenceText()).startsWith("probe:").contains("asked before any attempt")
                .contains("GET " + fx.site.base() + "/api/articles?date=" + KEY);
        assertThat(waits.evidenceText()).startsWith("probe:").contains("asked after attempt 1")
                .doesNotContain("attempt:").doesNotContain("attempt 2");
        EventRow failed = events.stream().filter(e -> e.type() == EventType.STEP_FAILED).findFirst().orElseThrow();
        assertThat(failed.evidenceText()).startsWith("attempt:").contains("POST ");

        io.keyline.ui.confirm.ConfirmViewModel confirm = new io.keyline.ui.confirm.ConfirmViewModel(fx.services(),
                Threads.direct());
        confirm.load("daily", KEY);
        assertThat(confirm.evidenceTextProperty().get()).contains("asked after attempt 1")
                .doesNotContain("attempt:    2");
    }

    @Test
    void aRunsStartRepeatsNothingItsHeaderSays() {
        fx.run("daily", KEY);
        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.direct());
        vm.load("daily", KEY);

        RunHeader run = (RunHeader) vm.rows().get(0);
        EventRow started = (EventRow) vm.rows().get(1);
        assertThat(run.title()).contains(run.runId());
        assertThat(started.type()).isEqualTo(EventType.CLAIMED);
        assertThat(started.typeLabel()).isEqualTo("Run started");
        // the run's long id once, in its header: a narrow message column split it mid-token
        assertThat(started.message()).isEmpty();
    }

    @Test
    void expandAndCollapseOnlyRowsWithEvidence() {
        fx.site.failPosts(Fault.STATUS_404);
        fx.run("daily", KEY);
        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.direct());
        vm.load("daily", KEY);
        EventRow failure = (EventRow) vm.rows().get(vm.rows().size() - 1);
        EventRow claimed = (EventRow) vm.rows().get(1);

        vm.toggle(failure);
        assertThat(vm.expandedProperty().get()).isNull();
        vm.toggle(claimed); // no evidence: nothing to show
        assertThat(vm.expandedProperty().get()).isNull();
        vm.toggle(failure);
        assertThat(vm.expandedProperty().get()).isEqualTo(failure);
        vm.reload(); // an expanded row stays expanded across a reload
        assertThat(vm.expandedProperty().get()).isEqualTo(failure);
        vm.collapse();
        assertThat(vm.expandedProperty().get()).isNull();
    }

    @Test
    void retryReArmsRunsAndShowsTheOperatorGroup() {
        fx.site.failPosts(Fault.STATUS_404);
        fx.run("daily", KEY);
        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.direct());
        AtomicInteger changed = new AtomicInteger();
        vm.setOnChanged(changed::incrementAndGet);
        List<io.keyline.core.operations.RetryAndSend.Send> shown = new ArrayList<>();
        vm.setRetryShow((job, sends, send) -> {
            shown.addAll(sends);
            send.accept(sends.stream().collect(java.util.stream.Collectors.toMap(
                    io.keyline.core.operations.RetryAndSend.Send::key,
                    io.keyline.core.operations.RetryAndSend::hashShown)));
        });
        vm.load("daily", KEY);

        assertThat(vm.retry("site is back")).isTrue();

        // the next step is the unsafe POST: it was shown before it was sent
        assertThat(shown).extracting(s -> s.step().id()).containsExactly("publish");
        assertThat(shown.get(0).payload().text()).startsWith("POST " + fx.site.base() + "/api/articles");

        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.DONE);
        assertThat(fx.site.effects(KEY)).isEqualTo(1);
        assertThat(changed).hasValue(1);
        assertThat(vm.headerProperty().get().record().state()).isEqualTo(KeyState.DONE);
        assertThat(vm.headerProperty().get().action()).isEqualTo(Action.NONE);
        assertThat(vm.noticeProperty().get()).isEqualTo("Retried: " + KEY + " is done");
        // the evidence pane no longer shows the old failure: the newest run has none
        assertThat(vm.expandedProperty().get()).isNull();
        // a done key says when it finished, how long it took and what it came to
        assertThat(vm.headerProperty().get().outcome()).startsWith("Done at ").contains("publish: HTTP 2");
        // the list scrolls to the newest run
        assertThat(vm.newestRunProperty().get()).isEqualTo(vm.rows().indexOf(vm.rows().stream()
                .filter(r -> r instanceof RunHeader h && !h.operator()).reduce((a, b) -> b).orElseThrow()));
        assertThat(vm.busyProperty().get()).isFalse();
        assertThat(vm.retry("again")).as("only a FAILED key is retried").isFalse();

        List<RunHeader> groups = vm.rows().stream().filter(r -> r instanceof RunHeader).map(RunHeader.class::cast).toList();
        assertThat(groups).extracting(RunHeader::operator).containsExactly(false, true, false);
        assertThat(groups).extracting(RunHeader::outcome).containsExactly(KeyState.FAILED, KeyState.PENDING, KeyState.DONE);
        EventRow retried = vm.rows().stream().filter(r -> r instanceof EventRow e && e.type() == EventType.RETRIED)
                .map(EventRow.class::cast).findFirst().orElseThrow();
        assertThat(retried.operatorAction()).isTrue();
        assertThat(retried.user()).isEqualTo("tester");
        assertThat(retried.note()).isEqualTo("site is back");
        assertThat(retried.byline()).isEqualTo("by tester: site is back");
        assertThat(retried.runId()).isNull();
    }

    @Test
    void keyThatNeverRanSaysSo() {
        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.direct());
        vm.load("daily", "2026-11-30");
        TimelineViewModel.Header header = vm.headerProperty().get();
        assertThat(header.record()).isNull();
        assertThat(vm.rows()).isEmpty();
        assertThat(header.message()).contains("never run");
        assertThat(header.action()).isEqualTo(Action.NONE);
    }

    @Test
    void groupsThousandsOfEventsByRunWithDurations() {
        List<KeyEvent> events = new ArrayList<>();
        Instant t = Instant.parse("2026-11-29T09:00:00Z");
        long id = 1;
        for (int run = 0; run < 500; run++) {
            String runId = "run-" + run;
            for (int i = 0; i < 8; i++) {
                t = t.plusMillis(250);
                events.add(new KeyEvent(id++, "daily", KEY, t, runId, i == 7 ? EventType.RETRY_SCHEDULED
                        : EventType.STEP_STARTED, "publish", run + 1, i == 7 ? KeyState.RETRY_WAIT : KeyState.RUNNING,
                        i == 7 ? FailureClass.RETRYABLE : null, "m", null, null,
                        i == 7 ? new Evidence(t, run + 1, null, null, null, 75, "boom", null, List.of("x"), null, null) : null));
            }
            if (run % 100 == 99) {
                t = t.plusSeconds(60);
                events.add(new KeyEvent(id++, "daily", KEY, t, null, EventType.RETRIED, "publish", 0,
                        KeyState.PENDING, null, "re-armed", "alice", "again", null));
            }
        }
        long started = System.nanoTime();
        List<Row> rows = Timeline.group(events);
        long ms = (System.nanoTime() - started) / 1_000_000;

        assertThat(ms).isLessThan(1000);
        assertThat(rows).hasSize(events.size() + 500 + 5);
        RunHeader first = (RunHeader) rows.get(0);
        assertThat(first.events()).isEqualTo(8);
        assertThat(first.failures()).isEqualTo(1);
        // its duration runs from its first event to its last (8 events 250 ms apart)
        assertThat(first.duration()).isEqualTo(Duration.ofMillis(7 * 250));
        assertThat(first.outcome()).isEqualTo(KeyState.RETRY_WAIT);
        assertThat(((EventRow) rows.get(2)).sincePrevious()).isEqualTo(Duration.ofMillis(250));
        assertThat(rows.stream().filter(r -> r instanceof RunHeader h && h.operator())).hasSize(5);
    }

    /**
     * A key of a backfill of 30 keys is claimed when the run starts and works 2 min later for 191 ms: the run
     * header says how long the run lasted for the key (2 min 21 s, claim to end) and, since it waited most of
     * that time, how long its steps took.
     */
    @Test
    void aRunLastsFromItsStartToItsEndAndSaysItsStepsWhenItWaited() {
        Instant t = Instant.parse("2026-11-29T09:00:00Z");
        List<KeyEvent> events = new ArrayList<>();
        long[] id = {1};
        java.util.function.BiConsumer<Object[], Long> add = (a, ms) -> events.add(new KeyEvent(id[0]++, "daily", KEY,
                t.plusMillis(ms), "run-1", (EventType) a[0], (String) a[1], a[1] == null ? 0 : 1,
                (KeyState) a[2], null, "m", null, null, null));
        add.accept(new Object[] {EventType.CLAIMED, null, KeyState.RUNNING}, 0L);
        add.accept(new Object[] {EventType.STEP_STARTED, "write", KeyState.RUNNING}, 140_800L);
        add.accept(new Object[] {EventType.STEP_SUCCEEDED, "write", KeyState.RUNNING}, 140_948L);
        add.accept(new Object[] {EventType.STEP_STARTED, "publish", KeyState.RUNNING}, 140_950L);
        add.accept(new Object[] {EventType.STEP_SUCCEEDED, "publish", KeyState.RUNNING}, 140_993L);
        add.accept(new Object[] {EventType.KEY_DONE, null, KeyState.DONE}, 141_000L);

        RunHeader run = (RunHeader) Timeline.group(events).get(0);
        assertThat(run.duration()).isEqualTo(Duration.ofMillis(141_000));
        assertThat(run.summary()).endsWith(" · 2 min 21 s (steps 191 ms) · 6 events");
    }

    /**
     * A confirmed run asks the probe (63 ms), then posts (49 ms): the header says 112 ms, the run's time from
     * its claim to its end, not the 49 ms of its one step execution.
     */
    @Test
    void aRunWithoutWaitsSaysItsWholeDuration() {
        Instant t = Instant.parse("2026-11-29T09:00:00Z");
        List<KeyEvent> events = List.of(
                new KeyEvent(1, "daily", KEY, t, "run-1", EventType.CLAIMED, null, 0, KeyState.RUNNING, null, "m",
                        null, null, null),
                new KeyEvent(2, "daily", KEY, t.plusMillis(63), "run-1", EventType.PROBE_ANSWERED, "publish", 2,
                        KeyState.RUNNING, null, "probe: /total = 0 (absent)", null, null, null),
                new KeyEvent(3, "daily", KEY, t.plusMillis(63), "run-1", EventType.STEP_STARTED, "publish", 2,
                        KeyState.RUNNING, null, "m", null, null, null),
                new KeyEvent(4, "daily", KEY, t.plusMillis(112), "run-1", EventType.STEP_SUCCEEDED, "publish", 2,
                        KeyState.RUNNING, null, "m", null, null, null),
                new KeyEvent(5, "daily", KEY, t.plusMillis(112), "run-1", EventType.KEY_DONE, null, 0, KeyState.DONE,
                        null, "m", null, null, null));

        RunHeader run = (RunHeader) Timeline.group(events).get(0);
        assertThat(run.duration()).isEqualTo(Duration.ofMillis(112));
        assertThat(run.summary()).endsWith(" · 112 ms · 5 events");
    }

    @Test
    void theOneActionIsTheMoveThatResolvesTheKeysState() {
        for (KeyState s : KeyState.values()) {
            for (io.keyline.domain.WaitReason why : new io.keyline.domain.WaitReason[] {null,
                    io.keyline.domain.WaitReason.REVIEW}) {
                KeyRecord rec = KeyRecord.fresh("daily", "2026-12-01", Instant.EPOCH).withState(s).withWaitReason(why);
                String resolving = io.keyline.domain.OperatorMoves.of(s, why).resolving()
                        .map(io.keyline.core.operations.Words::move).orElse("");
                assertThat(TimelineViewModel.Action.of(rec).label()).as("%s %s", s, why).isEqualTo(resolving);
            }
        }
        // a key held for its job's review is let go by a plan of the job, not by a confirmation of the key
        KeyRecord held = KeyRecord.fresh("daily", "2026-12-01", Instant.EPOCH).withState(KeyState.NEEDS_CONFIRMATION)
                .withWaitReason(io.keyline.domain.WaitReason.REVIEW);
        assertThat(TimelineViewModel.Action.of(held)).isEqualTo(Action.PLAN);
        assertThat(TimelineViewModel.Action.of(null)).isEqualTo(Action.NONE);
    }

    /**
     * The message of a key held for its job's review, as the console says it: what Plan… does, in the console's
     * words, not the command line's commands that the stored message gives (the same words as Attention's card).
     */
    @Test
    void aKeyHeldForItsJobsReviewIsWordedForTheConsole() {
        KeyRecord held = KeyRecord.fresh("daily", "2026-12-01", Instant.EPOCH).withState(KeyState.NEEDS_CONFIRMATION)
                .withStep("publish", 1).withWaitReason(io.keyline.domain.WaitReason.REVIEW)
                .withFailure(null, "new job: review its plan; until then no run sends publish of this key (keyline plan "
                        + "daily, then apply it; or keyline approve daily)");
        assertThat(io.keyline.ui.common.Format.keyMessage(held)).isEqualTo("Nobody has reviewed the unsafe steps of "
                + "daily as they are now, so no run sends publish for this key until then. Plan… shows every request "
                + "it would send; applying the plan reviews the job, and it runs.");
    }

    /**
     * A key that waits for a login says how to renew it where its words show: its timeline has its own Renew
     * login… beside them, so the words name that button, not Attention; the job page, which has none, sends the
     * operator to Attention's. In English and in Chinese.
     */
    @Test
    void aKeyWaitingForALoginNamesTheRenewLoginButtonBesideItsWords() {
        Instant now = Instant.now();
        KeyRecord fresh = fx.ws().store().ensure(KeyRecord.fresh("daily", KEY, now));
        KeyRecord waits = fresh.withState(KeyState.NEEDS_CREDENTIAL).withStep("publish", 1)
                .withCredential("site-cookie");
        fx.ws().store().apply(fresh, waits, null, new KeyEvent(0, "daily", KEY, now, "seed",
                EventType.WAITING_FOR_CREDENTIAL, null, 0, KeyState.NEEDS_CREDENTIAL, null, "seeded", null, null,
                null));
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.direct());
                vm.load("daily", KEY);
                String renew = vm.headerProperty().get().action().label();
                String attention = io.keyline.text.Text.t("ui.nav.attention");
                assertThat(vm.headerProperty().get().action()).as("the timeline's own button").isEqualTo(Action.RENEW_CREDENTIAL);
                assertThat(vm.headerProperty().get().message()).as("the timeline's words in %s", language)
                        .contains("site-cookie", renew).doesNotContain(attention);
                assertThat(io.keyline.ui.common.Format.keyMessage(fx.record("daily", KEY)))
                        .as("the job page's words in %s", language).contains(renew, attention);
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
            }
        }
    }
}
