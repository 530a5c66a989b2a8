package io.keyline.core;

import io.keyline.core.exec.CredentialMaterial;
import io.keyline.core.exec.ExecutionListener;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepOutcome;
import io.keyline.credentials.Redactor;
import io.keyline.domain.Effect;
import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyProbe;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.domain.Trigger;
import io.keyline.text.Said;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

/**
 * One key within one run: it asks {@link KeyDecision} what the key does next and does exactly that, one
 * action at a time (ask a probe, reconcile, execute a step), until the key stops.
 *
 * <p>Intent before effect: an unsafe step's "started" is committed and made durable before the step
 * does anything, so a run that dies mid-step is recognised by the next one (a safe step is then
 * redone; an unsafe one goes through its probe or waits for a person). A retry due within the
 * wait-in-place time is waited for here; a later one leaves the key for the next run.
 */
final class KeyRun {

    private final EngineContext ctx;
    private final Claims claims;
    private final KeyTransitions transitions;
    private final DecisionInputs inputs;
    private final JobDefinition job;
    private final String key;
    private final String runId;
    private final RunRequest request;
    private final PlanCursor cursor;
    /** The run claimed the key at least once. */
    boolean claimed;
    /** Reality departed from the plan being applied: the key stopped there. */
    boolean departed;
    /** The key is later than the current one and not allowed ahead: the run left it alone. */
    boolean notYetDue;
    /** The run's budget was spent: the key stopped at a step boundary, or a retry was not waited for. */
    boolean budgetHalt;
    /** Whether the key yielded at a step boundary (told to stop, paused, or over budget) with steps left to run. */
    boolean yielded;
    private RunBudget budget = RunBudget.NONE;

    KeyRun(EngineContext ctx, DecisionInputs inputs, String key, String runId, RunRequest request) {
        this.ctx = ctx;
        this.claims = new Claims(ctx);
        this.transitions = new KeyTransitions(ctx);
        this.inputs = inputs;
        this.job = inputs.job();
        this.key = key;
        this.runId = runId;
        this.request = request;
        this.cursor = new PlanCursor(request.applying() ? request.expected().get(key) : null, this::redo);
    }

    /** Runs within {@code b}: after it the key starts no step and waits for no retry. */
    KeyRun budget(RunBudget b) {
        this.budget = b;
        return this;
    }

