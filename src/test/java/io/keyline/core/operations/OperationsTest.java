package io.keyline.core.operations;

import io.keyline.acceptance.Jobs;
import io.keyline.core.OperatorException;
import io.keyline.core.RunTrace;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The operator operations the command line and the console share, on their own: a real H2 state
 * folder, a real loopback site and the workbench's injected clock (2026-11-29 09:00 UTC).
 */
class OperationsTest {

    static final String KEY = "2026-11-29";

    @TempDir
    Path tmp;
    Workbench wb;
    TestSite site;
    Workspace ws;

    @BeforeEach
    void setUp() throws Exception {
        wb = new Workbench(tmp);
        site = new TestSite();
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
    }

    @AfterEach
    void tearDown() throws Exception {
        site.close();
        ws.close();
    }

    private JobDefinition job(String name) {
        return ws.catalog().job(name).orElseThrow();
    }

    private KeyRecord record(String job, String key) {
        return ws.store().key(job, key).orElseThrow();
    }

    /**
     * The confirm preview shows as the probe's answer only an event that recorded one, whatever words
     * another event's message carries: here the site's answer quoted in a wait after a recording failure
     * says "probe", and no probe has answered.
     */
    @Test
    void theConfirmPreviewTakesAProbesAnswerOnlyFromAnEventThatRecordedOne() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", true, null), site.base());
        JobDefinition d = job("daily");
        java.time.Instant now = wb.clock.instant();
        KeyRecord fresh = ws.store().ensure(KeyRecord.fresh("daily", KEY, now));
        String msg = "step publish succeeded (HTTP 201: probe-17 created) but recording its result failed: disk "
                + "full; check the site, then confirm or mark done";
        ws.store().apply(fresh, fresh.withState(KeyState.NEEDS_CONFIRMATION).withStep("publish", 1)
                .withFailure(io.keyline.domain.FailureClass.AMBIGUOUS, msg), null, new io.keyline.domain.KeyEvent(0,
                "daily", KEY, now, "run-1", io.keyline.domain.EventType.WAITING_FOR_CONFIRMATION, "publish", 1,
                KeyState.NEEDS_CONFIRMATION, io.keyline.domain.FailureClass.AMBIGUOUS, msg, null, null, null));

