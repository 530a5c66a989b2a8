package io.keyline.core;

import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.StepOutcome;
import io.keyline.domain.Effect;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.FailureOrigin;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyProbe;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.domain.Trigger;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a held key's record and history become: for each outcome of a step (done, outcome unknown, a
 * retry, a rejected login, a failure), for a probe that found the effect, and for each stop of the
 * decision (complete, yield, wait for a login or a person, an inconclusive probe). Only failures that
 * are provably safe are retried; an unsafe step whose outcome is unknown goes to its probe or a person.
 */
final class KeyTransitions {

    private final EngineContext ctx;

    KeyTransitions(EngineContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Applies a stop of the decision to a claimed key; returns its record.
     *
     * @param halt   why the key was told to yield (this process stops, the job was paused, the run's budget is
     *               spent), as the decision was given it in English, or {@code null}
     * @param in     the decision's input: whether the job's unsafe steps wait for a review, and why; how often a
     *               probe could not tell after an unknown outcome
     */
    KeyRecord stop(Claim c, KeyDecision.Stop s, Said halt, KeyDecision.Input in) {
        Review.Need review = in.review();
        JobDefinition job = c.job;
        StepDefinition step = s.step() == null ? null : job.step(s.step());
        StepRecord sr = step == null ? null : c.steps.get(step.id());
        switch (s.kind()) {
            case COMPLETE -> {
                return c.move(Trigger.COMPLETE, c.rec.withStep(null, 0).withFailure(null, null).withCredential(null),
                        null, EventType.KEY_DONE, null, 0, null, Said.of("core.event.allDone", job.steps().size()),
                        null);
            }
            case YIELD -> {
                Said why = halt != null ? halt : s.words() != null ? s.words() : ctx.pausedSaid(job);
                return c.move(Trigger.YIELD, c.rec.withStep(s.step(), c.rec.attempts()), null, EventType.YIELDED,
                        s.step(), 0, null, s.step() == null ? why : Said.of("core.event.yielded", why, s.step()),
                        null);
            }
            case ALREADY_PRESENT -> {
                ProbeOutcome p = c.lastProbe;
                return c.move(Trigger.COMPLETE, c.rec.withStep(null, 0).withFailure(null, null).withCredential(null)
                                .withConfirmation(null, null), null, EventType.KEY_DONE, null, 0, null,
                        Said.of("core.event.alreadyDone", p.words()), p.evidence(),
                        ProbeAnswer.PRESENT);
            }
            case NEEDS_CREDENTIAL -> {
                ProbeOutcome p = c.lastProbe != null && c.lastProbe.answer() == ProbeOutcome.Answer.AUTH
                        ? c.lastProbe : null;
                // the job's own probe met the login before any step: the key waits at its first step, but no step
                // sent anything
                Said message = p == null ? s.words() : KeyProbe.is(c.lastProbeStep)
                        ? Said.of("core.event.credentialRejectedByJobProbe", s.credential(), p.words())
                        : Said.of("core.event.credentialRejected", s.credential(), p.words());
                needCredential(c, step, s.credential(), sr, message, p == null ? null : p.evidence(),
                        p == null ? null : ProbeAnswer.AUTH);
                return c.rec;
            }
            case NEEDS_CONFIRMATION, NEEDS_REVIEW -> {
                needConfirmation(c, step, sr, s, review);
                return c.rec;
            }
            case PROBE_INCONCLUSIVE, RETRIES_SPENT -> {
                ProbeOutcome p = c.lastProbe;
                boolean unknown = sr != null
                        && (sr.status() == StepStatus.AMBIGUOUS || sr.status() == StepStatus.STARTED);
                Said msg = unknown ? Said.of("core.event.unknownAskAgain", step.id(), p.words())
                        : Said.of("core.event.inconclusive", p.words());
                // asked again as a safe step is retried (growing waits), never as an attempt of the step: nothing was
                // sent. After maxAttempts asks the decision sends the key to a person (after an unknown outcome), or
                // the key fails here with nothing sent
                int asks = in.probeAsks().applyAsInt(step.id()) + 1;
                scheduleRetry(c, step, sr, attempts(sr), asks, unknown ? FailureClass.AMBIGUOUS
                        : FailureClass.RETRYABLE, p.origin(), msg, p.evidence(), p.askAgainAfter(),
                        ProbeAnswer.INCONCLUSIVE, false);
                return c.rec;
            }
            case PROBE_REFUSED -> {
                // the site refused the probe's question as it is asked, and would again: nothing to wait for
                ProbeOutcome p = c.lastProbe;
                boolean ofKey = KeyProbe.is(s.step());
                StepDefinition at = ofKey ? job.steps().get(0) : step;
                StepRecord atRecord = c.steps.get(at.id());
                Said msg = ofKey ? Said.of("core.event.jobProbeRefused", p.words())
                        : Said.of("core.event.probeRefused", p.words(), at.id());
                return c.move(Trigger.FAIL, c.rec.withStep(at.id(), attempts(atRecord))
                                .withFailureWords(FailureClass.FATAL, msg, FailureOrigin.ANSWER), atRecord,
                        EventType.KEY_FAILED, at.id(), attempts(atRecord), FailureClass.FATAL, msg, p.evidence(),
                        ProbeAnswer.REFUSED);
            }
            default -> throw new IllegalStateException("a held key cannot stop with " + s.kind());
        }
    }

    /**
     * What an attempt tells of its credential, as {@code credentials list} shows it: {@code rejected} (an auth
     * signal in an answer), {@code accepted} (the site or program answered, and not so), {@code no answer} (it went out and no
     * answer came), or {@code null} when it never went out (the host was unreachable, the request could not be
     * built): then nothing is recorded and the last use stays what it was.
     */
    static String credentialUse(StepOutcome out) {
        io.keyline.domain.Evidence ev = out.evidence();
        boolean answered = ev != null && (ev.status() != null || ev.exitCode() != null);
        if (out.failure() == FailureClass.AUTH) {
            // a login refused before anything went out (no cookie for the host) was not the site's answer
            return answered || ev == null ? "rejected" : null;
        }
        if (out.succeeded() || answered) {
            return "accepted";
        }
        return out.origin() == io.keyline.domain.FailureOrigin.NO_ANSWER ? "no answer" : null;
    }

    /**
     * Records a step's outcome; returns false when the key stopped (waits, fails, retries), true when the
     * decision goes on (the step succeeded, or its outcome is unknown and its probe or a person decides).
     *
     * @param creds the credentials' states of this claim: a rejected one is marked so (not sent again)
     * @param unknownBefore the attempt of this step before this one whose outcome is unknown (its answer was lost,
     *                      or the run that made it died), or 0
     */
    boolean record(Claim c, StepDefinition step, int attempt, Instant firstAttempt, Instant started, StepOutcome out,
                   Map<String, KeyDecision.CredentialState> creds, int unknownBefore) {
        JobDefinition job = c.job;
        long ms = Duration.between(started, ctx.now()).toMillis();
        ctx.trace.line(ctx.now(), c.runId, job.name(), c.key(), step.id(), attempt, out.succeeded() ? "ok" : "failed",
                out.failure() == null ? null : out.failure().name(), ms, out.message());
        refreshed(c, step, attempt, out.refreshed());
        if (step.credential() != null) {
            boolean rejected = out.failure() == FailureClass.AUTH;
            String use = credentialUse(out);
            if (use != null) { // a request that never went out says nothing about its credential
                ctx.credentials.recordUse(step.credential(), ctx.now(), use);
            }
            if (rejected) {
                creds.put(step.credential(), new KeyDecision.CredentialState(step.credential(),
                        KeyDecision.CredentialStatus.REJECTED, Said.of("core.credential.rejectedBy", step.id())));
            }
        }
        if (out.succeeded()) {
            // outputs are data for later steps: stored as the step produced them (bounded), masked where shown
            Map<String, String> outputs = Outputs.bounded(out.outputs());
            StepRecord done = new StepRecord(step.id(), StepStatus.SUCCEEDED, attempt, firstAttempt, outputs,
                    ctx.now());
            boolean last = job.stepIndex(step.id()) == job.steps().size() - 1;
            if (last) {
                // committed together with KEY_DONE, which follows at once
                c.stage(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), done, EventType.STEP_SUCCEEDED,
                        step.id(), attempt, null, Said.of("core.event.stepDone", step.id(), out.words()),
                        out.evidence(), null);
            } else {
                c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), done, EventType.STEP_SUCCEEDED,
                        step.id(), attempt, null, Said.of("core.event.stepDone", step.id(), out.words()),
                        out.evidence());
            }
            c.outputs.put(step.id(), outputs);
            c.probes.remove(step.id());
            return true;
        }
        FailureClass cls = out.failure();
        boolean unsafe = step.effect() == Effect.UNSAFE;
        if (unsafe && (cls == FailureClass.TRANSIENT_AFTER_SEND || cls == FailureClass.AMBIGUOUS)) {
            StepRecord unknown = new StepRecord(step.id(), StepStatus.AMBIGUOUS, attempt, firstAttempt, Map.of(),
                    ctx.now());
            // plain words in the stored message; the class itself is the event's own field
            Said msg = Said.of("core.event.outcomeUnknown", Said.of(cls == FailureClass.TRANSIENT_AFTER_SEND
                    ? "core.event.noCompleteAnswer" : "core.event.mayHaveArrived"), out.words());
            if (out.retryAfter() != null) {
                // the site says it is still working on it (409 in progress): wait, then the probe decides
                scheduleRetry(c, step, unknown, attempt, FailureClass.AMBIGUOUS, out.origin(),
                        Said.of("core.event.probeDecidesAfterWait", msg), out.evidence(), out.retryAfter(), null);
                return false;
            }
            c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), unknown, EventType.STEP_FAILED, step.id(),
                    attempt, FailureClass.AMBIGUOUS, msg, out.evidence());
            c.failure = new Claim.Failure(step.id(), out.words(), out.evidence());
            c.probes.remove(step.id());
            // the decision runs again: the probe decides, or a person (no probe)
            return true;
        }
        StepStatus status = unsafe && cls == FailureClass.UNKNOWN ? StepStatus.AMBIGUOUS : StepStatus.FAILED;
        StepRecord failed = new StepRecord(step.id(), status, attempt, firstAttempt, Map.of(), ctx.now());
        switch (cls) {
            case RETRYABLE, TRANSIENT_AFTER_SEND, AMBIGUOUS ->
                    scheduleRetry(c, step, failed, attempt, attempt, cls, out.origin(), out.words(),
                            out.evidence(), out.retryAfter(), null, cls == FailureClass.RETRYABLE);
            case AUTH -> needCredential(c, step, step.credential(), failed, Said.of("core.event.credentialRejected",
                    step.credential() == null ? Said.of("core.event.noneDeclared") : step.credential(), out.words()),
                    out.evidence(), null);
            case FATAL, UNKNOWN -> {
                // taken by the site (a 2xx its rules do not read as success: a post held for a moderator), or refused
                // ("Title has already been used") after an attempt that may have done the work: neither a success
                // (nothing shows the work is there) nor a plain failure to send again
                Integer answered = out.evidence() == null ? null : out.evidence().status();
                boolean taken = !out.refused() && answered != null && answered >= 200 && answered < 300;
                Said words = !unsafe || cls != FailureClass.FATAL ? out.words()
                        : taken ? Said.of("core.event.takenNotSuccess", step.id(), out.words(), String.valueOf(answered))
                        : unknownBefore > 0
                        ? Said.of("core.event.refusedAfterUnknown", step.id(), out.words(), unknownBefore)
                        : out.words();
                c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailureWords(cls, words, out.origin()),
                        failed, EventType.KEY_FAILED, step.id(), attempt, cls,
                        Said.of("core.event.stepFailed", step.id(), words), out.evidence());
            }
        }
        return false;
    }

    /**
     * The site refreshed the step's (or probe's) credential on its answer: an audited event of its own, with the
     * new fingerprint (never the value), committed with the key's next transition.
     *
     * @param fingerprint the credential's new fingerprint, or {@code null} when the site refreshed nothing
     */
    void refreshed(Claim c, StepDefinition step, int attempt, String fingerprint) {
        if (fingerprint == null || step.credential() == null) {
            return;
        }
        String stepId = io.keyline.domain.KeyProbe.is(step.id()) ? null : step.id();
        c.stage(Trigger.PROGRESS, c.rec, null, EventType.CREDENTIAL_REFRESHED, stepId, attempt, null,
                Said.of("core.event.credentialRefreshed", step.credential(), fingerprint), null, null);
    }

    /**
     * The probe found the effect: the step is recorded done without being executed. Its outputs are what the probe's
     * {@code extract} took from the answer that found it (the release's id for the step that uses it next), stored
     * with the record as a step's outputs are; a probe extracts nothing else (its answer is not the step's).
     */
    void reconcile(Claim c, StepDefinition step, ProbeOutcome p) {
        StepRecord sr = c.steps.get(step.id());
        Map<String, String> outputs = Outputs.bounded(p.values());
        StepRecord done = new StepRecord(step.id(), StepStatus.RECONCILED, attempts(sr),
                sr == null ? null : sr.firstAttemptAt(), outputs, ctx.now());
        c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempts(sr)).withConfirmation(null, null), done,
                EventType.STEP_RECONCILED, step.id(), attempts(sr), null,
                Said.of("core.event.reconciled", step.id(), p.words()), p.evidence(),
                ProbeAnswer.PRESENT);
        c.outputs.put(step.id(), outputs);
        c.probes.remove(step.id());
    }

    /**
     * Recording what a step did failed (state error, a value too large, …): the key must not stay
     * RUNNING, and the fact that the step may have acted must not be lost, so the key waits for a
     * person with the evidence.
     */
    void recordingFailed(Claim c, Claim.Unrecorded u, RuntimeException e) {
        StepDefinition step = u.step();
        int attempt = u.attempt();
        StepOutcome out = u.outcome();
        c.discardPending();
        c.unrecorded = null;
        KeyRecord current = ctx.reload(c.rec);
        if (current.state() != KeyState.RUNNING || !ctx.owner.equals(current.leaseOwner())) {
            throw e;
        }
        c.rec = current;
        StepRecord unknown = new StepRecord(step.id(), StepStatus.AMBIGUOUS, attempt, u.firstAttempt(), Map.of(),
                ctx.now());
        Said msg = Said.of("core.event.recordingFailed", step.id(), Said.of(out.succeeded()
                ? "core.event.succeededWith" : "core.event.endedWith", out.words()), firstLine(e.getMessage()));
        c.move(Trigger.NEED_CONFIRMATION, c.rec.withStep(step.id(), attempt).withFailureWords(FailureClass.AMBIGUOUS,
                msg).withConfirmation(null, null).withWaitReason(WaitReason.OUTCOME_UNKNOWN), unknown,
                EventType.WAITING_FOR_CONFIRMATION, step.id(), attempt, FailureClass.AMBIGUOUS, msg, out.evidence());
    }

    private void needConfirmation(Claim c, StepDefinition step, StepRecord sr, KeyDecision.Stop s,
                                  Review.Need review) {
        Said message;
        FailureClass cls = null;
        Evidence ev = null;
        ProbeAnswer probe = null;
        WaitReason why = s.waitReason() == null ? WaitReason.OUTCOME_UNKNOWN : s.waitReason();
        switch (why) {
            case CONFIRM_ALWAYS -> message = Said.of("core.event.confirmAlways", step.id());
            case PAYLOAD_CHANGED -> message = Said.of("core.event.payloadChanged", step.id());
            case REVIEW -> message = Said.of("core.event.review", review.pending() ? review.said()
                    : s.words(), step.id(), c.job.name());
            default -> {
                cls = FailureClass.AMBIGUOUS;
                Said what = c.failure != null && c.failure.step().equals(step.id())
                        ? Said.of("core.event.unknownBecause", step.id(), c.failure.words())
                        : Said.of("core.event.attemptUnknown", attempts(sr), step.id());
                if (step.probe() == null) {
                    message = Said.of(c.failure != null ? "core.event.noProbeAfterFailure" : "core.event.noProbe",
                            what);
                    ev = c.failure != null ? c.failure.evidence() : null;
                } else {
                    message = Said.of("core.event.withProbe", what, c.lastProbe.words());
                    ev = c.lastProbe.evidence();
                    probe = c.probes.get(step.id());
                }
            }
        }
        c.move(Trigger.NEED_CONFIRMATION, c.rec.withStep(step.id(), attempts(sr)).withFailureWords(cls, message)
                        .withConfirmation(null, null).withWaitReason(why), sr, EventType.WAITING_FOR_CONFIRMATION,
                step.id(), attempts(sr), cls, message, ev, probe);
    }

    private void needCredential(Claim c, StepDefinition step, String credential, StepRecord sr, Said message,
                                Evidence ev, ProbeAnswer probe) {
        c.move(Trigger.NEED_CREDENTIAL, c.rec.withStep(step.id(), attempts(sr)).withCredential(credential)
                .withFailureWords(FailureClass.AUTH, message), sr, EventType.WAITING_FOR_CREDENTIAL, step.id(),
                attempts(sr), FailureClass.AUTH, message, ev, probe);
    }

    /**
     * Schedules the next attempt per the retry policy, or fails the key when the policy is spent.
     *
     * @param origin whose doing the failure was (kept on the key: a key that failed only because nothing
     *               answered ends a run with exit 1), or {@code null} when not known
     * @param probe the answer of the step's probe that led here, recorded with the event, or {@code null}
     */
    private void scheduleRetry(Claim c, StepDefinition step, StepRecord sr, int attempt, FailureClass cls,
                               FailureOrigin origin, Said message, Evidence ev, Duration retryAfter,
                               ProbeAnswer probe) {
        scheduleRetry(c, step, sr, attempt, attempt, cls, origin, message, ev, retryAfter, probe, false);
    }

    /**
     * @param tries how many tries the policy counts (its delay and {@code maxAttempts}): the attempts of the step,
     *              or the asks of a probe that could not tell after an attempt whose outcome is unknown
     * @param refused the step itself was answered "try again" (nothing was done): a retry goes back to its
     *                {@code retryFrom}, if it has one
     */
    private void scheduleRetry(Claim c, StepDefinition step, StepRecord sr, int attempt, int tries,
                               FailureClass cls, FailureOrigin origin, Said message, Evidence ev,
                               Duration retryAfter, ProbeAnswer probe, boolean refused) {
        var policy = step.retry();
        Instant now = ctx.now();
        Instant first = sr != null && sr.firstAttemptAt() != null ? sr.firstAttemptAt() : now;
        StepRecord rec = sr != null ? new StepRecord(step.id(), sr.status(), attempt, first, sr.outputs(), now)
                : new StepRecord(step.id(), StepStatus.FAILED, attempt, first, Map.of(), now);
        // an ask of a probe that could not tell counts asks, not the step's attempts
        boolean ask = probe == ProbeAnswer.INCONCLUSIVE;
        if (tries >= policy.maxAttempts()) {
            Said msg = ask ? Said.of("core.event.probeAsksSpent", step.id(), tries, message)
                    : Said.of("core.event.failedAfter", step.id(), attempt, message);
            c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailureWords(cls, msg, origin), rec,
                    EventType.KEY_FAILED, step.id(), attempt, cls, msg, ev, probe);
            return;
        }
        Duration delay = Backoff.delay(policy, tries, ctx.options.random());
        if (retryAfter != null && retryAfter.compareTo(delay) > 0) {
            // a server's Retry-After never stretches a wait beyond the policy's total budget
            delay = retryAfter.compareTo(policy.maxElapsed()) > 0 ? policy.maxElapsed() : retryAfter;
        }
        Instant next = now.plus(delay);
        if (Duration.between(first, next).compareTo(policy.maxElapsed()) > 0) {
            Said msg = Said.of("core.event.failedTooLate", step.id(), policy.maxElapsed(), message);
            c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailureWords(cls, msg, origin), rec,
                    EventType.KEY_FAILED, step.id(), attempt, cls, msg, ev, probe);
            return;
        }
        Said msg = ask ? retryAfter == null
                ? Said.of("core.event.askScheduled", message, tries + 1, policy.maxAttempts(), next)
                : Said.of("core.event.askScheduledAfter", message, tries + 1, policy.maxAttempts(), next,
                        Math.min(retryAfter.toSeconds(), 999_999_999))
                : retryAfter == null
                ? Said.of("core.event.retryScheduled", message, attempt + 1, policy.maxAttempts(), next)
                : Said.of("core.event.retryScheduledAfter", message, attempt + 1, policy.maxAttempts(), next,
                        Math.min(retryAfter.toSeconds(), 999_999_999));
        List<String> back = refused ? goBack(c, step) : List.of();
        if (!back.isEmpty()) {
            msg = Said.of("core.event.retryGoesBack", msg, step.retryFrom(), String.join(", ", back));
        }
        c.move(Trigger.SCHEDULE_RETRY, c.rec.withStep(step.id(), attempt).withFailureWords(cls, msg, origin)
                        .withNextAttemptAt(next),
                rec, EventType.RETRY_SCHEDULED, step.id(), attempt, cls, msg, ev, probe);
    }

    /**
     * A retry of {@code step} that goes back to its {@code retryFrom}: the records of that step and those after it,
     * up to {@code step} (whose own record keeps its attempts), go with the retry's change, so they run again first
     * and fetch their outputs anew. Returns the steps that go.
     */
    private static List<String> goBack(Claim c, StepDefinition step) {
        if (step.retryFrom() == null) {
            return List.of();
        }
        List<String> back = new java.util.ArrayList<>();
        for (StepDefinition s : c.job.steps().subList(c.job.stepIndex(step.retryFrom()), c.job.stepIndex(step.id()))) {
            if (s.effect() != Effect.UNSAFE && c.steps.containsKey(s.id())) {
                back.add(s.id());
            }
        }
        c.forget(back);
        return List.copyOf(back);
    }

    static int attempts(StepRecord sr) {
        return sr == null ? 0 : sr.attempts();
    }

    private static Object firstLine(String s) {
        if (s == null) {
            return Said.of("core.event.noMessage");
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
