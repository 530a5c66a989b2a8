package io.keyline.core.operations;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialTester;
import io.keyline.core.OperatorException;
import io.keyline.credentials.CredentialType;
import io.keyline.credentials.MasterKeyException;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The Renew dialog's and {@code credentials set}'s rules and sentences, without a store. */
class RenewAndResumeTextTest {

    private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");

    private static KeyRecord key(String job, String key, KeyState state) {
        return KeyRecord.fresh(job, key, T0).withState(state);
    }

    private static CredentialInfo info(String type, int cookies, Instant expiry, String last, Instant lastAt) {
        return new CredentialInfo("shop", type, "fp12", cookies, expiry, T0, "ann", lastAt, last, 0, null);
    }

    @Test
    void credentialNames() {
        assertThat(RenewAndResume.nameProblem("sandbox-cookie")).isNull();
        assertThat(RenewAndResume.nameProblem("a.b_c-9")).isNull();
        assertThat(RenewAndResume.nameProblem("")).isEqualTo("enter a name for the credential");
        assertThat(RenewAndResume.nameProblem(null)).isEqualTo("enter a name for the credential");
        assertThat(RenewAndResume.nameProblem("-x")).isEqualTo("the name must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}");
        assertThat(RenewAndResume.nameProblem("a b")).isNotNull();
        assertThat(RenewAndResume.nameProblem("a".repeat(64))).isNull();
        assertThat(RenewAndResume.nameProblem("a".repeat(65))).isNotNull();
    }

    @Test
    void whatIsStoredNowNeverTheValue() {
        Instant exp = Instant.parse("2026-12-24T10:00:00Z");
        assertThat(RenewAndResume.stored(info("cookie", 2, exp, "accepted", T0))).isEqualTo("Stored now: cookie, "
                + "fingerprint fp12, 2 cookies, expires " + EvidenceText.time(exp) + ", last accepted "
                + EvidenceText.time(T0));
        assertThat(RenewAndResume.stored(info("cookie", 1, null, "rejected", null)))
                .isEqualTo("Stored now: cookie, fingerprint fp12, 1 cookie, last rejected");
        assertThat(RenewAndResume.stored(info("bearer", 0, null, null, T0)))
                .isEqualTo("Stored now: bearer, fingerprint fp12");
    }