        ConfirmAndRun.Preview p = ws.operations().confirmAndRun().preview(d, KEY);
        assertThat(p.probeAnswer()).startsWith("The probe has not answered yet");
    }

    /**
     * A key held for its job's review sent nothing and is asked nothing before the review: the confirm preview shows
     * no probe answer, not one from an earlier wait (here the site rejected the login then; it was renewed since).
     */
    @Test
    void theConfirmPreviewOfAKeyHeldForItsJobsReviewShowsNoEarlierProbeAnswer() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", true, null), site.base());
        JobDefinition d = job("daily");
        java.time.Instant now = wb.clock.instant();
        KeyRecord fresh = ws.store().ensure(KeyRecord.fresh("daily", KEY, now));
        KeyRecord asked = ws.store().apply(fresh, fresh.withState(KeyState.RUNNING).withStep("publish", 1), null,
                new io.keyline.domain.KeyEvent(0, "daily", KEY, now, "run-1",
                        io.keyline.domain.EventType.PROBE_ANSWERED, "publish", 1, KeyState.RUNNING, null,
                        "credential sandbox-cookie was rejected", null, null, null,
                        io.keyline.domain.ProbeAnswer.AUTH, null, null));
        ws.store().apply(asked, asked.withState(KeyState.NEEDS_CONFIRMATION)
                .withWaitReason(io.keyline.domain.WaitReason.REVIEW), null, new io.keyline.domain.KeyEvent(0,
                "daily", KEY, now, "run-2", io.keyline.domain.EventType.WAITING_FOR_CONFIRMATION, "publish", 1,
                KeyState.NEEDS_CONFIRMATION, null, "held", null, null, null));

        ConfirmAndRun.Preview p = ws.operations().confirmAndRun().preview(d, KEY);
        assertThat(p.reason()).isEqualTo(ConfirmAndRun.Reason.REVIEW);
        assertThat(p.probeAnswer()).isEmpty();
        assertThat(p.probeAnswered()).isFalse();
    }

    @Test
    void keySelectionResolvesTheChoiceAndRefusesFutureKeysWithTheCommandLinesMessage() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", true, null), site.base());
        JobDefinition d = job("daily");

        KeySelection.Resolved range = KeySelection.resolve(d, KeySelection.Choice.range("2026-11-28", "2026-12-01"),
                ws.store(), wb.clock, Duration.ofDays(7));
        assertThat(range.keys()).containsExactly("2026-11-28", KEY, "2026-11-30", "2026-12-01");
        assertThat(KeySelection.resolve(d, KeySelection.Choice.current(), ws.store(), wb.clock, Duration.ofDays(7))
                .keys()).containsExactly(KEY);
        assertThat(KeySelection.notYetDue(d, range.keys(), wb.clock)).containsExactly("2026-11-30", "2026-12-01");

        String refusal = "2 keys (2026-11-30 .. 2026-12-01) are not yet due: the current key of daily is "
                + KEY + " (UTC). Nothing ran. To run them ahead of schedule, add --ahead";
        assertThatThrownBy(() -> KeySelection.refuseNotYetDue(d, range.keys(), false, wb.clock))
                .isInstanceOf(OperatorException.class).hasMessage(refusal);
        KeySelection.refuseNotYetDue(d, range.keys(), true, wb.clock); // chosen: allowed
        assertThatThrownBy(() -> KeySelection.resolve(d, new KeySelection.Choice(List.of(KEY), "2026-11-01", null,
                false, false), ws.store(), wb.clock, Duration.ofDays(7)))
                .isInstanceOf(KeySelection.SelectionException.class)
                .hasMessage("choose one of --key, --from/--to and --due");

        // the command line says the same words, and nothing was sent
        Workbench.Result cli = wb.cli("run", "--yes", "daily", "--from", "2026-11-28", "--to", "2026-12-01");
        assertThat(cli.out() + cli.err()).contains(refusal);
        assertThat(site.posts()).isZero();
    }

    @Test
    void confirmAndRunIsBoundToThePayloadThatWasShown() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_502);
        assertThat(wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        long before = site.posts();
        ConfirmAndRun op = ws.operations().confirmAndRun();
        JobDefinition d = job("daily");

        ConfirmAndRun.Preview shown = op.preview(d, KEY);
        assertThat(shown.waiting()).isTrue();
        assertThat(shown.payload().text()).contains("POST " + site.base() + "/api/articles")
                .contains("User-Agent: " + io.keyline.core.exec.HttpExecutor.USER_AGENT).contains("Idempotency-Key: daily:" + KEY + ":publish");
        Files.writeString(wb.jobs.resolve("out").resolve(KEY + ".md"), "a different article");

        assertThatThrownBy(() -> op.confirmAndRun(d, KEY, "checked", shown.payload().hash(),
                ws.engine(RunTrace.NONE), r -> { }))
                .isInstanceOf(OperatorException.class).hasMessageContaining("changed since it was shown");
        assertThat(site.posts() - before).as("nothing sent for a payload nobody saw").isZero();
        assertThat(record("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        ConfirmAndRun.Preview now = op.preview(d, KEY);
        assertThat(now.payload().hash()).isNotEqualTo(shown.payload().hash());
        ConfirmAndRun.Outcome out = op.confirmAndRun(d, KEY, "read the new text", now.payload().hash(),
                ws.engine(RunTrace.NONE), r -> { });
        assertThat(out.after().state()).isEqualTo(KeyState.DONE);
        assertThat(out.report().exitCode()).isZero();
        assertThat(site.posts() - before).isEqualTo(1);
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    /** An output the job file marks secret, extracted by the step just confirmed, is masked in what it came to. */
    @Test
    void theResultOfAConfirmedStepMasksTheOutputsItsJobFileMarksSecret() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", false, """
                "confirm": "always", "extract": { "day": { "json": "/key", "secret": true } },"""), site.base());
        assertThat(wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        ConfirmAndRun op = ws.operations().confirmAndRun();
        JobDefinition d = job("daily");

        ConfirmAndRun.Outcome out = op.confirmAndRun(d, KEY, "checked", op.preview(d, KEY).payload().hash(),
                ws.engine(RunTrace.NONE), r -> { });

        assertThat(out.after().state()).isEqualTo(KeyState.DONE);
        assertThat(out.result().outputs()).containsEntry("day", "***");
        assertThat(out.result().outputs().values()).noneMatch(v -> v.contains(KEY));
    }

    @Test
    void retryAndRunReArmsAFailedKeyAndRunsItOnce() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404);
        assertThat(wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        long before = site.posts();

        KeyActions.Outcome o = ws.operations().keyActions().retryAndRun(job("daily"), KEY, "site fixed", ws.engine(RunTrace.NONE));

        assertThat(o.after().state()).isEqualTo(KeyState.DONE);
        assertThat(o.report().exitCode()).isZero();
        assertThat(site.posts() - before).isEqualTo(1);
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void aRejectedCredentialIsOneAttentionItemAndRenewAndResumeRunsItsKeys() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", true, "\"credential\": \"site-cookie\","), site.base());
        site.requireCookie("session=v2");
        String login = "https://sandbox.example/login";
        assertThat(wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie", "--login-url", login)
                .exit()).isZero();
        assertThat(wb.cli("run", "--yes", "daily", "--from", "2026-11-27", "--to", KEY).exit()).isEqualTo(4);
        assertThat(wb.cli("approve", "daily").exit()).isZero(); // reviewed: the renewal may run its keys
        List<JobDefinition> jobs = List.of(job("daily"));

        List<Attention.Item> items = ws.operations().attention(jobs, Map.of(), wb.clock.instant());
        assertThat(items).hasSize(1);
        Attention.Item item = items.get(0);
        assertThat(item.kind()).isEqualTo(Attention.Kind.CREDENTIAL);
        assertThat(item.keys()).containsExactly("2026-11-27", "2026-11-28", KEY);
        assertThat(item.credential()).isEqualTo("site-cookie");
        assertThat(item.loginUrl()).isEqualTo(login);
        assertThat(item.title()).isEqualTo("3 keys wait for a new login to site-cookie");
        assertThat(item.reason()).contains("Log in at " + login);
        assertThat(item.action()).isEqualTo("Renew login…");

        RenewAndResume op = ws.operations().renewAndResume();
        assertThat(op.waiting("site-cookie", List.of()).parked()).extracting(KeyRecord::key)
                .containsExactly("2026-11-27", "2026-11-28", KEY);
        RenewAndResume.Renewed renewed = op.renew("site-cookie",
                CredentialParser.parse(CredentialType.COOKIE, "Cookie: session=v2", null), null, "tester",
                ws.catalog().jobs());
        assertThat(renewed.resumed()).hasSize(3);
        assertThat(renewed.info().loginUrl()).as("kept when not given").isEqualTo(login);
        RenewAndResume.Ran ran = op.run(renewed.resumed(), ws.catalog()::job, ws.engine(RunTrace.NONE));

        assertThat(RenewAndResume.summary(renewed, ran)).isEqualTo("3 parked keys resumed, 3 of 3 completed");
        for (String k : List.of("2026-11-27", "2026-11-28", KEY)) {
            assertThat(site.effects(k)).as(k).isEqualTo(1);
            assertThat(record("daily", k).state()).isEqualTo(KeyState.DONE);
        }
        assertThat(ws.operations().attention(jobs, Map.of(), wb.clock.instant())).isEmpty();
    }
    /**
     * A key parked for a person and finished minutes later took as long as the run that finished it: the wait for
     * the person is not part of it (the timeline's "took", the key table's "Took").
     */
    @Test
    void aKeyFinishedAfterAWaitTookAsLongAsTheRunThatFinishedIt() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_502);
        JobDefinition d = job("daily");
        assertThat(ws.engine(RunTrace.NONE).run(d, List.of(KEY)).keys().get(0).state())
                .isEqualTo(KeyState.NEEDS_CONFIRMATION);
        wb.clock.advance(Duration.ofMinutes(2).plusSeconds(12));

        ConfirmAndRun op = ws.operations().confirmAndRun();
        assertThat(op.confirmAndRun(d, KEY, "checked the site", op.preview(d, KEY).payload().hash(),
                ws.engine(RunTrace.NONE), r -> { }).after().state()).isEqualTo(KeyState.DONE);

        assertTookTheLastRun(d, Duration.ofMinutes(2));
    }

    /** The same after a Retry of a failed key whose first step had already run, minutes before. */
    @Test
    void aKeyRetriedMinutesLaterTookAsLongAsTheRunThatFinishedIt() throws Exception {
        wb.job("daily", Jobs.publish("daily", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404);
        JobDefinition d = job("daily");
        assertThat(ws.engine(RunTrace.NONE).run(d, List.of(KEY)).keys().get(0).state()).isEqualTo(KeyState.FAILED);
        wb.clock.advance(Duration.ofMinutes(3).plusSeconds(55));

        assertThat(ws.operations().keyActions().retryAndRun(d, KEY, "site fixed", ws.engine(RunTrace.NONE))
                .after().state()).isEqualTo(KeyState.DONE);

        assertTookTheLastRun(d, Duration.ofMinutes(3));
    }

    private void assertTookTheLastRun(JobDefinition d, Duration waited) {
        Timeline.View v = ws.operations().timeline(java.util.Optional.of(d), "daily", KEY);
        Timeline.RunHeader last = (Timeline.RunHeader) v.rows().get(v.newestRun());
        assertThat(last.outcome()).isEqualTo(KeyState.DONE);
        assertThat(last.duration()).isLessThan(waited);
        assertThat(v.outcome().took()).as("the timeline's took").isEqualTo(last.duration());
        Outcomes.KeyOutcome row = ws.operations().keyTable(d, io.keyline.core.KeyRecords.KeyQuery.all("daily"), false)
                .outcomes().get(KEY);
        assertThat(row.took()).as("the key table's took").isEqualTo(last.duration());
        assertThat(row.tookText()).doesNotContain("min");
    }
}
