package io.keyline.core.operations;

import io.keyline.core.CredentialStore;
import io.keyline.core.KeyRecords;
import io.keyline.core.OperatorActions;
import io.keyline.core.Planner;
import io.keyline.core.StateStore;
import io.keyline.core.WorkerRegistry;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The one door to a workspace's state for the command line and the console: the operator's use cases
 * (plan and apply, confirm and run, retry, rearm, renew and resume, run what is due) and the reads the
 * screens and commands show (status, jobs, a job's keys, a key's timeline, what waits for a person).
 * Built once per workspace; commands and view models never reach the state another way.
 */
public final class Operations {

    private final StateStore store;
    private final CredentialStore credentials;
    private final Clock clock;
    private final Supplier<Planner> planner;
    private final Supplier<OperatorActions> operatorActions;
    private OperatorActions actions;
    private PlanApply planApply;
    private ConfirmAndRun confirmAndRun;
    private KeyActions keyActions;
    private RenewAndResume renewAndResume;
    private RetryAndSend retryAndSend;

    /**
     * The use cases are made when first used: a command that only reads (a one-shot {@code status}) loads
     * neither the planner nor the run log the operator actions write to.
     *
     * @param planner the planner, which asks probes read-only
     * @param actions the operator actions (audited, with their lines in the run log)
     */
    public Operations(StateStore store, CredentialStore credentials, Supplier<Planner> planner,
                      Supplier<OperatorActions> actions, Clock clock) {
        this.store = store;
        this.credentials = credentials;
        this.clock = clock;
        this.planner = planner;
        this.operatorActions = actions;
    }

    /** Confirm, mark done, retry, skip, rearm, pause and resume: one audited transition each. */
    public synchronized OperatorActions actions() {
        if (actions == null) {
            actions = operatorActions.get();
        }
        return actions;
    }

    public synchronized PlanApply planApply() {
        if (planApply == null) {
            planApply = new PlanApply(store, store, planner.get(), credentials,
                    (job, planId) -> actions().approvePlan(job, planId).released());
        }
        return planApply;
    }

    public synchronized ConfirmAndRun confirmAndRun() {
        if (confirmAndRun == null) {
            confirmAndRun = new ConfirmAndRun(store, store, credentials, actions(), clock);
        }
        return confirmAndRun;
    }

    public synchronized KeyActions keyActions() {
        if (keyActions == null) {
            keyActions = new KeyActions(store, actions());
        }
        return keyActions;
    }

    /** Retry that shows what an unsafe step would send before it is sent. */
    public synchronized RetryAndSend retryAndSend() {
        if (retryAndSend == null) {
            retryAndSend = new RetryAndSend(store, credentials, store.workers(), confirmAndRun(), keyActions(), clock);
        }
        return retryAndSend;
    }

    public synchronized RenewAndResume renewAndResume() {
        if (renewAndResume == null) {
            renewAndResume = new RenewAndResume(credentials, store, actions());
        }
        return renewAndResume;
    }

    public RunDue runDue() {
        return new RunDue(store, store, clock);
    }

    /** The keys a choice targets ({@code window}: the catch-up window of a {@code due} choice). */
    public KeySelection.Resolved select(JobDefinition job, KeySelection.Choice choice, Duration window) {
        return KeySelection.resolve(job, choice, store, clock, window);
    }

    /** The job's calendar now: states, missing keys, keys run ahead of schedule. */
    public Calendar.View calendar(JobDefinition job) {
        return Calendar.of(job, store, clock);
    }

    /** A key's record, its events grouped by run and (done) its outcome; {@code job} empty when its file is gone. */
    public Timeline.View timeline(Optional<JobDefinition> job, String name, String key) {
        return Timeline.load(store, store, credentials, job, name, key);
    }

    /** A key's events, oldest first. */
    public List<KeyEvent> events(String job, String key) {
        return store.events(job, key);
    }

    /** The key as stored now, if it ever ran. */
    public Optional<KeyRecord> key(String job, String key) {
        return store.key(job, key);
    }

    /** Whether the state holds keys of {@code job} (also when its file is gone). */
    public boolean hasKeys(String job) {
        return store.count(KeyRecords.KeyQuery.all(job)) > 0;
    }

    /** One page of a job's key table; with {@code whole}, also its calendar and kill switch. */
    public KeyTable keyTable(JobDefinition job, KeyRecords.KeyQuery query, boolean whole) {
        return KeyTable.of(store, store, credentials, clock, job, query, whole);
    }

    /**
     * The keys as {@code status} lists them (one job or all; {@code attention}: what waits for a person), read with
     * their jobs' definitions: where an interrupted key resumes, when a wait for a confirmation expires.
     */
    public Status status(String job, boolean attention, List<JobDefinition> jobs) {
        Map<String, JobDefinition> byName = new java.util.HashMap<>();
        jobs.forEach(j -> byName.put(j.name(), j));
        return Status.of(store, store, credentials, job, attention, clock.instant(), byName);
    }

    /** Each job's keys by state and its kill switch. */
    public Overview overview(List<JobDefinition> jobs) {
        return Overview.of(store, store, jobs);
    }

    /** Whether the job's unsafe steps wait for a review (unattended runs hold its keys until then), and why. */
    public io.keyline.core.Review.Need review(JobDefinition job) {
        return io.keyline.core.Review.need(job, store.jobControl(job.name()));
    }

    /** What waits for a person, grouped by cause ({@code calendars}: each job's, for its missing keys). */
    public List<Attention.Item> attention(List<JobDefinition> jobs, Map<String, Calendar.View> calendars,
                                          Instant now) {
        return Attention.of(store, store, store, credentials, jobs, calendars, now);
    }

    /** Keys being run now (by any process on the state), at most {@code limit}. */
    public List<KeyRecord> running(int limit) {
        return store.query(new KeyRecords.KeyQuery(null, Set.of(KeyState.RUNNING), null, 0, limit));
    }

    /** The processes registered on the state. */
    public List<WorkerRegistry.Worker> workers(Instant now) {
        return store.workers().list(now);
    }

    /** Claims this process lost to another (the version guard failed): wasted work among workers. */
    public long claimConflicts() {
        return store.claimConflicts();
    }

    /** Calls {@code onChange} when another process changes the state, while the handle is open (where it can tell). */
    public AutoCloseable watch(Runnable onChange) {
        return store.watch(onChange);
    }
}