    @Test
    void whatWaitsForTheCredential() {
        RenewAndResume.Waiting none = new RenewAndResume.Waiting("shop", Optional.empty(), null, List.of(),
                List.of());
        assertThat(none.resumeText()).isEqualTo("No key waits for it now.");
        assertThat(none.storedText()).isEqualTo("Not set yet — keys that use shop wait for it.");
        assertThat(none.storedType()).isEmpty();

        RenewAndResume.Waiting one = new RenewAndResume.Waiting("shop", Optional.of(info("bearer", 0, null, null,
                null)), "https://example.org/login", List.of(key("daily", "2026-11-29", KeyState.NEEDS_CREDENTIAL)),
                List.of());
        assertThat(one.resumeText()).isEqualTo("1 key will resume: daily 2026-11-29");
        assertThat(one.storedText()).isEqualTo("Stored now: bearer, fingerprint fp12");
        assertThat(one.storedType()).contains(CredentialType.BEARER);

        RenewAndResume.Waiting three = new RenewAndResume.Waiting("shop", Optional.of(info("no-such-type", 0, null,
                null, null)), null, List.of(key("daily", "2026-11-29", KeyState.NEEDS_CREDENTIAL),
                key("weekly", "2026-W48", KeyState.NEEDS_CREDENTIAL), key("daily", "2026-11-30",
                        KeyState.NEEDS_CREDENTIAL)), List.of("daily", "weekly"));
        assertThat(three.resumeText()).isEqualTo("3 keys will resume: daily 2026-11-29, 2026-11-30; weekly 2026-W48, "
                + "then wait for the review of daily, weekly: nothing of these jobs is sent until their plans are applied");
        assertThat(three.storedType()).as("an unknown stored type keeps the dialog's default").isEmpty();

        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            // the same list words as Attention's list of keys
            assertThat(three.resumeText()).isEqualTo("将恢复 3 个任务项：daily 2026-11-29、2026-11-30；weekly 2026-W48，"
                    + "之后等待这些作业 daily、weekly 的审核：应用它们的计划之前，不会发送 daily、weekly 的任何内容");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void aSaveIsASuccessOnlyWhenEveryResumedKeyCompleted() {
        List<KeyRecord> resumed = List.of(key("daily", "a", KeyState.PENDING), key("daily", "b", KeyState.PENDING));
        RenewAndResume.Renewed r = new RenewAndResume.Renewed(info("cookie", 1, null, null, null), resumed, null);

        assertThat(RenewAndResume.saved(r, null))
                .isEqualTo(new RenewAndResume.Saved("Saved. 2 parked keys resumed: they run on the next run.", "", List.of()));
        assertThat(RenewAndResume.saved(new RenewAndResume.Renewed(r.info(), List.of(), null), null).message())
                .isEqualTo("Saved. 0 parked keys resumed.");
        assertThat(RenewAndResume.running(r)).isEqualTo("Saved. 2 resumed; running them…");
        assertThat(RenewAndResume.running(new RenewAndResume.Renewed(r.info(), resumed.subList(0, 1), null)))
                .isEqualTo("Saved. 1 resumed; running it…");

        RenewAndResume.Ran allDone = new RenewAndResume.Ran(List.of(key("daily", "a", KeyState.DONE),
                key("daily", "b", KeyState.DONE)), List.of());
        assertThat(RenewAndResume.saved(r, allDone))
                .isEqualTo(new RenewAndResume.Saved("Saved. 2 parked keys resumed, 2 of 2 completed.", "", List.of()));

        RenewAndResume.Ran oneParked = new RenewAndResume.Ran(List.of(key("daily", "a", KeyState.DONE),
                key("daily", "b", KeyState.NEEDS_CREDENTIAL)), List.of());
        RenewAndResume.Saved notAll = RenewAndResume.saved(r, oneParked);
        assertThat(notAll.message()).isEmpty();
        assertThat(notAll.error()).startsWith("Saved, but not every resumed key completed: 2 parked keys resumed, "
                + "1 of 2 completed (").endsWith("). If they wait for the login again, the site did not accept this "
                + "value.");
    }

    @Test
    void resumedKeysWhoseJobWaitsForItsReviewSayWhatToDoFirst() {
        List<KeyRecord> resumed = List.of(key("daily", "a", KeyState.PENDING), key("daily", "b", KeyState.PENDING),
                key("weekly", "c", KeyState.PENDING));
        RenewAndResume.Renewed one = new RenewAndResume.Renewed(info("cookie", 1, null, null, null),
                resumed.subList(0, 1), null, List.of("daily"));
        RenewAndResume.Renewed two = new RenewAndResume.Renewed(one.info(), resumed, null, List.of("daily", "weekly"));
        assertThat(RenewAndResume.saved(one, null).message()).isEqualTo("Saved. 1 parked key resumed, but the "
                + "scheduler parks it again until daily is reviewed: Plan… on the job's page, then apply the plan (or "
                + "keyline approve daily).");
        assertThat(RenewAndResume.summary(two, null)).isEqualTo("3 parked keys resumed, but the scheduler parks them "
                + "again until daily, weekly are reviewed: Plan… on the job's page, then apply the plan (or keyline "
                + "approve JOB for each)");
        // keys that ran at once (the operator's choice) are said as before
        RenewAndResume.Ran ran = new RenewAndResume.Ran(List.of(key("daily", "a", KeyState.DONE)), List.of());
        assertThat(RenewAndResume.saved(one, ran).message()).isEqualTo("Saved. 1 parked key resumed, 1 of 1 completed.");

        List<CredentialTester.Result> ok = List.of(new CredentialTester.Result("daily", "publish",
                CredentialTester.Verdict.ACCEPTED, io.keyline.text.Said.plain("HTTP 200")));
        RenewAndResume.Tested tested = new RenewAndResume.Tested(ok, resumed.subList(0, 2), List.of("daily"));
        assertThat(tested.resumedText()).isEqualTo("2 parked keys resumed, but the scheduler parks them again until "
                + "daily is reviewed: Plan… on the job's page, then apply the plan (or keyline approve daily)");
        assertThat(tested.plainSummary()).endsWith(" login page. " + tested.resumedText() + ".");

        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            assertThat(RenewAndResume.saved(one, null).message()).isEqualTo("已保存。已恢复 1 个等待的任务项，但在作业 "
                    + "daily 审核之前，调度器会让它再次等待：在作业页面点“计划…”，然后应用计划（或 keyline approve daily）。");
            assertThat(RenewAndResume.summary(two, null)).isEqualTo("已恢复 3 个等待的任务项，但在这些作业 daily、weekly "
                    + "审核之前，调度器会让它们再次等待：在作业页面点“计划…”，然后应用计划（或对每个作业执行 keyline approve 作业名）");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void keysARunHeldForTheirJobsReviewAreCountedApartAndSayHowToReviewIt() {
        List<KeyRecord> resumed = List.of(key("daily", "a", KeyState.PENDING), key("daily", "b", KeyState.PENDING),
                key("weekly", "c", KeyState.PENDING), key("weekly", "d", KeyState.PENDING));
        RenewAndResume.Renewed r = new RenewAndResume.Renewed(info("cookie", 1, null, null, null), resumed, null,
                List.of("daily"));
        KeyRecord held = key("daily", "a", KeyState.NEEDS_CONFIRMATION).withWaitReason(io.keyline.domain.WaitReason.REVIEW);
        RenewAndResume.Ran ran = new RenewAndResume.Ran(List.of(held, key("daily", "b", KeyState.NEEDS_CONFIRMATION)
                .withWaitReason(io.keyline.domain.WaitReason.REVIEW), key("weekly", "c", KeyState.DONE),
                key("weekly", "d", KeyState.DONE)), List.of());
        assertThat(ran.heldJobs()).containsExactly("daily");
        assertThat(RenewAndResume.saved(r, ran)).isEqualTo(new RenewAndResume.Saved("Saved. 4 parked keys resumed: "
                + "2 ran, 2 completed; 2 wait for the review of daily and were not sent: Plan… on the job's page, then "
                + "apply the plan (or keyline approve daily).", "", List.of("daily")));
        assertThat(RenewAndResume.ranSummary(r, ran)).isEqualTo("4 parked keys resumed: 2 ran, 2 completed; 2 wait "
                + "for the review of daily and were not sent");

        // a key that ran and did not complete is still no success, and is not counted as held
        RenewAndResume.Ran notAll = new RenewAndResume.Ran(List.of(held, key("weekly", "c", KeyState.DONE),
                key("weekly", "d", KeyState.FAILED)), List.of());
        RenewAndResume.Renewed three = new RenewAndResume.Renewed(r.info(), List.of(resumed.get(0), resumed.get(2),
                resumed.get(3)), null, List.of("daily"));
        assertThat(RenewAndResume.saved(three, notAll).message()).isEmpty();
        assertThat(RenewAndResume.saved(three, notAll).error()).startsWith("Saved, but not every resumed key completed: "
                + "3 parked keys resumed: 2 ran, 1 completed (").contains("; 1 waits for the review of daily and was "
                + "not sent: Plan…");

        // a save that ran the resumed keys and had some held for the review still leaves something to do
        assertThat(RenewAndResume.saved(r, ran).waits()).as("ran, two held for the review").isTrue();

        // when every resumed key waits for the review, nothing is counted as run: no "0 ran, 0 completed"
        RenewAndResume.Renewed two = new RenewAndResume.Renewed(r.info(), resumed.subList(0, 2), null,
                List.of("daily"));
        RenewAndResume.Ran noneRan = new RenewAndResume.Ran(List.of(held, key("daily", "b",
                KeyState.NEEDS_CONFIRMATION).withWaitReason(io.keyline.domain.WaitReason.REVIEW)), List.of());
        assertThat(RenewAndResume.ranSummary(two, noneRan)).isEqualTo("2 parked keys resumed; 2 wait for the review "
                + "of daily and were not sent");

        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            assertThat(RenewAndResume.saved(r, ran).message()).isEqualTo("已保存。已恢复 4 个等待的任务项：2 个已运行，"
                    + "2 个已完成；2 个在等待作业 daily 的审核，没有发送：在作业页面点“计划…”，然后应用计划（或 keyline "
                    + "approve daily）。");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void failures() {
        assertThat(RenewAndResume.notSaved("shop", new IllegalStateException("disk full")))
                .isEqualTo("Not saved (the stored credential shop is unchanged): disk full");
        assertThat(RenewAndResume.notSaved("shop", new MasterKeyException(io.keyline.text.Said.plain("the master key is wrong"))))
                .isEqualTo("the master key is wrong");
        assertThat(RenewAndResume.runFailed(new IllegalStateException()))
                .isEqualTo("Running the resumed keys failed: IllegalStateException (they stay pending for the next "
                        + "run)");
        assertThat(RenewAndResume.testFailed("shop", new OperatorException("credential shop is not set")))
                .isEqualTo("Cannot test shop: credential shop is not set");
        assertThat(RenewAndResume.testFailed("shop", new RuntimeException("boom"))).isEqualTo("Test failed: boom");
        assertThat(Words.error(new RuntimeException())).isEqualTo("RuntimeException");
    }

}