    /** Runs the key as far as it can go now (waiting in place for a retry due soon); returns its final record. */
    KeyRecord run(KeyRecord known) {
        // A key never seen is stored by its claim (one transaction), not before it.
        KeyRecord rec = known != null ? known : KeyRecord.fresh(job.name(), key, ctx.now());
        while (true) {
            Instant now = ctx.now();
            KeyDecision.Decision d = KeyDecision.decide(inputs.unheld(key, rec, now));
            if (d.leavesKeyAlone()) {
                if (d.stop().kind() == KeyDecision.StopKind.NOT_YET_DUE) {
                    notYetDue = true;
                    return rec;
                }
                if (!inputs.waitsInPlace(d.stop(), now)) {
                    return rec;
                }
                if (budget.endsBefore(d.stop().until())) {
                    budgetHalt = true;
                    return rec; // the retry is due after the run's budget: the next run takes it
                }
                try {
                    if (!ctx.waitInPlace(Duration.between(now, d.stop().until()))) {
                        return rec; // told to stop: the retry waits for the next run
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return rec;
                }
                rec = ctx.reload(rec);
                continue;
            }
            ctx.leases.hold(job.name(), key);
            KeyRecord unclaimed = rec;
            rec = held(() -> claims.claim(job, unclaimed, runId));
            if (!goesOn(rec)) {
                return rec;
            }
        }
    }

    /** Runs a key this run claimed already (a picked claim, committed): the decision loop, then as {@link #run}. */
    KeyRecord runClaimed(KeyRecord claimedRec) {
        KeyRecord rec = held(() -> claims.claimed(job, claimedRec, runId));
        return goesOn(rec) ? run(rec) : rec;
    }

    /** Runs the decision loop on the claim {@code claim} makes; the key's lease is released after, whatever happens. */
    private KeyRecord held(Supplier<Claim> claim) {
        claimed = true;
        try {
            return execute(claim.get());
        } finally {
            ctx.leases.release(job.name(), key);
        }
    }

    /** Whether the run goes on with the key after a claim: it waits for a retry (and followed its plan). */
    private boolean goesOn(KeyRecord rec) {
        return rec.state() == KeyState.RETRY_WAIT && !departed;
    }

    /** Runs the decision loop on a claimed key until it stops; returns its final record. */
    private KeyRecord execute(Claim c) {
        Map<String, KeyDecision.CredentialState> creds = DecisionInputs.credentials(job, ctx.credentials);
        // read from the key's history when a probe cannot tell after an unknown outcome (this claim then stops)
        ToIntFunction<String> asks = DecisionInputs.probeAsks(() -> ctx.events.events(job.name(), key));
        try {
            while (true) {
                // told to stop (SIGTERM) or paused: the key stops at this step boundary
                Said halt = ctx.haltSaid(job);
                boolean overBudget = halt == null && budget.spent(ctx.now());
                if (overBudget) {
                    halt = budget.said();
                }
                KeyDecision.Input in = inputs.held(key, c.rec, c.steps, creds, c.probes, step -> payloadHash(c, step),
                        ctx.now(), halt == null ? null : halt.english(), asks);
                KeyDecision.Decision d = KeyDecision.decide(in);
                if (!d.acts()) {
                    yielded |= d.stop().kind() == KeyDecision.StopKind.YIELD;
                    budgetHalt |= overBudget && d.stop().kind() == KeyDecision.StopKind.YIELD;
                    Said departure = cursor.departure(d.stop());
                    if (departure != null) {
                        return depart(c, job.steps().get(0), departure);
                    }
                    return transitions.stop(c, d.stop(), halt, in);
                }
                KeyDecision.Action a = d.next();
                StepDefinition step = KeyProbe.is(a.step()) ? job.probe().asStep() : job.step(a.step());
                Said departure = cursor.departure(c, a, step);
                if (departure != null) {
                    return depart(c, step, departure);
                }
                switch (a.kind()) {
                    case PROBE -> probe(c, step, creds);
                    case RECONCILE -> {
                        transitions.reconcile(c, step, c.lastProbe);
                        cursor.advance(a);
                    }
                    case EXECUTE -> {
                        if (!executeStep(c, step, creds)) {
                            return c.rec;
                        }
                        StepRecord sr = c.steps.get(step.id());
                        if (sr != null && sr.status().finished()) {
                            cursor.advance(a);
                        }
                    }
                }
            }
        } catch (StaleStateException e) {
            // Another process took the key (our lease expired); it is theirs now.
            return ctx.reload(c.rec);
        } catch (RuntimeException e) {
            if (c.unrecorded == null) {
                throw e;
            }
            transitions.recordingFailed(c, c.unrecorded, e);
            return c.rec;
        }
    }

    /** Reality departs from the plan being applied: the key stops before {@code step}, back to PENDING. */
    private KeyRecord depart(Claim c, StepDefinition step, Said departure) {
        departed = true;
        return c.move(Trigger.YIELD, c.rec.withStep(step.id(), c.attempts(step.id())), null,
                EventType.DEPARTED, step.id(), c.attempts(step.id()), null,
                Said.of("core.event.departed", step.id(), request.planId(), departure, job.name(), key),
                c.lastProbe == null ? null : c.lastProbe.evidence());
    }

    /** Asks an unsafe step's probe, or the job's own (read-only); its answer feeds the next decision. */
    private void probe(Claim c, StepDefinition step, Map<String, KeyDecision.CredentialState> creds) {
        StepContext sc = context(c, step, c.attempts(step.id()) + 1);
        Instant started = ctx.now();
        ProbeOutcome p;
        try {
            p = ctx.executors.forKind(step.probe().kind()).probe(sc);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StaleStateException(job.name(), key);
        } catch (RuntimeException e) {
            p = new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, Said.of("core.exec.probeInternalError",
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": "
                    + sc.redact().apply(e.getMessage()))), null);
        }
        if (p.evidence() != null) {
            // what the probe asked is not an attempt of the step: its evidence says so wherever it is shown
            p = p.withEvidence(p.evidence().asProbe());
        }
        ProbeAnswer answer = p.decided();
        boolean ofKey = KeyProbe.is(step.id());
        // the job's own probe has no step: its line says "key probe: …"; a question the site refuses reads
        // probe:refused, as the key's message and its event say
        ctx.trace.probe(ctx.now(), runId, job.name(), key, ofKey ? null : step.id(), sc.attempt(),
                answer.name().toLowerCase(Locale.ROOT), Duration.between(started, ctx.now()).toMillis(),
                ofKey ? "key " + p.message() : p.message());
        transitions.refreshed(c, step, sc.attempt(), p.refreshed());
        if (step.credential() != null && p.answer() != ProbeOutcome.Answer.INCONCLUSIVE) {
            boolean rejected = p.answer() == ProbeOutcome.Answer.AUTH;
            ctx.credentials.recordUse(step.credential(), ctx.now(), rejected ? "rejected" : "accepted");
            if (rejected) {
                creds.put(step.credential(), new KeyDecision.CredentialState(step.credential(),
                        KeyDecision.CredentialStatus.REJECTED, ofKey ? Said.of("core.credential.jobProbeRejected")
                        : Said.of("core.credential.rejectedByProbe", step.id())));
            }
        }
        c.lastProbe = p;
        c.lastProbeStep = step.id();
        c.probes.put(step.id(), answer);
        if (answer == ProbeAnswer.ABSENT) {
            // "absent" lets the unsafe step run: the answer (its time and evidence) goes into the key's history,
            // committed with the transition that follows (the step's intent, or a wait), so a person sees what
            // was asked just before the request was sent. The other answers are recorded by the event they cause.
            c.stage(Trigger.PROGRESS, c.rec, null, EventType.PROBE_ANSWERED, step.id(), sc.attempt(), null,
                    p.words(), p.evidence(), ProbeAnswer.ABSENT);
        }
    }

    /** Executes one step; returns false when the key stopped (waits, fails, retries). */
    private boolean executeStep(Claim c, StepDefinition step, Map<String, KeyDecision.CredentialState> creds) {
        StepRecord sr = c.steps.get(step.id());
        int attempt = c.attempts(step.id()) + 1;
        StepContext sc = context(c, step, attempt);
        Instant started = ctx.now();
        // an attempt a person confirmed starts the step's time budget (maxElapsed) again, as a retry by a person does:
        // the attempts before it, whose outcome was unknown, may be hours old
        boolean confirmed = step.id().equals(c.rec.confirmedStep());
        Instant firstAttempt = !confirmed && sr != null && sr.firstAttemptAt() != null ? sr.firstAttemptAt() : started;
        // commit points per effect (docs/durability.md): only an unsafe step's intent is committed (with the
        // claim when it is the key's first transition) and synced before it acts; a none/idempotent step may
        // be redone after a crash, so it acts right after the claim or the previous step's success.
        if (step.effect() == Effect.UNSAFE) {
            StepRecord intent = new StepRecord(step.id(), StepStatus.STARTED, attempt, firstAttempt, Map.of(), started);
            c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt).withConfirmation(null, null), intent,
                    EventType.STEP_STARTED, step.id(), attempt, null, Said.of("core.event.attemptStarted", attempt,
                            step.id()), null);
            // the intent of an unsafe step is on disk before the request leaves, whatever the load
            ctx.changes.sync();
        } else {
            // the lease is ours before the step acts: a claim still waiting to be committed goes now
            c.flushIfPending();
        }
        StepOutcome out;
        try {
            out = ctx.executors.forKind(step.kind()).execute(sc, new ExecutionListener() {
                @Override
                public void childStarted(long pid, Instant startedAt) {
                    try {
                        ctx.children.recordChild(new ChildRecords.Child(job.name(), key, step.id(),
                                LeaseOwner.host(), pid, startedAt, ctx.now().plus(step.timeout())));
                    } catch (RuntimeException e) {
                        // the step runs anyway (nothing it does depends on the record): the run log says what is lost
                        String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                        ctx.trace.line(ctx.now(), runId, job.name(), key, step.id(), sc.attempt(), "unrecorded",
                                null, 0, "could not record process " + pid + " of step " + step.id() + " ("
                                        + sc.redact().apply(why) + "): a run that takes over after a crash would not"
                                        + " wait for it");
                    }
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StaleStateException(job.name(), key);
        } catch (RuntimeException e) {
            out = StepOutcome.failure(FailureClass.UNKNOWN, Said.of("core.exec.internalError", step.id(),
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": "
                    + sc.redact().apply(e.getMessage()))), null);
        }
        StepDefinition retried = retriedAfter(c, step);
        if (retried != null) {
            // its attempts count again from 1 (a new cycle, its outputs fetched anew): the words say why it ran again,
            // so that a second "csrf #1" in the trace and the timeline does not read as the first one said twice
            out = out.withWords(Said.of("core.event.runAgainFor", out.words(), retried.id(),
                    c.attempts(retried.id()) + 1));
        }
        // From here on the step may have changed the world: nothing may lose that fact. Until its
        // outcome is committed, a failure to record it parks the key for a person (see execute).
        c.unrecorded = new Claim.Unrecorded(step, attempt, firstAttempt, out);
        // an earlier attempt whose outcome is unknown may be why the site now refuses this one ("already used")
        int unknownBefore = sr != null && (sr.status() == StepStatus.STARTED || sr.status() == StepStatus.AMBIGUOUS)
                ? sr.attempts() : 0;
        return transitions.record(c, step, attempt, firstAttempt, started, out, creds, unknownBefore);
    }

    /**
     * The later step whose retry went back to {@code step} ({@code retryFrom}) and waits for it: it failed, it is
     * to be tried again, and {@code step} has no record because the retry discarded it. {@code null} otherwise.
     */
    private StepDefinition retriedAfter(Claim c, StepDefinition step) {
        if (c.steps.containsKey(step.id())) {
            return null;
        }
        int at = job.stepIndex(step.id());
        for (StepDefinition later : job.steps().subList(at + 1, job.steps().size())) {
            StepRecord sr = c.steps.get(later.id());
            if (later.retryFrom() != null && job.stepIndex(later.retryFrom()) <= at && sr != null
                    && sr.status() == StepStatus.FAILED && sr.attempts() > 0) {
                return later;
            }
        }
        return null;
    }

    private StepContext context(Claim c, StepDefinition step, int attempt) {
        CredentialMaterial credential = null;
        if (step.credential() != null) {
            credential = ctx.credentials.lookup(step.credential()).material();
        }
        // outputs are data and reach this step unmasked: the secrets of every credential of the job are masked
        // and so are the values of the outputs the job file marks secret (a session's token, a CSRF token)
        Redactor redactor = Redactor.NONE.plus(credential == null ? List.of() : credential.secretStrings())
                .plus(otherSecrets(step)).plus(job.secretValues(c.outputs))
                .plus(io.keyline.core.exec.AccessTokens.shared().issued());
        return new StepContext(job, step, key, runId, attempt, Map.copyOf(c.outputs), credential, redactor::redact,
                redo(step));
    }

    /** The secrets of the job's other credentials (an output may carry one into this step). */
    private List<String> otherSecrets(StepDefinition step) {
        List<String> out = new ArrayList<>();
        job.credentials().stream().filter(n -> !n.equals(step.credential()))
                .forEach(n -> {
                    CredentialProvider.Lookup l = ctx.credentials.lookup(n);
                    if (l.present()) {
                        out.addAll(l.material().secretStrings());
                    }
                });
        return out;
    }

    /**
     * The hash of what {@code stepId} would send now, as the key's confirmation binds it (the outputs of read-only
     * steps it ran again first are where they come from), or {@code null}.
     */
    private String payloadHash(Claim c, String stepId) {
        StepDefinition s = job.step(stepId);
        return ConfirmedPayload.now(new StepContext(job, s, key, "{runId}", 1, Map.copyOf(c.outputs), null,
                UnaryOperator.identity(), redo(s)), c.rec.confirmedHash());
    }

    /**
     * The redo of an http step's life its {@code Idempotency-Key} names ({@link Redos}), from the key's history as it
     * is now; a command sends no key.
     */
    private int redo(StepDefinition step) {
        return step.kind() == io.keyline.domain.StepKind.HTTP && !KeyProbe.is(step.id())
                ? Redos.of(ctx.events.events(job.name(), key)).getOrDefault(step.id(), 0) : 0;
    }
}
