package io.keyline.store;

import io.keyline.core.LeaseKeeper;
import io.keyline.core.Orphans;
import io.keyline.core.StaleStateException;
import io.keyline.core.StateStore;
import io.keyline.core.WorkerRegistry;
import io.keyline.core.notify.NotifyStore;
import io.keyline.credentials.CredentialDecryptException;
import io.keyline.credentials.MasterKeyException;
import io.keyline.credentials.ParsedCredential;
import io.keyline.credentials.SecretBox;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobControl;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The store's contract, run against both databases Keyline keeps its state in: the embedded
 * H2 state ({@link H2StoreTest}) and PostgreSQL ({@link PostgresStoreTest}). Same interface, same
 * behaviour: guarded changes, all-or-nothing chains, key order, claims that skip locked rows, leases,
 * credentials, the outbox, export and prune.
 */
abstract class StoreContract {

    static final Instant T0 = Instant.parse("2026-11-29T09:00:00Z");
    /** A master key that is neither the state's nor the one the tests give a shared state. */
    static final String OTHER_KEY = Base64.getEncoder().encodeToString(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32});

    @TempDir
    Path tmp;
    Database db;
    JdbcStateStore store;

    /** Opens a new, empty state of the dialect under test. */
    abstract Database open() throws Exception;

    /** The environment the credential store gets (a shared state needs its master key given). */
    abstract Map<String, String> env();

    @BeforeEach
    void openStore() throws Exception {
        db = open();
        store = new JdbcStateStore(db);
    }

    @AfterEach
    void closeStore() {
        store.close();
        db.close();
    }

    static KeyEvent event(KeyRecord r, EventType type, KeyState state, Instant ts) {
        return new KeyEvent(0, r.job(), r.key(), ts, "run-1", type, null, 0, state, null, type.name(), null, null, null);
    }

    KeyRecord stored(String job, String key, KeyState state) {
        KeyRecord fresh = KeyRecord.fresh(job, key, T0).withState(state);
        return store.applyChain(List.of(new StateStore.Change(null, fresh, null, event(fresh, EventType.CLAIMED, state, T0))));
    }

    /** A key never stored, claimed by {@code owner}'s run. */
    KeyRecord claimedFresh(String key, String owner) {
        KeyRecord fresh = KeyRecord.fresh("daily", key, T0).withState(KeyState.RUNNING)
                .withLease("run-" + owner, owner, T0.plusSeconds(120));
        return store.applyChain(List.of(new StateStore.Change(null, fresh, null,
                event(fresh, EventType.CLAIMED, KeyState.RUNNING, T0))));
    }

    @Test
    void aChangeIsGuardedByItsVersionAndWritesNothingWhenTheGuardFails() {
        KeyRecord v1 = stored("daily", "2026-11-29", KeyState.PENDING);
        KeyRecord v2 = store.apply(v1, v1.withState(KeyState.RUNNING), null, event(v1, EventType.CLAIMED, KeyState.RUNNING, T0));
        assertThat(v2.version()).isEqualTo(2);
        assertThatThrownBy(() -> store.apply(v1, v1.withState(KeyState.SKIPPED), null,
                event(v1, EventType.SKIPPED, KeyState.SKIPPED, T0))).isInstanceOf(StaleStateException.class);
        assertThat(store.key("daily", "2026-11-29").orElseThrow().state()).isEqualTo(KeyState.RUNNING);
        assertThat(store.events("daily", "2026-11-29")).extracting(KeyEvent::type)
                .containsExactly(EventType.CLAIMED, EventType.CLAIMED);
    }

    @Test
    void aChainIsAllOrNothing() {
        KeyRecord fresh = KeyRecord.fresh("daily", "k1", T0).withState(KeyState.RUNNING);
        KeyRecord stale = fresh.withVersion(7); // the second change's guard cannot hold
        StepRecord step = new StepRecord("write", StepStatus.STARTED, 1, T0, Map.of(), T0);
        assertThatThrownBy(() -> store.applyChain(List.of(
                new StateStore.Change(null, fresh, step, event(fresh, EventType.CLAIMED, KeyState.RUNNING, T0)),
                new StateStore.Change(stale, fresh, null, event(fresh, EventType.STEP_STARTED, KeyState.RUNNING, T0)))))
                .isInstanceOf(StaleStateException.class);
        assertThat(store.key("daily", "k1")).isEmpty();
        assertThat(store.steps("daily", "k1")).isEmpty();
        assertThat(store.events("daily", "k1")).isEmpty();
        // the same key claimed by two processes: the second is stale (a unique violation on both databases)
        claimedFresh("k2", "one");
        long before = store.claimConflicts();
        assertThatThrownBy(() -> claimedFresh("k2", "other")).isInstanceOf(StaleStateException.class);
        assertThat(store.claimConflicts()).isEqualTo(before + 1);
    }

    /**
     * A commit that landed but whose answer was lost (the serving process closed the state just after it, or the
     * connection broke) is tried again on a new connection; its guard then fails against its own write. That is
     * this change landing, not another process's change: the caller gets the record as stored, and nothing is
     * written twice.
     */
    @Test
    void aChangeWhoseCommitAnsweredConnectionLostIsReadAsLandedNotAsAnotherProcesssChange() {
        LostCommitAnswer lossy = new LostCommitAnswer(db);
        JdbcStateStore s = new JdbcStateStore(lossy);
        // a key stored by a chain that inserts it
        KeyRecord fresh = KeyRecord.fresh("daily", "k1", T0);
        lossy.loseNext(1);
        KeyRecord v1 = s.applyChain(List.of(new StateStore.Change(null, fresh, null,
                event(fresh, EventType.CLAIMED, KeyState.PENDING, T0))));
        assertThat(v1.version()).isEqualTo(1);
        // a claim committed with the step's start, as a run claims a key it was given
        KeyRecord claimed = v1.withState(KeyState.RUNNING).withLease("run-me", "me", T0.plusSeconds(120));
        StepRecord started = new StepRecord("write", StepStatus.STARTED, 1, T0, Map.of(), T0);
        lossy.loseNext(1);
        KeyRecord v3 = s.applyChain(List.of(
                new StateStore.Change(v1, claimed, null, event(v1, EventType.CLAIMED, KeyState.RUNNING, T0)),
                new StateStore.Change(claimed.withVersion(2), claimed, started,
                        event(v1, EventType.STEP_STARTED, KeyState.RUNNING, T0))));
        assertThat(v3).isEqualTo(claimed.withVersion(3));
        // one change, with a message longer than the store keeps
        lossy.loseNext(1);
        KeyRecord v4 = s.apply(v3, v3.withState(KeyState.DONE).withFailure(v3.failureClass(), "done: " + "x".repeat(2500),
                v3.failureOrigin()), null,
                event(v3, EventType.KEY_DONE, KeyState.DONE, T0));
        assertThat(v4.state()).isEqualTo(KeyState.DONE);
        // set-based changes
        KeyRecord other = stored("daily", "k2", KeyState.FAILED);
        lossy.loseNext(1);
        assertThat(s.applyAll(List.of(new StateStore.Change(other, other.withState(KeyState.SKIPPED), null,
                event(other, EventType.SKIPPED, KeyState.SKIPPED, T0))))).extracting(KeyRecord::state)
                .containsExactly(KeyState.SKIPPED);
        // the next startable key, claimed
        stored("daily", "k3", KeyState.PENDING);
        lossy.loseNext(1);
        assertThat(s.claimNext("daily", List.of("k3"), T0, claimAs("me"))).map(KeyRecord::key).contains("k3");

        assertThat(lossy.lost()).as("every commit above lost its answer").isEqualTo(5);
        assertThat(store.key("daily", "k1").orElseThrow()).isEqualTo(v4);
        assertThat(store.events("daily", "k1")).as("each event once").extracting(KeyEvent::type)
                .containsExactly(EventType.CLAIMED, EventType.CLAIMED, EventType.STEP_STARTED, EventType.KEY_DONE);
        assertThat(store.steps("daily", "k1")).containsOnlyKeys("write");
        assertThat(store.events("daily", "k2")).extracting(KeyEvent::type)
                .containsExactly(EventType.CLAIMED, EventType.SKIPPED);
        assertThat(store.key("daily", "k3").orElseThrow().leaseOwner()).isEqualTo("me");
        assertThat(store.events("daily", "k3")).extracting(KeyEvent::type)
                .containsExactly(EventType.CLAIMED, EventType.CLAIMED);
        assertThat(s.claimConflicts()).as("no claim lost to another process").isZero();
    }

    @Test
    void ensureStoresAKeyOnceWhenProcessesRace() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<KeyRecord>> all = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                all.add(pool.submit(() -> {
                    go.await();
                    return store.ensure(KeyRecord.fresh("daily", "2026-11-30", T0));
                }));
            }
            go.countDown();
            for (Future<KeyRecord> f : all) {
                assertThat(f.get(30, TimeUnit.SECONDS).version()).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.keys("daily")).hasSize(1);
    }

    @Test
    void keysSortByteWiseAsOnH2() {
        // what a language collation (en_US) would order differently: '-', '_', '.', case and digits
        List<String> keys = new ArrayList<>(List.of("a-b", "a_c", "aB", "ab", "A1", "a.b", "2026-W10", "2026-W09",
                "Zeta", "a-a"));
        for (String k : keys) {
            stored("manual", k, KeyState.PENDING);
        }
        stored("a-job", "x", KeyState.PENDING);
        stored("a_job", "x", KeyState.PENDING);
        Collections.sort(keys);
        assertThat(store.keys("manual")).extracting(KeyRecord::key).containsExactlyElementsOf(keys);
        assertThat(store.query(new StateStore.KeyQuery(null, Set.of(), null, 0, 100))).extracting(KeyRecord::job)
                .startsWith("a-job", "a_job", "manual");
        List<String> reversed = new ArrayList<>(keys);
        Collections.reverse(reversed);
        assertThat(store.query(new StateStore.KeyQuery("manual", Set.of(), null, 0, 100).page(0, 100, true)))
                .extracting(KeyRecord::key).containsExactlyElementsOf(reversed);
        // every key at once (a status; on H2 sorted after the read, not by the index): the same order
        List<KeyRecord> all = store.query(new StateStore.KeyQuery(null, Set.of(), null, 0, Integer.MAX_VALUE));
        assertThat(all).extracting(KeyRecord::job).containsExactly("a-job", "a_job", "manual", "manual", "manual",
                "manual", "manual", "manual", "manual", "manual", "manual", "manual");
        assertThat(all.subList(2, all.size())).extracting(KeyRecord::key).containsExactlyElementsOf(keys);
        assertThat(store.query(new StateStore.KeyQuery("manual", Set.of(), null, 0, Integer.MAX_VALUE)
                .page(0, Integer.MAX_VALUE, true))).extracting(KeyRecord::key).containsExactlyElementsOf(reversed);
        // a range compares the same way
        List<String> inRange = keys.stream().filter(k -> k.compareTo("a-") >= 0 && k.compareTo("a_z") <= 0).toList();
        assertThat(inRange).contains("a-a", "a.b", "a_c").doesNotContain("ab", "A1");
        assertThat(store.query(StateStore.KeyQuery.all("manual").between("a-", "a_z"))).extracting(KeyRecord::key)
                .containsExactlyElementsOf(inRange);
    }

    @Test
    void listingsFilterSearchAndPage() {
        for (int i = 1; i <= 30; i++) {
            stored("daily", String.format("2026-11-%02d", i), i % 3 == 0 ? KeyState.FAILED : KeyState.DONE);
        }
        KeyRecord odd = stored("daily", "100%_done!", KeyState.DONE);
        assertThat(store.count(new StateStore.KeyQuery("daily", Set.of(KeyState.FAILED), null, 0, 5))).isEqualTo(10);
        assertThat(store.query(new StateStore.KeyQuery("daily", Set.of(KeyState.FAILED), null, 3, 2)))
                .extracting(KeyRecord::key).containsExactly("2026-11-12", "2026-11-15");
        // LIKE wildcards in a search are text, not patterns
        assertThat(store.query(new StateStore.KeyQuery("daily", Set.of(), "%_d", 0, 100))).extracting(KeyRecord::key)
                .containsExactly(odd.key());
        assertThat(store.countsByState("daily")).containsEntry(KeyState.FAILED, 10).containsEntry(KeyState.DONE, 21);
        assertThat(store.countsByJob()).containsOnlyKeys("daily");
        Map<String, KeyRecord> some = store.keys("daily", List.of("2026-11-01", "2026-11-02", "nope"));
        assertThat(some).containsOnlyKeys("2026-11-01", "2026-11-02");
    }

    @Test
    void aListingKeepsTheKeysThatWaitForTheirJobsReviewWithTheOthersAloneOrLeavesThemOut() {
        io.keyline.domain.WaitReason[] why = {io.keyline.domain.WaitReason.REVIEW, io.keyline.domain.WaitReason.REVIEW,
            io.keyline.domain.WaitReason.CONFIRM_ALWAYS, null};
        for (int i = 0; i < why.length; i++) {
            KeyRecord r = stored("daily", "2026-11-0" + (i + 1), KeyState.RUNNING);
            store.apply(r, r.withState(KeyState.NEEDS_CONFIRMATION).withWaitReason(why[i]), null,
                    event(r, EventType.WAITING_FOR_CONFIRMATION, KeyState.NEEDS_CONFIRMATION, T0));
        }
        stored("daily", "2026-11-05", KeyState.DONE);
        StateStore.KeyQuery waiting = new StateStore.KeyQuery("daily", Set.of(KeyState.NEEDS_CONFIRMATION), null, 0, 1);
        assertThat(store.count(waiting)).isEqualTo(4);
        StateStore.KeyQuery reviews = waiting.withReviews(StateStore.KeyQuery.ReviewWaits.ONLY);
        assertThat(store.count(reviews)).isEqualTo(2);
        assertThat(store.query(reviews.page(1, 5, false))).extracting(KeyRecord::key).containsExactly("2026-11-02");
        StateStore.KeyQuery confirmations = waiting.withReviews(StateStore.KeyQuery.ReviewWaits.WITHOUT)
                .page(0, 5, false);
        assertThat(store.query(confirmations)).extracting(KeyRecord::key).containsExactly("2026-11-03", "2026-11-04");
        // the other states are not touched by it
        assertThat(store.count(StateStore.KeyQuery.all("daily").withReviews(StateStore.KeyQuery.ReviewWaits.WITHOUT)))
                .isEqualTo(3);
    }

    @Test
    void eventsStepsAndTheLastFailureWithEvidence() {
        KeyRecord r = stored("daily", "k", KeyState.RUNNING);
        Evidence ev = new Evidence(T0, 1, null, 503, "busy", null, null, null, null, "503 from the site", null);
        KeyEvent failed = new KeyEvent(0, "daily", "k", T0.plusSeconds(1), "run-1", EventType.KEY_FAILED, "publish", 1,
                KeyState.FAILED, FailureClass.FATAL, "publish failed", null, null, ev);
        StepRecord step = new StepRecord("publish", StepStatus.FAILED, 1, T0, Map.of("id", "x".repeat(5000)), T0);
        store.apply(r, r.withState(KeyState.FAILED), step, failed);
        assertThat(store.steps("daily", "k").get("publish").outputs().get("id")).hasSize(5000);
        List<KeyEvent> events = store.events("daily", "k");
        assertThat(events).extracting(KeyEvent::type).containsExactly(EventType.CLAIMED, EventType.KEY_FAILED);
        assertThat(events.get(1).id()).isGreaterThan(events.get(0).id());
        assertThat(store.lastFailures(KeyState.ATTENTION)).singleElement()
                .satisfies(e -> assertThat(e.evidence().status()).isEqualTo(503));
    }

    @Test
    void whyAKeyWaitsAndWhichEventsAProbeAnsweredAreStoredAsValues() {
        KeyRecord r = stored("daily", "k", KeyState.RUNNING);
        KeyEvent waits = new KeyEvent(0, "daily", "k", T0, "run-1", EventType.WAITING_FOR_CONFIRMATION, "publish", 1,
                KeyState.NEEDS_CONFIRMATION, FailureClass.AMBIGUOUS, "in words nobody reads", null, null, null,
                io.keyline.domain.ProbeAnswer.ABSENT).withWaitReason(io.keyline.domain.WaitReason.PAYLOAD_CHANGED);
        r = store.apply(r, r.withWaitReason(io.keyline.domain.WaitReason.PAYLOAD_CHANGED)
                .withState(KeyState.NEEDS_CONFIRMATION), null, waits);
        assertThat(store.key("daily", "k").orElseThrow().waitReason())
                .isEqualTo(io.keyline.domain.WaitReason.PAYLOAD_CHANGED);
        assertThat(store.query(StateStore.KeyQuery.all("daily"))).singleElement()
                .extracting(KeyRecord::waitReason).isEqualTo(io.keyline.domain.WaitReason.PAYLOAD_CHANGED);
        assertThat(store.events("daily", "k")).extracting(KeyEvent::probe)
                .containsExactly(null, io.keyline.domain.ProbeAnswer.ABSENT);
        // the event keeps why it left the key waiting, for the key's history once the key moved on
        assertThat(store.events("daily", "k")).extracting(KeyEvent::waitReason)
                .containsExactly(null, io.keyline.domain.WaitReason.PAYLOAD_CHANGED);
        // the reason belongs to the wait: the key that moves on has none
        store.apply(r, r.withState(KeyState.PENDING), null, event(r, EventType.CONFIRMED, KeyState.PENDING, T0));
        assertThat(store.key("daily", "k").orElseThrow().waitReason()).isNull();
    }

    @Test
    void rearmRemovesTheRecordsOfTheStepsThatRunAgain() {
        KeyRecord r = stored("daily", "k", KeyState.RUNNING);
        r = store.apply(r, r, new StepRecord("write", StepStatus.SUCCEEDED, 1, T0, Map.of(), T0), null);
        r = store.apply(r, r.withState(KeyState.DONE), new StepRecord("publish", StepStatus.SUCCEEDED, 1, T0, Map.of(),
                T0), event(r, EventType.KEY_DONE, KeyState.DONE, T0));
        store.rearm(r, r.withState(KeyState.PENDING), List.of("publish"), event(r, EventType.REARMED, KeyState.PENDING, T0));
        assertThat(store.steps("daily", "k")).containsOnlyKeys("write");
        assertThat(store.key("daily", "k").orElseThrow().state()).isEqualTo(KeyState.PENDING);
    }

    @Test
    void childPausesAndPlansRoundTrip() {
        store.recordChild(new StateStore.Child("daily", "k", "write", "host-a", 42, T0, T0.plusSeconds(60)));
        store.recordChild(new StateStore.Child("daily", "k", "render", "host-a", 43, T0, T0.plusSeconds(90)));
        assertThat(store.child("daily", "k").orElseThrow().pid()).isEqualTo(43);
        store.saveJobControl(new JobControl("daily", true, "site migration", T0.plusSeconds(3600), "ops", T0));
        assertThat(store.jobControl("daily").pausedAt(T0)).isTrue();
        store.saveJobControl(JobControl.running("daily"));
        assertThat(store.jobControl("daily").paused()).isFalse();
        store.savePlan("p1", "daily", T0, List.of("a", "b"), "ahead", "h\nfalse|true|true\na|new\n");
        assertThat(store.plan("p1").orElseThrow().keys()).containsExactly("a", "b");
        assertThat(store.plan("p1").orElseThrow().inputs()).isEqualTo("h\nfalse|true|true\na|new\n");
        assertThat(store.plan("p1").orElseThrow().has("ahead")).isTrue();
    }

    @Test
    void theHeartbeatRenewsOnlyTheLeasesItsProcessStillHolds() {
        KeyRecord mine = stored("daily", "mine", KeyState.PENDING);
        KeyRecord theirs = stored("daily", "theirs", KeyState.PENDING);
        mine = store.apply(mine, mine.withState(KeyState.RUNNING).withLease("r1", "me", T0.plusSeconds(10)), null, null);
        store.apply(theirs, theirs.withState(KeyState.RUNNING).withLease("r2", "other", T0.plusSeconds(10)), null, null);
        int n = store.renewLeases("me", List.of(new LeaseKeeper.Held("daily", "mine"), new LeaseKeeper.Held("daily",
                "theirs")), T0.plusSeconds(120));
        assertThat(n).isEqualTo(1);
        assertThat(store.key("daily", "mine").orElseThrow().leaseUntil()).isEqualTo(T0.plusSeconds(120));
        assertThat(store.key("daily", "theirs").orElseThrow().leaseUntil()).isEqualTo(T0.plusSeconds(10));
        assertThat(store.key("daily", "mine").orElseThrow().version()).isEqualTo(mine.version());
    }

    /** A claim function as the engine's: RUNNING with this owner, event CLAIMED. */
    static java.util.function.Function<KeyRecord, StateStore.Change> claimAs(String owner) {
        return r -> {
            KeyRecord after = r.withState(KeyState.RUNNING).withLease("run-" + owner, owner, T0.plusSeconds(120));
            return new StateStore.Change(r, after, null, event(r, EventType.CLAIMED, KeyState.RUNNING, T0));
        };
    }

    @Test
    void aClaimPicksTheFirstStartableKeyAndPassesByARowAnotherProcessIsClaiming() throws Exception {
        for (String k : List.of("k1", "k2", "k3", "k4")) {
            stored("daily", k, KeyState.PENDING);
        }
        KeyRecord k1 = store.key("daily", "k1").orElseThrow();
        // k1 is a retry that is not due yet, k2 is done: neither is picked
        store.apply(k1, k1.withState(KeyState.RETRY_WAIT).withNextAttemptAt(T0.plusSeconds(600)), null, null);
        KeyRecord k2 = store.key("daily", "k2").orElseThrow();
        store.apply(k2, k2.withState(KeyState.DONE), null, null);
        // another process is in the middle of claiming k3: its row is locked until it commits
        try (Connection other = db.connection()) {
            other.setAutoCommit(false);
            try (PreparedStatement ps = other.prepareStatement(
                    "SELECT version FROM key_state WHERE job = 'daily' AND key_value = 'k3' FOR UPDATE")) {
                ps.executeQuery().close();
            }
            // passed by, not waited for (waiting would end in the lock timeout's error)
            Optional<KeyRecord> got = store.claimNext("daily", List.of("k1", "k2", "k3", "k4"), T0, claimAs("me"));
            assertThat(got).map(KeyRecord::key).contains("k4");
            assertThat(got.orElseThrow().leaseOwner()).isEqualTo("me");
            other.rollback();
        }
        // the lock is gone: k3 is next; then nothing is left (k1 not due yet)
        assertThat(store.claimNext("daily", List.of("k1", "k2", "k3", "k4"), T0, claimAs("me"))).map(KeyRecord::key)
                .contains("k3");
        assertThat(store.claimNext("daily", List.of("k1", "k2", "k3", "k4"), T0, claimAs("me"))).isEmpty();
        // when k1's retry is due, it is picked
        assertThat(store.claimNext("daily", List.of("k1"), T0.plusSeconds(600), claimAs("me"))).map(KeyRecord::key)
                .contains("k1");
        assertThat(store.events("daily", "k4")).extracting(KeyEvent::type).contains(EventType.CLAIMED);
        assertThat(store.claimConflicts()).isZero();
    }

    @Test
    void concurrentPickersTakeDisjointKeys() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            keys.add(String.format("k%03d", i));
            store.ensure(KeyRecord.fresh("daily", keys.get(i), T0));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<List<String>>> takers = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int w = 0; w < 4; w++) {
            String owner = "w" + w;
            takers.add(pool.submit(() -> {
                go.await();
                List<String> mine = new ArrayList<>();
                while (true) {
                    Optional<KeyRecord> r = store.claimNext("daily", keys, T0, claimAs(owner));
                    if (r.isEmpty()) {
                        return mine;
                    }
                    mine.add(r.get().key());
                }
            }));
        }
        go.countDown();
        List<String> all = new ArrayList<>();
        for (Future<List<String>> f : takers) {
            all.addAll(f.get(60, TimeUnit.SECONDS));
        }
        pool.shutdownNow();
        assertThat(all).hasSize(200).doesNotHaveDuplicates();
        assertThat(store.countsByState("daily")).containsEntry(KeyState.RUNNING, 200);
        for (String k : List.of("k000", "k100", "k199")) {
            assertThat(store.events("daily", k)).filteredOn(e -> e.type() == EventType.CLAIMED).hasSize(1);
        }
    }

    @Test
    void aRegisteredProcessIsAliveUntilItDeregisters() {
        WorkerRegistry workers = store.workers();
        LeaseKeeper keeper = new LeaseKeeper(store, io.keyline.core.RunOptions.standard(), "worker");
        keeper.start();
        KeyRecord k = stored("daily", "k", KeyState.PENDING);
        Instant now = Instant.now();
        KeyRecord running = store.apply(k, k.withState(KeyState.RUNNING).withLease("r", keeper.owner(),
                now.plusSeconds(120)), null, null);
        assertThat(workers.holderAlive(running, now)).isTrue();
        assertThat(workers.list(now)).anySatisfy(w -> {
            assertThat(w.id()).isEqualTo(keeper.owner());
            assertThat(w.alive()).isTrue();
            assertThat(w.kind()).isEqualTo("worker");
            assertThat(w.keys()).containsExactly("daily k");
        });
        assertThat(Orphans.of(store, store, "daily", now)).isEmpty();
        keeper.close();
        assertThat(workers.list(now)).filteredOn(w -> w.id().equals(keeper.owner())).singleElement()
                .satisfies(w -> assertThat(w.stopped()).isNotNull());
        aliveAfterDeregister(workers, running, now);
    }

    /**
     * A process on its way out (SIGTERM) says it stopped only when it holds no key: with a key in flight it stays a
     * live holder until it is gone, as after a crash, so that no other process takes the key over and sends its step
     * again meanwhile; once it said it stopped, it holds no further key.
     */
    @Test
    void aProcessThatExitsSaysItStoppedOnlyWithNoKeyInFlight() {
        WorkerRegistry workers = store.workers();
        LeaseKeeper keeper = new LeaseKeeper(store, io.keyline.core.RunOptions.standard(), "console");
        try {
            keeper.start();
            KeyRecord k = stored("daily", "k", KeyState.PENDING);
            Instant now = Instant.now();
            keeper.hold("daily", "k");
            KeyRecord running = store.apply(k, k.withState(KeyState.RUNNING).withLease("r", keeper.owner(),
                    now.plusSeconds(120)), null, null);
            assertThat(keeper.stopAtExit(LeaseKeeper.EXIT_BOUND)).as("deregistered with a key in flight").isFalse();
            assertThat(workers.holderAlive(running, now)).as("the holder of the key in flight").isTrue();
            assertThat(workers.list(now)).filteredOn(w -> w.id().equals(keeper.owner())).singleElement()
                    .satisfies(w -> assertThat(w.stopped()).isNull());

            keeper.release("daily", "k");
            assertThat(keeper.stopAtExit(LeaseKeeper.EXIT_BOUND)).isTrue();
            assertThat(workers.list(now)).filteredOn(w -> w.id().equals(keeper.owner())).singleElement()
                    .satisfies(w -> {
                        assertThat(w.stopped()).isNotNull();
                        assertThat(w.alive()).isFalse();
                    });
            assertThatThrownBy(() -> keeper.hold("daily", "k2")).as("a key held after it said it stopped")
                    .isInstanceOf(IllegalStateException.class);
        } finally {
            keeper.close();
        }
    }

    /** What the dialect says about a holder that deregistered while its lease still runs. */
    abstract void aliveAfterDeregister(WorkerRegistry workers, KeyRecord running, Instant now);

    @Test
    void credentialsRoundTripEncrypted() throws Exception {
        JdbcCredentialStore creds = new JdbcCredentialStore(db, env(), Clock.fixed(T0, ZoneOffset.UTC));
        creds.set("site", ParsedCredential.ofToken("s3cr3t-token-value"), "https://example.org/login", "ops");
        assertThat(creds.lookup("site").material().secretStrings()).contains("s3cr3t-token-value");
        assertThat(creds.info("site").orElseThrow().loginUrl()).isEqualTo("https://example.org/login");
        byte[] stored;
        try (Connection c = db.connection(); var rs = c.createStatement().executeQuery("SELECT secret FROM credential")) {
            assertThat(rs.next()).isTrue();
            stored = Base64.getDecoder().decode(rs.getString(1));
        }
        assertThat(new String(stored, StandardCharsets.ISO_8859_1)).as("the stored value, decoded")
                .doesNotContain("s3cr3t");
        SecretBox otherBox = SecretBox.given(Map.of(SecretBox.MASTER_KEY_VARIABLE, OTHER_KEY)).orElseThrow();
        assertThatThrownBy(() -> otherBox.decrypt(stored, "site".getBytes(StandardCharsets.UTF_8)))
                .as("another master key cannot read it")
                .isInstanceOf(CredentialDecryptException.class).hasMessageContaining("wrong master key");
    }

    @Test
    void theOutboxQueuesAnEventForAHookOnce() {
        NotifyStore outbox = new JdbcNotifyStore(db);
        assertThat(outbox.enqueue("attention:1", "hook-a", "{}", T0)).isTrue();
        assertThat(outbox.enqueue("attention:1", "hook-a", "{}", T0)).isFalse();
        assertThat(outbox.claimDue(T0, "me", T0.plusSeconds(60), 10)).hasSize(1);
        assertThat(outbox.claimDue(T0, "other", T0.plusSeconds(60), 10)).isEmpty();
    }

    @Test
    void exportAndPruneWorkOnTheState() {
        KeyRecord r = stored("daily", "k", KeyState.DONE);
        store.apply(r, r, null, event(r, EventType.CLAIMED, KeyState.DONE, T0.plusSeconds(1)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long[] counts = new StateMaintenance(db).export(null, T0, out);
        assertThat(counts).containsExactly(1, 2);
        assertThat(out.toString()).contains("\"key\" : \"k\"");
        StateMaintenance m = new StateMaintenance(db);
        assertThat(m.prune(T0.plusSeconds(3600), true)).isEqualTo(new StateMaintenance.Pruned(1, 0));
        assertThat(m.prune(T0.plusSeconds(3600), false)).isEqualTo(new StateMaintenance.Pruned(1, 0));
        assertThat(store.events("daily", "k")).hasSize(1);
    }

    @Test
    void pruneDeletesSavedPlansOlderThanTheCutoff() {
        store.savePlan("0000000000000old", "daily", T0, List.of("k"), null, "inputs of then");
        store.savePlan("0000000000000new", "daily", T0.plus(Duration.ofDays(2)), List.of("k"), null, "inputs of now");
        StateMaintenance m = new StateMaintenance(db);
        assertThat(m.prune(T0.plus(Duration.ofDays(1)), true)).isEqualTo(new StateMaintenance.Pruned(0, 1));
        assertThat(store.plan("0000000000000old")).as("a dry run deletes nothing").isPresent();
        assertThat(m.prune(T0.plus(Duration.ofDays(1)), false)).isEqualTo(new StateMaintenance.Pruned(0, 1));
        assertThat(store.plan("0000000000000old")).isEmpty();
        assertThat(store.plan("0000000000000new")).isPresent();
    }

    @Test
    void aMasterKeyOtherThanTheStatesIsRefusedOnASharedState() {
        // on every dialect: the credentials of a state are encrypted with one key
        JdbcCredentialStore creds = new JdbcCredentialStore(db, env(), Clock.fixed(T0, ZoneOffset.UTC));
        creds.set("site", ParsedCredential.ofToken("token-one"), null, "ops");
        Map<String, String> other = new java.util.HashMap<>(env());
        other.put(SecretBox.MASTER_KEY_VARIABLE, OTHER_KEY);
        JdbcCredentialStore wrong = new JdbcCredentialStore(db, other, Clock.fixed(T0, ZoneOffset.UTC));
        otherKey(wrong);
    }

    /** What the dialect does with a process whose master key is not the state's. */
    abstract void otherKey(JdbcCredentialStore wrong);

    static void refused(JdbcCredentialStore wrong) {
        assertThatThrownBy(wrong::checkMasterKey).isInstanceOf(MasterKeyException.class)
                .hasMessageContaining("is not the key of the state");
        assertThatThrownBy(() -> wrong.set("site", ParsedCredential.ofToken("token-two"), null, "ops"))
                .isInstanceOf(MasterKeyException.class);
    }
}
