package io.keyline.core;

import io.keyline.core.exec.Executors;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepExecutor;
import io.keyline.core.exec.StepOutcome;
import io.keyline.credentials.Redactor;
import io.keyline.domain.ConfirmPolicy;
import io.keyline.domain.Effect;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.domain.Trigger;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs keys: probe, decide, execute, with every transition committed before and after each step.
 *
 * <p>Intent before effect: "step started" is committed before a step does anything, so a run that
 * dies mid-step is recognised by the next one. A safe step is then redone; an unsafe one goes
 * through its probe or waits for a person. Only failures that are provably safe are retried.
 */
public final class Engine {

    private static final DateTimeFormatter RUN_ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")
            .withZone(ZoneOffset.UTC);

    private final StateStore store;
    private final Executors executors;
    private final CredentialProvider credentials;
    private final RunTrace trace;
    private final RunOptions options;
    private final String owner = LeaseOwner.forThisProcess();
    private final ScheduledExecutorService heartbeat = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "keyline-lease-heartbeat");
        t.setDaemon(true);
        return t;
    });

    public Engine(StateStore store, Executors executors, CredentialProvider credentials, RunTrace trace,
                  RunOptions options) {
        this.store = store;
        this.executors = executors;
        this.credentials = credentials;
        this.trace = trace;
        this.options = options;
    }

    public String newRunId() {
        byte[] b = new byte[3];
        options.random().nextBytes(b);
        return RUN_ID.format(options.clock().instant()) + "-" + HexFormat.of().formatHex(b);
    }

    /** Runs the given keys of a job, one after another, and reports their final states. */
    public RunReport run(JobDefinition job, List<String> keys) {
        String runId = newRunId();
        Instant started = now();
        if (store.jobControl(job.name()).pausedAt(started)) {
            String reason = pausedReason(job);
            trace.line(started, runId, job.name(), null, null, 0, "paused", null, 0, reason);
            return new RunReport(runId, job.name(), List.of(), reason);
        }
        Map<String, KeyRecord> known = store.keys(job.name(), keys);
        List<KeyRecord> finals = new ArrayList<>(keys.size());
        String stopped = null;
        for (String key : keys) {
            KeyRecord rec = known.get(key);
            if (rec != null && rec.state().finished()) {
                finals.add(rec);
                continue;
            }
            if (stopped != null) {
                finals.add(rec != null ? rec : KeyRecord.fresh(job.name(), key, now()));
                continue;
            }
            KeyRecord after = runKey(job, key, runId, rec);
            finals.add(after);
            if (after.state() == KeyState.PENDING && store.jobControl(job.name()).pausedAt(now())) {
                stopped = pausedReason(job);
            }
        }
        RunReport report = new RunReport(runId, job.name(), finals, stopped);
        trace.line(now(), runId, job.name(), null, null, 0, "run", null,
                Duration.between(started, now()).toMillis(), summary(report));
        return report;
    }

    private String pausedReason(JobDefinition job) {
        var c = store.jobControl(job.name());
        return "job " + job.name() + " is paused" + (c.reason() == null ? "" : ": " + c.reason())
                + (c.until() == null ? "" : " (until " + c.until() + ")");
    }

    static String summary(RunReport r) {
        StringBuilder sb = new StringBuilder();
        for (KeyState s : KeyState.values()) {
            long n = r.count(s);
            if (n > 0) {
                sb.append(sb.isEmpty() ? "" : ", ").append(n).append(' ').append(s.name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        sb.append(sb.isEmpty() ? "no keys" : "").append("; exit ").append(r.exitCode());
        if (r.stopped() != null) {
            sb.append(" (").append(r.stopped()).append(')');
        }
        return sb.toString();
    }

    /** Runs one key as far as it can go now; returns its final record. */
    public KeyRecord runKey(JobDefinition job, String key, String runId) {
        return runKey(job, key, runId, store.key(job.name(), key).orElse(null));
    }

    private KeyRecord runKey(JobDefinition job, String key, String runId, KeyRecord known) {
        // A key never seen is stored by its claim (one transaction), not before it.
        KeyRecord rec = known != null ? known : KeyRecord.fresh(job.name(), key, now());
        while (true) {
            Instant now = now();
            switch (rec.state()) {
                case DONE, SKIPPED, FAILED, NEEDS_CONFIRMATION, NEEDS_CREDENTIAL -> {
                    return rec;
                }
                case RUNNING -> {
                    if (!leaseDead(rec, now)) {
                        return rec;
                    }
                }
                case RETRY_WAIT -> {
                    if (rec.nextAttemptAt() != null && rec.nextAttemptAt().isAfter(now)) {
                        Duration wait = Duration.between(now, rec.nextAttemptAt());
                        if (wait.compareTo(options.waitInPlace()) > 0) {
                            return rec;
                        }
                        try {
                            options.sleeper().sleep(wait);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return rec;
                        }
                        rec = reload(rec);
                        continue;
                    }
                }
                case PENDING -> {
                    // claimable
                }
            }
            rec = executeSteps(claim(job, rec, runId));
            if (rec.state() != KeyState.RETRY_WAIT) {
                return rec;
            }
        }
    }

    private boolean leaseDead(KeyRecord rec, Instant now) {
        return rec.leaseOwner() == null || rec.leaseUntil() == null || !rec.leaseUntil().isAfter(now)
                || LeaseOwner.provablyDead(rec.leaseOwner());
    }

    private KeyRecord reload(KeyRecord rec) {
        return store.key(rec.job(), rec.key()).orElse(rec);
    }

    /**
     * Takes the key for this run. The claim is committed together with the next transition (the
     * first step's "started", a probe's answer, a wait): nothing happens in between, so the lease
     * is held before any step does anything, with one commit less per key.
     */
    private Claim claim(JobDefinition job, KeyRecord rec, String runId) {
        Instant now = now();
        boolean recover = rec.state() == KeyState.RUNNING;
        Trigger trigger = recover ? Trigger.RECOVER : Trigger.CLAIM;
        KeyState to = KeyStateMachine.apply(rec.state(), trigger);
        KeyRecord after = rec.withState(to).withLease(runId, owner, now.plus(options.lease()))
                .withNextAttemptAt(null).withUpdatedAt(now);
        String msg = recover ? "took over from " + rec.leaseOwner() + " (run " + rec.runId() + " ended without finishing)"
                : "run " + runId + " started";
        KeyEvent ev = event(rec, now, runId, recover ? EventType.RECOVERED : EventType.CLAIMED, null, 0, to, null, msg,
                null);
        Claim c = new Claim(job, rec, runId);
        c.defer(rec.stored() ? rec : null, after, null, ev);
        return c;
    }

    /** A key's progress within one claim; transitions not yet committed wait in {@code pending}. */
    private final class Claim {
        final JobDefinition job;
        final String runId;
        KeyRecord rec;
        final Map<String, StepRecord> steps;
        final Map<String, Map<String, String>> outputs = new HashMap<>();
        private final List<StateStore.Change> pending = new ArrayList<>();

        Claim(JobDefinition job, KeyRecord rec, String runId) {
            this.job = job;
            this.rec = rec;
            this.runId = runId;
            this.steps = rec.stored() ? new HashMap<>(store.steps(job.name(), rec.key())) : new HashMap<>();
            steps.values().stream().filter(s -> s.status().finished()).forEach(s -> outputs.put(s.step(), s.outputs()));
        }

        /** Queues a change to commit with the next {@link #move}; {@code before == null} inserts the key. */
        void defer(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent ev) {
            pending.add(new StateStore.Change(before, after, step, ev));
            rec = after.withVersion(before == null ? 1 : before.version() + 1);
            if (step != null) {
                steps.put(step.step(), step);
            }
        }

        /** Builds the change a trigger makes (a RUNNING key's lease is extended with it). */
        void stage(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                   FailureClass cls, String message, Evidence evidence) {
            KeyState to = KeyStateMachine.apply(rec.state(), trigger);
            Instant now = now();
            KeyRecord after = shape.withState(to).withUpdatedAt(now);
            after = to == KeyState.RUNNING ? after.withLease(runId, owner, now.plus(options.lease())) : after.withoutLease();
            KeyEvent ev = event(rec, now, runId, type, stepId, attempt, to, cls, message, evidence);
            defer(rec, after, step, ev);
        }

        /** Applies a transition and commits it, with whatever was deferred, in one transaction. */
        KeyRecord move(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                       FailureClass cls, String message, Evidence evidence) {
            stage(trigger, shape, step, type, stepId, attempt, cls, message, evidence);
            try {
                rec = store.applyChain(List.copyOf(pending));
            } finally {
                pending.clear();
            }
            return rec;
        }
    }

    private KeyRecord executeSteps(Claim c) {
        JobDefinition job = c.job;
        try {
            for (StepDefinition step : job.steps()) {
                StepRecord sr = c.steps.get(step.id());
                if (sr != null && sr.status().finished()) {
                    continue;
                }
                if (store.jobControl(job.name()).pausedAt(now())) {
                    return c.move(Trigger.YIELD, c.rec.withStep(step.id(), c.rec.attempts()), null, EventType.YIELDED,
                            step.id(), 0, null, pausedReason(job) + "; stopped before step " + step.id(), null);
                }
                if (!runStep(c, step, sr)) {
                    return c.rec;
                }
            }
            return c.move(Trigger.COMPLETE, c.rec.withStep(null, 0).withFailure(null, null).withCredential(null),
                    null, EventType.KEY_DONE, null, 0, null, "all " + job.steps().size() + " steps done", null);
        } catch (StaleStateException e) {
            // Another process took the key (our lease expired); it is theirs now.
            return reload(c.rec);
        }
    }

    /** Runs one step (with its probe); returns false when the key stops here (waits, fails, retries). */
    private boolean runStep(Claim c, StepDefinition step, StepRecord sr) {
        CredentialMaterial credential = null;
        if (step.credential() != null) {
            CredentialProvider.Lookup found = credentials.lookup(step.credential());
            if (!found.present()) {
                c.move(Trigger.NEED_CREDENTIAL, c.rec.withStep(step.id(), attempts(sr)).withCredential(step.credential())
                                .withFailure(FailureClass.AUTH, found.problem()), null, EventType.WAITING_FOR_CREDENTIAL,
                        step.id(), attempts(sr), FailureClass.AUTH, found.problem(), null);
                return false;
            }
            credential = found.material();
        }
        // outputs are data and reach this step unmasked: the secrets of every credential of the job are masked here
        Redactor redactor = Redactor.NONE.plus(credential == null ? List.of() : credential.secretStrings())
                .plus(otherSecrets(c.job, step));
        int attempt = attempts(sr) + 1;
        StepContext ctx = new StepContext(c.job, step, c.rec.key(), c.runId, attempt, Map.copyOf(c.outputs), credential,
                redactor::redact);
        boolean confirmed = step.id().equals(c.rec.confirmedStep());
        try {
            if (step.effect() == Effect.UNSAFE) {
                boolean interrupted = sr != null && (sr.status() == StepStatus.STARTED || sr.status() == StepStatus.AMBIGUOUS);
                if (!interrupted && step.confirm() == ConfirmPolicy.ALWAYS && !confirmed) {
                    needConfirmation(c, step, sr, null, "step " + step.id() + " needs confirmation (confirm: always)", null);
                    return false;
                }
                if (step.probe() != null) {
                    ProbeOutcome p = probe(c, step, ctx);
                    switch (p.answer()) {
                        case PRESENT -> {
                            reconcile(c, step, sr, p);
                            return true;
                        }
                        case AUTH -> {
                            needCredential(c, step, sr, p.message(), p.evidence());
                            return false;
                        }
                        case INCONCLUSIVE -> {
                            return scheduleRetry(c, step, sr, attempt, FailureClass.RETRYABLE,
                                    p.message() + "; the step does not run on an inconclusive probe", p.evidence(), null);
                        }
                        case ABSENT -> {
                            if (interrupted && !confirmed) {
                                needConfirmation(c, step, sr, p.evidence(), "the outcome of attempt " + attempts(sr)
                                        + " of " + step.id() + " is unknown; " + p.message(), FailureClass.AMBIGUOUS);
                                return false;
                            }
                        }
                    }
                } else if (interrupted && !confirmed) {
                    needConfirmation(c, step, sr, null, "the outcome of attempt " + attempts(sr) + " of " + step.id()
                            + " is unknown and the step has no probe: check the site, then confirm or mark done",
                            FailureClass.AMBIGUOUS);
                    return false;
                }
                if (confirmed && c.rec.confirmedHash() != null) {
                    String now = payloadHash(ctx);
                    if (!c.rec.confirmedHash().equals(now)) {
                        needConfirmation(c, step, sr, null, "the payload of " + step.id()
                                + " changed since it was confirmed: review it and confirm again", null);
                        return false;
                    }
                }
            }
            return execute(c, step, sr, ctx, attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StaleStateException(c.job.name(), c.rec.key());
        }
    }

    /** The hash of what the step would send now ({@code null} when it cannot be rendered yet). */
    public static String payloadHash(StepContext ctx) {
        // {runId} differs per run; the operator confirms the payload, not the run that sends it.
        StepContext stable = new StepContext(ctx.job(), ctx.step(), ctx.key(), "{runId}", ctx.attempt(), ctx.outputs(),
                null, ctx.redact());
        try {
            return ctx.step().kind() == StepKind.HTTP ? Rendering.request(stable).payloadHash()
                    : Rendering.command(stable).payloadHash();
        } catch (Rendering.RenderException e) {
            return null;
        }
    }

    private boolean execute(Claim c, StepDefinition step, StepRecord sr, StepContext ctx, int attempt)
            throws InterruptedException {
        Instant started = now();
        Instant firstAttempt = sr != null && sr.firstAttemptAt() != null ? sr.firstAttemptAt() : started;
        StepRecord intent = new StepRecord(step.id(), StepStatus.STARTED, attempt, firstAttempt, Map.of(), started);
        c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt).withConfirmation(null, null), intent,
                EventType.STEP_STARTED, step.id(), attempt, null, "attempt " + attempt + " of " + step.id() + " started",
                null);
        StepExecutor executor = executors.forKind(step.kind());
        StepOutcome out;
        ScheduledFuture<?> beat = heartbeat.scheduleAtFixedRate(
                () -> store.renewLease(c.job.name(), c.rec.key(), owner, now().plus(options.lease())),
                options.lease().toMillis() / 3, options.lease().toMillis() / 3, TimeUnit.MILLISECONDS);
        try {
            out = executor.execute(ctx);
        } finally {
            beat.cancel(false);
        }
        long ms = Duration.between(started, now()).toMillis();
        trace.line(now(), c.runId, c.job.name(), c.rec.key(), step.id(), attempt, out.succeeded() ? "ok" : "failed",
                out.failure() == null ? null : out.failure().name(), ms, out.message());
        if (step.credential() != null) {
            credentials.recordUse(step.credential(), now(), out.failure() == FailureClass.AUTH ? "rejected" : "accepted");
        }
        if (out.succeeded()) {
            // outputs are data for later steps: stored as the step produced them, never rewritten by the
            // redactor (it masks what is shown and what is stored as messages and evidence)
            Map<String, String> outputs = out.outputs();
            StepRecord done = new StepRecord(step.id(), StepStatus.SUCCEEDED, attempt, firstAttempt, outputs, now());
            boolean last = c.job.stepIndex(step.id()) == c.job.steps().size() - 1;
            if (last) {
                // committed together with KEY_DONE, which follows at once
                c.stage(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), done, EventType.STEP_SUCCEEDED, step.id(),
                        attempt, null, step.id() + ": " + out.message(), out.evidence());
            } else {
                c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), done, EventType.STEP_SUCCEEDED, step.id(),
                        attempt, null, step.id() + ": " + out.message(), out.evidence());
            }
            c.outputs.put(step.id(), outputs);
            return true;
        }
        FailureClass cls = out.failure();
        boolean unsafe = step.effect() == Effect.UNSAFE;
        if (unsafe && (cls == FailureClass.TRANSIENT_AFTER_SEND || cls == FailureClass.AMBIGUOUS)) {
            StepRecord unknown = new StepRecord(step.id(), StepStatus.AMBIGUOUS, attempt, firstAttempt, Map.of(), now());
            c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), unknown, EventType.STEP_FAILED, step.id(), attempt,
                    FailureClass.AMBIGUOUS, "outcome unknown (" + cls + "): " + out.message(), out.evidence());
            if (step.probe() == null) {
                needConfirmation(c, step, unknown, out.evidence(), "outcome of " + step.id() + " unknown: " + out.message()
                        + "; no probe: check the site, then confirm or mark done", FailureClass.AMBIGUOUS);
                return false;
            }
            ProbeOutcome p = probe(c, step, ctx);
            switch (p.answer()) {
                case PRESENT -> {
                    reconcile(c, step, unknown, p);
                    return true;
                }
                case ABSENT -> needConfirmation(c, step, unknown, p.evidence(), "outcome of " + step.id() + " unknown ("
                        + out.message() + "); " + p.message(), FailureClass.AMBIGUOUS);
                case AUTH -> needCredential(c, step, unknown, p.message(), p.evidence());
                case INCONCLUSIVE -> scheduleRetry(c, step, unknown, attempt, FailureClass.AMBIGUOUS, "outcome of "
                        + step.id() + " unknown and " + p.message() + "; the probe will be asked again", p.evidence(), null);
            }
            return false;
        }
        StepStatus status = unsafe && cls == FailureClass.UNKNOWN ? StepStatus.AMBIGUOUS : StepStatus.FAILED;
        StepRecord failed = new StepRecord(step.id(), status, attempt, firstAttempt, Map.of(), now());
        switch (cls) {
            case RETRYABLE, TRANSIENT_AFTER_SEND, AMBIGUOUS ->
                    scheduleRetry(c, step, failed, attempt, cls, out.message(), out.evidence(), out.retryAfter());
            case AUTH -> needCredential(c, step, failed, out.message(), out.evidence());
            case FATAL, UNKNOWN -> c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailure(cls, out.message()),
                    failed, EventType.KEY_FAILED, step.id(), attempt, cls, step.id() + " failed: " + out.message(),
                    out.evidence());
        }
        return false;
    }

    private ProbeOutcome probe(Claim c, StepDefinition step, StepContext ctx) throws InterruptedException {
        Instant started = now();
        ProbeOutcome p = executors.forKind(step.probe().kind()).probe(ctx);
        trace.line(now(), c.runId, c.job.name(), c.rec.key(), step.id(), ctx.attempt(),
                "probe:" + p.answer().name().toLowerCase(java.util.Locale.ROOT), null,
                Duration.between(started, now()).toMillis(), p.message());
        if (step.credential() != null && p.answer() != ProbeOutcome.Answer.INCONCLUSIVE) {
            credentials.recordUse(step.credential(), now(),
                    p.answer() == ProbeOutcome.Answer.AUTH ? "rejected" : "accepted");
        }
        return p;
    }

    /** The secrets of the job's credentials other than the step's own: an earlier output may carry one. */
    private List<String> otherSecrets(JobDefinition job, StepDefinition step) {
        List<String> out = new ArrayList<>();
        job.steps().stream().map(StepDefinition::credential)
                .filter(n -> n != null && !n.equals(step.credential())).distinct()
                .forEach(n -> {
                    CredentialProvider.Lookup l = credentials.lookup(n);
                    if (l.present()) {
                        out.addAll(l.material().secretStrings());
                    }
                });
        return out;
    }

    private void reconcile(Claim c, StepDefinition step, StepRecord sr, ProbeOutcome p) {
        StepRecord done = new StepRecord(step.id(), StepStatus.RECONCILED, attempts(sr),
                sr == null ? null : sr.firstAttemptAt(), Map.of(), now());
        c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempts(sr)).withConfirmation(null, null), done,
                EventType.STEP_RECONCILED, step.id(), attempts(sr), null,
                step.id() + " already done (reconciled by probe: " + p.message() + ")", p.evidence());
        c.outputs.put(step.id(), Map.of());
    }

    private void needConfirmation(Claim c, StepDefinition step, StepRecord sr, Evidence ev, String message,
                                  FailureClass cls) {
        c.move(Trigger.NEED_CONFIRMATION, c.rec.withStep(step.id(), attempts(sr)).withFailure(cls, message)
                        .withConfirmation(null, null), sr, EventType.WAITING_FOR_CONFIRMATION, step.id(), attempts(sr), cls,
                message, ev);
    }

    private void needCredential(Claim c, StepDefinition step, StepRecord sr, String message, Evidence ev) {
        String name = step.credential() == null ? "(none declared)" : step.credential();
        String msg = "credential " + name + " was rejected: " + message;
        c.move(Trigger.NEED_CREDENTIAL, c.rec.withStep(step.id(), attempts(sr)).withCredential(step.credential())
                .withFailure(FailureClass.AUTH, msg), sr, EventType.WAITING_FOR_CREDENTIAL, step.id(), attempts(sr),
                FailureClass.AUTH, msg, ev);
    }

    /** Schedules the next attempt per the retry policy, or fails the key when the policy is spent. */
    private boolean scheduleRetry(Claim c, StepDefinition step, StepRecord sr, int attempt, FailureClass cls,
                                  String message, Evidence ev, Duration retryAfter) {
        var policy = step.retry();
        Instant now = now();
        Instant first = sr != null && sr.firstAttemptAt() != null ? sr.firstAttemptAt() : now;
        StepRecord rec = sr != null ? new StepRecord(step.id(), sr.status(), attempt, first, sr.outputs(), now)
                : new StepRecord(step.id(), StepStatus.FAILED, attempt, first, Map.of(), now);
        if (attempt >= policy.maxAttempts()) {
            String msg = step.id() + " failed after " + attempt + " attempt" + (attempt == 1 ? "" : "s") + ": " + message;
            c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailure(cls, msg), rec, EventType.KEY_FAILED,
                    step.id(), attempt, cls, msg, ev);
            return false;
        }
        Duration delay = Backoff.delay(policy, attempt, options.random());
        if (retryAfter != null && retryAfter.compareTo(delay) > 0) {
            delay = retryAfter;
        }
        Instant next = now.plus(delay);
        if (Duration.between(first, next).compareTo(policy.maxElapsed()) > 0) {
            String msg = step.id() + " failed: the next attempt would be later than maxElapsed "
                    + policy.maxElapsed() + " after the first: " + message;
            c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailure(cls, msg), rec, EventType.KEY_FAILED,
                    step.id(), attempt, cls, msg, ev);
            return false;
        }
        String msg = message + "; attempt " + (attempt + 1) + " of " + policy.maxAttempts() + " at " + next
                + (retryAfter != null ? " (Retry-After " + retryAfter.toSeconds() + "s)" : "");
        c.move(Trigger.SCHEDULE_RETRY, c.rec.withStep(step.id(), attempt).withFailure(cls, msg).withNextAttemptAt(next),
                rec, EventType.RETRY_SCHEDULED, step.id(), attempt, cls, msg, ev);
        return false;
    }

    private static int attempts(StepRecord sr) {
        return sr == null ? 0 : sr.attempts();
    }

    private Instant now() {
        return options.clock().instant();
    }

    static KeyEvent event(KeyRecord rec, Instant ts, String runId, EventType type, String step, int attempt,
                          KeyState state, FailureClass cls, String message, Evidence evidence) {
        return new KeyEvent(0, rec.job(), rec.key(), ts, runId, type, step, attempt, state, cls, message, null, null,
                evidence);
    }

    public String owner() {
        return owner;
    }
}
