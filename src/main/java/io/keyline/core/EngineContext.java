package io.keyline.core;

import io.keyline.core.exec.Executors;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.text.Said;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What every part of a run works with: the state's ports, the executors, the credentials, the trace,
 * the options, this process's leases, and whether the process was told to stop. One per {@link Engine},
 * shared by its runs, pickers and key runs.
 */
final class EngineContext {

    final KeyRecords keys;
    final KeyChanges changes;
    final KeyEvents events;
    final JobControls controls;
    final ChildRecords children;
    final Leases leasePort;
    final Executors executors;
    final CredentialProvider credentials;
    final RunTrace trace;
    final RunOptions options;
    final LeaseKeeper leases;
    final String owner;
    private volatile Said stopRequest;
    private final CountDownLatch stopLatch = new CountDownLatch(1);
    /** The budget of every run of this engine ({@code --max-time}), or none. */
    private volatile RunBudget budget = RunBudget.NONE;
    /** The engine stopped because {@link #budget} was spent (not by a signal). */
    private volatile boolean stoppedByBudget;
    private volatile RunProgress progress = RunProgress.NONE;

    EngineContext(StateStore store, Executors executors, CredentialProvider credentials, RunTrace trace,
                  RunOptions options, LeaseKeeper leases) {
        this.keys = store;
        this.changes = store;
        this.events = store;
        this.controls = store;
        this.children = store;
        this.leasePort = store;
        this.executors = executors;
        this.credentials = credentials;
        this.trace = trace;
        this.options = options;
        this.leases = leases;
        this.owner = leases.owner();
    }

    Instant now() {
        return options.clock().instant();
    }

    /** Stops starting keys; a key in flight stops at its next step boundary, a wait for a retry ends. */
    void stop(Said reason) {
        stopRequest = reason;
        stopLatch.countDown();
    }

    /**
     * Why this process was told to stop, or {@code null}. An engine whose budget ({@code --max-time}) is spent
     * stops here, the way a signal stops it: no key starts, keys in flight stop at their next step boundary.
     */
    String stopRequest() {
        Said s = stopSaid();
        return s == null ? null : s.english();
    }

    /** {@link #stopRequest} as words said in the language of whoever shows them, or {@code null}. */
    Said stopSaid() {
        Said s = stopRequest;
        if (s == null && budget.spent(now())) {
            synchronized (this) {
                if (stopRequest == null) {
                    stoppedByBudget = true;
                    stop(budget.said());
                }
            }
            s = stopRequest;
        }
        return s;
    }

    /** Gives every run of this engine a budget that ends {@code maxTime} from now ({@code run --max-time}). */
    void maxTime(java.time.Duration maxTime) {
        budget = new RunBudget(now().plus(maxTime), Said.of("core.event.budget.maxTime", maxTime));
    }

    /** Whether the engine stopped because its budget was spent. */
    boolean stoppedByBudget() {
        return stoppedByBudget;
    }

    /** The budget of a run of {@code job} that started at {@code started}: the engine's or the job's, the earlier. */
    RunBudget budget(JobDefinition job, Instant started) {
        RunBudget own = job.runBudget() == null ? RunBudget.NONE
                : new RunBudget(started.plus(job.runBudget()), Said.of("core.event.budget.job", job.runBudget(),
                        job.name()));
        return budget.min(own);
    }

    RunProgress progress() {
        return progress;
    }

    void progress(RunProgress p) {
        progress = p == null ? RunProgress.NONE : p;
    }

    /** Whether the job's kill switch is on now. */
    boolean paused(JobDefinition job) {
        return controls.jobControl(job.name()).pausedAt(now());
    }

    /**
     * A run of a paused job takes no key: its one line in the run log and its report, or {@code null} when the job
     * is not paused.
     */
    RunReport pausedRun(JobDefinition job, String runId, Instant started) {
        if (!paused(job)) {
            return null;
        }
        String reason = pausedReason(job);
        trace.line(started, runId, job.name(), null, null, 0, "paused", null, 0, reason);
        return new RunReport(runId, job.name(), List.of(), reason);
    }

    /** "job daily is paused: site migration (until …)". */
    String pausedReason(JobDefinition job) {
        return pausedSaid(job).english();
    }

    /** {@link #pausedReason} as words said in the language of whoever shows them. */
    Said pausedSaid(JobDefinition job) {
        JobControl c = controls.jobControl(job.name());
        if (c.reason() == null) {
            return c.until() == null ? Said.of("core.event.paused", job.name())
                    : Said.of("core.event.pausedUntil", job.name(), c.until());
        }
        return c.until() == null ? Said.of("core.event.pausedWhy", job.name(), c.reason())
                : Said.of("core.event.pausedWhyUntil", job.name(), c.reason(), c.until());
    }

    /**
     * Why a running key yields at a step boundary now (this process stops, or the job was paused), in words said in
     * the language of whoever shows them, or {@code null}.
     */
    Said haltSaid(JobDefinition job) {
        Said stop = stopSaid();
        if (stop != null) {
            return stop;
        }
        return paused(job) ? pausedSaid(job) : null;
    }

    /** The rule's inputs for one run of {@code job}. */
    DecisionInputs inputs(JobDefinition job, boolean ahead) {
        return DecisionInputs.of(job, ahead, options.clock(), leasePort.workers(), options.waitInPlace());
    }

    /** The rule's inputs for one run of {@code job} as {@code request} asks for it (unattended: reviewed jobs only). */
    DecisionInputs inputs(JobDefinition job, RunRequest request) {
        if (!request.unattended()) {
            return inputs(job, request.ahead());
        }
        return DecisionInputs.unattended(job, adopted(job), request.ahead(), options.clock(), leasePort.workers(),
                options.waitInPlace());
    }

    /**
     * The job's controls; a job that ran before reviews existed ({@link JobControl#ADOPTED}) gets its unsafe steps
     * as they are now as its reviewed hash, so that an edit from now on asks for a review.
     */
    JobControl adopted(JobDefinition job) {
        JobControl c = controls.jobControl(job.name());
        String hash = Review.hash(job);
        if (JobControl.ADOPTED.equals(c.reviewed()) && hash != null) {
            JobControl now = c.withReview(hash, "keyline (the job ran before reviews)", now());
            controls.saveJobControl(now);
            return now;
        }
        return c;
    }

    /** Waits for a retry due soon, or until told to stop; returns false when told to stop. */
    boolean waitInPlace(Duration wait) throws InterruptedException {
        if (stopRequest() != null) {
            return false;
        }
        if (options.sleeper() == Sleeper.REAL) {
            return !stopLatch.await(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
        }
        options.sleeper().sleep(wait);
        return stopRequest() == null;
    }

    /** The key as stored now (or as given, when it is not stored). */
    KeyRecord reload(KeyRecord rec) {
        return keys.key(rec.job(), rec.key()).orElse(rec);
    }

    /** An event of a run; its message is kept as {@code message} and as its English words. */
    static KeyEvent event(KeyRecord rec, Instant ts, String runId, EventType type, String step, int attempt,
                          KeyState state, FailureClass cls, Said message, Evidence evidence) {
        return KeyEvent.said(rec.job(), rec.key(), ts, runId, type, step, attempt, state, cls, message, null, null,
                evidence);
    }
}
