package io.keyline.core;

import io.keyline.core.exec.StepContext;
import io.keyline.domain.Effect;
import io.keyline.domain.EventType;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.OperatorMoves;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.domain.Trigger;
import io.keyline.text.Said;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What a person can do to a key or a job. Every action is an audited event with the OS user
 * name and a note, applied with the same optimistic guard as the engine's transitions.
 *
 * @param trace  the run log: every action taken also appends an {@code operator} line to it
 * @param events the keys' histories: the redo of a step's life its {@code Idempotency-Key} names ({@link Redos}), which
 *               a confirmation binds with the rest of the request
 */
public record OperatorActions(KeyRecords keys, KeyChanges changes, JobControls controls, RunOptions options,
                              RunTrace trace, Leases leases, KeyEvents events) {

    /** Actions on a state whose records also hold the keys' histories. */
    public OperatorActions(KeyRecords keys, KeyChanges changes, JobControls controls, RunOptions options,
                           RunTrace trace, Leases leases) {
        this(keys, changes, controls, options, trace, leases, keys instanceof KeyEvents e ? e : null);
    }

    /** Actions without the state's rule whether a running key's holder is alive: a renewal leaves RUNNING keys. */
    public OperatorActions(KeyRecords keys, KeyChanges changes, JobControls controls, RunOptions options,
                           RunTrace trace) {
        this(keys, changes, controls, options, trace, null);
    }

    /**
     * Confirms the waiting unsafe step: the key goes back to PENDING with a confirmation bound to
     * the payload hash, and the next run executes the step (the CLI runs it at once).
     *
     * @param expectedHash payload hash the operator was shown, or {@code null} to bind the current one
     */
    public KeyRecord confirm(JobDefinition job, String key, String note, String expectedHash) {
        KeyRecord rec = existing(job, key);
        if (DecisionInputs.waitsForReview(rec)) {
            throw OperatorException.of("core.refused.waitsForReview", job.name(), key);
        }
        check(rec, Trigger.CONFIRM);
        String hash = payloadHash(job, rec);
        if (expectedHash != null && !expectedHash.equals(hash)) {
            throw OperatorException.of("core.refused.payloadChanged", rec.step());
        }
        List<String> first = runFirst(job, rec);
        Said msg = hash == null ? Said.of("core.event.confirmed", rec.step()) : first.isEmpty()
                ? Said.of("core.event.confirmedPayload", rec.step(), hash.substring(0, 12))
                : Said.of("core.event.confirmedRunFirst", rec.step(), hash.substring(0, 12), String.join(", ", first),
                first.size());
        return act(rec, Trigger.CONFIRM, rec.withConfirmation(rec.step(), hash).withFailureWords(null, msg), null,
                EventType.CONFIRMED, msg, note);
    }

    /**
     * The hash of the payload the waiting step would send, as a confirmation binds it ({@link ConfirmedPayload}):
     * with the values known now, the outputs of the steps that run again before it ({@link #runFirst}) as where they
     * come from; {@code null} when it cannot be rendered.
     */
    public String payloadHash(JobDefinition job, KeyRecord rec) {
        StepDefinition step = rec.step() == null ? null : job.step(rec.step());
        if (step == null) {
            return null;
        }
        return payloadHash(job, rec, step, keys.steps(job.name(), rec.key()));
    }

    /** {@link #payloadHash(JobDefinition, KeyRecord)} of {@code step}, the key's steps as {@code records} hold them. */
    private String payloadHash(JobDefinition job, KeyRecord rec, StepDefinition step,
                               Map<String, StepRecord> records) {
        Map<String, Map<String, String>> outputs = new HashMap<>();
        records.values().stream().filter(s -> s.status().finished()).forEach(s -> outputs.put(s.step(), s.outputs()));
        return ConfirmedPayload.hash(new StepContext(job, step, rec.key(), "{runId}", rec.attempts() + 1, outputs,
                null, UnaryOperator.identity(), redo(job, rec.key(), step)), ConfirmedPayload.runFirst(job, step.id(),
                records));
    }

    /** The redo of the step's life its {@code Idempotency-Key} names, as the engine reads it ({@link Redos}). */
    public int redo(JobDefinition job, String key, StepDefinition step) {
        return events == null ? 0 : Redos.of(events.events(job.name(), key)).getOrDefault(step.id(), 0);
    }

    /**
     * The confirmation {@code r} holds, after a renewal of its login sent read-only steps before the confirmed one
     * back ({@code rewind}): bound again as a confirmation made now binds it, the outputs those steps fetch again
     * as where they come from ({@link ConfirmedPayload}), as the Confirm dialog would show them. A nonce of the old
     * login is the one thing that changes. Only a confirmation that still binds what the step sends with the values
     * it was made with is carried over: after a change of the job file, the key or a value known then, it stays as
     * it was, and the run asks for a new one. {@code null} when there is nothing to carry over.
     */
    private String reboundConfirmation(JobDefinition job, KeyRecord r, Map<String, StepRecord> records,
                                       Rewind rewind) {
        StepDefinition step = r.confirmedHash() == null || r.confirmedStep() == null ? null
                : job.step(r.confirmedStep());
        if (step == null || rewind.removed().isEmpty()
                || !r.confirmedHash().equals(payloadHash(job, r, step, records))) {
            return null;
        }
        Map<String, StepRecord> left = new HashMap<>(records);
        rewind.removed().forEach(left::remove);
        String hash = payloadHash(job, r, step, left);
        return hash == null || hash.equals(r.confirmedHash()) ? null : hash;
    }

    /**
     * The steps a confirmed run of the waiting key executes before its step: the read-only steps a renewal of their
     * login sent back (their outputs belonged to the old login), in job order; empty when it sends the step at once.
     */
    public List<String> runFirst(JobDefinition job, KeyRecord rec) {
        StepDefinition step = rec.step() == null ? null : job.step(rec.step());
        return step == null ? List.of() : ConfirmedPayload.runFirst(job, step.id(), keys.steps(job.name(),
                rec.key()));
    }

    /** "I checked: it already happened." The key becomes DONE; the waiting step is recorded as reconciled. */
    public KeyRecord markDone(JobDefinition job, String key, String note) {
        requireNote(note, "MARK_DONE");
        KeyRecord rec = existingOrFresh(job, key);
        check(rec, Trigger.MARK_DONE);
        StepRecord step = rec.step() == null ? null
                : new StepRecord(rec.step(), StepStatus.RECONCILED, rec.attempts(), null, Map.of(), now());
        return act(rec, Trigger.MARK_DONE, rec.withFailureWords(null, Said.of("core.event.markedDoneBy",
                        options.user())).withConfirmation(null, null).withCredential(null).withNextAttemptAt(null),
                step, EventType.MARKED_DONE,
                rec.step() == null ? Said.of("core.event.markedDone")
                        : Said.of("core.event.markedDoneStep", rec.step()), note);
    }

    /** Re-arms a FAILED (or skipped, or credential-parked) key: back to PENDING with a fresh retry budget. */
    public KeyRecord retry(JobDefinition job, String key, String note) {
        return retry(job, key, note, null);
    }

    /**
     * Re-arms a FAILED (or skipped, or credential-parked) key with a fresh retry budget; with {@code fromStep}, the
     * key goes back to that step: it and the steps after it run again and their outputs are discarded (a token
     * of an old login, say). An unsafe step among them that finished goes through its probe (one without a probe
     * stays done: nothing could tell whether its effect exists), and one whose outcome is unknown keeps waiting
     * for its probe or a person.
     *
     * @param fromStep the first step to run again, or {@code null} to resume where the key stopped
     */
    public KeyRecord retry(JobDefinition job, String key, String note, String fromStep) {
        KeyRecord rec = existing(job, key);
        check(rec, Trigger.RETRY);
        if (fromStep != null) {
            return retryFrom(job, rec, note, stepIndex(job, fromStep));
        }
        // the step's attempts are reset in the same guarded transaction as the key's move
        StepRecord reset = null;
        if (rec.step() != null) {
            StepRecord sr = keys.steps(job.name(), key).get(rec.step());
            if (sr != null) {
                reset = new StepRecord(sr.step(), sr.status(), 0, null, sr.outputs(), now());
            }
        }
        return act(rec, Trigger.RETRY, armedForRetry(rec).withFailureWords(null, Said.of("core.event.retriedBy",
                        options.user())), reset, EventType.RETRIED, rec.step() == null ? Said.of("core.event.retried")
                        : Said.of("core.event.retriedAt", rec.step()), note);
    }

    /**
     * The shape a retry gives a key: its step's attempts start again, no next attempt is pending, no failure
     * (the state comes from the transition table). What a retry would do next is decided on it.
     */
    public static KeyRecord armedForRetry(KeyRecord rec) {
        return rec.withStep(rec.step(), 0).withFailure(null, null).withNextAttemptAt(null)
                .withState(KeyStateMachine.apply(rec.state(), Trigger.RETRY));
    }

    private KeyRecord retryFrom(JobDefinition job, KeyRecord rec, String note, int from) {
        Rewind r = rewind(job, keys.steps(job.name(), rec.key()), from, true, now());
        String fromStep = job.steps().get(from).id();
        Said msg = r.said() == null ? Said.of("core.event.retriedFrom", fromStep)
                : Said.of("core.event.retriedFromRewind", fromStep, r.said());
        Instant now = now();
        KeyState to = KeyStateMachine.apply(rec.state(), Trigger.RETRY);
        KeyRecord after = rec.withState(to).withStep(fromStep, 0).withFailureWords(null, msg)
                .withNextAttemptAt(null).withConfirmation(null, null).withUpdatedAt(now);
        KeyEvent ev = KeyEvent.said(rec.job(), rec.key(), now, null, EventType.RETRIED, fromStep, 0, to, null, msg,
                options.user(), note == null || note.isBlank() ? null : note.strip(), null);
        try {
            KeyRecord written = changes.applyChain(List.of(new KeyChanges.Change(rec, after, r.reset(), ev,
                    r.removed())));
            logOperator(now, "retry", rec.job(), rec.key(), ev.note(), Map.of("fromStep", fromStep,
                    "steps", r.removed()));
            return written;
        } catch (StaleStateException e) {
            throw OperatorException.of("core.refused.changedMeanwhile", rec.job(), rec.key());
        }
    }

    /**
     * What going back to a step does to a key's step records, from that step on: a safe step's record is removed
     * (it runs again; its outputs are gone); an unsafe step whose outcome is unknown keeps waiting for its probe or
     * a person (its attempts start again); a failed unsafe step's record is removed; a finished unsafe step is
     * asked again through its probe when {@code redoUnsafe} (the operator's retry from a step) and it has one,
     * else it stays done: its effect happened and it is never made twice.
     *
     * @param removed  the steps whose records go
     * @param reset    the record of an unsafe step whose outcome is unknown, attempts reset, or {@code null}
     * @param keptDone the unsafe steps that stay done
     */
    record Rewind(List<String> removed, StepRecord reset, List<String> keptDone) {
        /**
         * What changes, as words said in the language of whoever shows them ("page, save run again; publish stays
         * done: …"), or {@code null} when nothing changes.
         */
        Said said() {
            Said parts = null;
            if (!removed.isEmpty()) {
                parts = Said.of("core.event.rewind.removed", String.join(", ", removed));
            }
            if (reset != null) {
                parts = and(parts, Said.of("core.event.rewind.unknown", reset.step()));
            }
            if (!keptDone.isEmpty()) {
                parts = and(parts, Said.of("core.event.rewind.keptDone", String.join(", ", keptDone),
                        keptDone.size()));
            }
            return parts;
        }

        private static Said and(Said before, Said part) {
            return before == null ? part : Said.of("core.event.rewind.and", before, part);
        }
    }

    static Rewind rewind(JobDefinition job, Map<String, StepRecord> records, int from, boolean redoUnsafe,
                         Instant now) {
        List<String> removed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        StepRecord reset = null;
        for (StepDefinition s : job.steps().subList(from, job.steps().size())) {
            StepRecord sr = records.get(s.id());
            if (sr == null) {
                continue;
            }
            if (s.effect() != Effect.UNSAFE || sr.status() == StepStatus.FAILED) {
                removed.add(s.id());
            } else if (sr.status() == StepStatus.STARTED || sr.status() == StepStatus.AMBIGUOUS) {
                reset = new StepRecord(s.id(), sr.status(), 0, null, Map.of(), now);
            } else if (redoUnsafe && s.probe() != null) {
                removed.add(s.id());
            } else {
                kept.add(s.id());
            }
        }
        return new Rewind(List.copyOf(removed), reset, List.copyOf(kept));
    }

    private static int stepIndex(JobDefinition job, String step) {
        int i = job.stepIndex(step);
        if (i < 0) {
            throw OperatorException.of("core.refused.noSuchStep", job.name(), step,
                    String.join(", ", job.steps().stream().map(StepDefinition::id).toList()));
        }
        return i;
    }

    /**
     * Re-arms a DONE key: its steps (all, or from {@code fromStep} on) run again at the next run. An
     * unsafe step still goes through its probe, so an effect that exists is not made twice.
     *
     * @param fromStep the first step to run again, or {@code null} for all
     */
    public KeyRecord rearm(JobDefinition job, String key, String note, String fromStep) {
        requireNote(note, "REARM");
        KeyRecord rec = existing(job, key);
        check(rec, Trigger.REARM);
        int from = fromStep == null ? 0 : stepIndex(job, fromStep);
        List<String> reset = job.steps().subList(from, job.steps().size()).stream().map(StepDefinition::id).toList();
        Instant now = now();
        KeyState to = KeyStateMachine.apply(rec.state(), Trigger.REARM);
        Said msg = Said.of("core.event.rearmed", fromStep == null ? Said.of("core.event.allSteps")
                : Said.of("core.event.fromStep", fromStep), String.join(", ", reset));
        KeyRecord after = rec.withState(to).withStep(reset.get(0), 0).withFailureWords(null, msg)
                .withNextAttemptAt(null).withConfirmation(null, null).withCredential(null).withUpdatedAt(now);
        KeyEvent ev = KeyEvent.said(rec.job(), rec.key(), now, null, EventType.REARMED, reset.get(0), 0, to, null,
                msg, options.user(), note.strip(), null);
        try {
            KeyRecord written = changes.rearm(rec, after, reset, ev);
            logOperator(now, "rearm", rec.job(), rec.key(), note.strip(), Map.of("steps", reset));
            return written;
        } catch (StaleStateException e) {
            throw OperatorException.of("core.refused.changedMeanwhile", rec.job(), rec.key());
        }
    }

    public KeyRecord skip(JobDefinition job, String key, String note) {
        requireNote(note, "SKIP");
        KeyRecord rec = existingOrFresh(job, key);
        check(rec, Trigger.SKIP);
        return act(rec, Trigger.SKIP, rec.withFailureWords(null, Said.of("core.event.skippedBy", options.user()))
                .withNextAttemptAt(null).withConfirmation(null, null), null, EventType.SKIPPED,
                Said.of("core.event.skipped"), note);
    }

    /**
     * A credential was renewed: every key parked on it goes back to PENDING (one audited event each), from the
     * first step of its job that uses the credential: the outputs of that step and the later ones came from the
     * old login (a CSRF token of its session, say) and are discarded (see {@link #rewind}; a finished unsafe step
     * stays done).
     *
     * @param jobs the jobs, to find the steps that use the credential (a key whose job is not among them resumes
     *             where it stopped)
     * @return the keys that resumed
     */
    public List<KeyRecord> credentialUpdated(String credential, String fingerprint, List<JobDefinition> jobs) {
        Said msg = Said.of("core.event.credentialUpdated", credential, fingerprint);
        List<KeyRecord> resumed = resumeParked(credential, msg, "credential-renewed", fingerprint, jobs);
        rewindWaiting(credential, msg, jobs);
        return resumed;
    }

    /**
     * A renewal also reaches the keys that wait with outputs of steps sent with the old login: to run again
     * ({@code RETRY_WAIT}, {@code PENDING}), for a confirmation ({@code NEEDS_CONFIRMATION}), or left running by a
     * process that is gone. A nonce or CSRF token of a session that the new login replaced would be refused (by the
     * step, or by the probe asked before it), and the refusal would mark the new login rejected. Their read-only
     * steps from the first step that uses the credential on run again first, as a parked key's do; an unsafe step
     * that finished stays done and one whose outcome is unknown keeps its record (its probe, asked with the fresh
     * values, or a person decides). They keep their state (a retry its time); a key waiting for a confirmation keeps
     * its step, its reason and the time it has waited since, and its confirmation then sends the fresh values
     * ({@link ConfirmedPayload}). A key changed meanwhile, or held by a live process, is left alone.
     */
    private void rewindWaiting(String credential, Said msg, List<JobDefinition> jobs) {
        Instant now = now();
        List<KeyChanges.Change> moves = new ArrayList<>();
        for (JobDefinition job : jobs) {
            int first = firstUsing(job, credential);
            if (first < 0) {
                continue;
            }
            Set<KeyState> states = leases == null ? Set.of(KeyState.RETRY_WAIT, KeyState.PENDING,
                    KeyState.NEEDS_CONFIRMATION) : Set.of(KeyState.RETRY_WAIT, KeyState.PENDING,
                    KeyState.NEEDS_CONFIRMATION, KeyState.RUNNING);
            List<KeyRecord> waiting = keys.query(KeyRecords.KeyQuery.in(job.name(), states)).stream()
                    .filter(r -> r.state() != KeyState.RUNNING || Orphans.orphaned(leases, r, now)).toList();
            if (waiting.isEmpty()) {
                continue;
            }
            Map<String, Map<String, StepRecord>> records = keys.steps(job.name(),
                    waiting.stream().map(KeyRecord::key).toList());
            for (KeyRecord r : waiting) {
                Map<String, StepRecord> steps = records.getOrDefault(r.key(), Map.of());
                Rewind rewind = rewind(job, steps, first, false, now);
                if (rewind.removed().isEmpty()) {
                    continue;
                }
                String from = job.steps().get(first).id();
                KeyRecord after;
                Said text;
                if (r.state() == KeyState.NEEDS_CONFIRMATION) {
                    // what it waits for and since when stay (an expiry counts from then)
                    text = Said.of("core.event.confirmsFrom", msg, from, rewind.said());
                    after = r;
                } else {
                    text = Said.of("core.event.resumesFrom", msg, from, rewind.said());
                    after = r.withStep(from, 0).withFailureWords(null, text).withUpdatedAt(now);
                    String rebound = reboundConfirmation(job, r, steps, rewind);
                    if (rebound != null) {
                        text = Said.of("core.event.confirmationHolds", text, r.confirmedStep());
                        after = after.withConfirmation(r.confirmedStep(), rebound).withFailureWords(null, text);
                    }
                }
                moves.add(new KeyChanges.Change(r, after, null, KeyEvent.said(r.job(), r.key(), now, null,
                        EventType.CREDENTIAL_UPDATED, r.step(), r.attempts(), r.state(), null, text, options.user(),
                        null, null), rewind.removed()));
            }
        }
        changes.applyAll(moves);
    }

    /**
     * {@code credentials test} found the credential accepted again: the keys parked on it go back to
     * PENDING (one audited event each), as after a renewal.
     *
     * @return the keys that resumed
     */
    public List<KeyRecord> credentialAccepted(String credential, String fingerprint, List<JobDefinition> jobs) {
        return resumeParked(credential, Said.of("core.event.credentialAccepted", credential, fingerprint),
                "credential-tested", fingerprint, jobs);
    }

    private List<KeyRecord> resumeParked(String credential, Said msg, String action, String fingerprint,
                                         List<JobDefinition> jobs) {
        List<KeyRecord> parked = keys.query(KeyRecords.KeyQuery.in(null, Set.of(KeyState.NEEDS_CREDENTIAL))).stream()
                .filter(r -> credential.equals(r.credential())).toList();
        Map<String, JobDefinition> byName = new HashMap<>();
        jobs.forEach(j -> byName.put(j.name(), j));
        Map<String, Map<String, Map<String, StepRecord>>> records = new HashMap<>();
        List<KeyChanges.Change> moves = new ArrayList<>();
        Instant now = now();
        for (KeyRecord r : parked) {
            JobDefinition job = byName.get(r.job());
            int first = job == null ? -1 : firstUsing(job, credential);
            Map<String, StepRecord> steps = first < 0 ? Map.of() : records.computeIfAbsent(r.job(),
                    j -> keys.steps(j, parked.stream().filter(p -> p.job().equals(j)).map(KeyRecord::key).toList()))
                    .getOrDefault(r.key(), Map.of());
            Rewind rewind = first < 0 ? new Rewind(List.of(), null, List.of()) : rewind(job, steps, first, false, now);
            Said text = rewind.removed().isEmpty() ? msg : Said.of("core.event.resumesFrom", msg,
                    job.steps().get(first).id(), rewind.said());
            String rebound = first < 0 ? null : reboundConfirmation(job, r, steps, rewind);
            if (rebound != null) {
                text = Said.of("core.event.confirmationHolds", text, r.confirmedStep());
            }
            KeyRecord after = r.withState(KeyStateMachine.apply(r.state(), Trigger.CREDENTIAL_UPDATED))
                    .withFailureWords(null, text).withCredential(null).withUpdatedAt(now);
            if (!rewind.removed().isEmpty()) {
                after = after.withStep(job.steps().get(first).id(), 0);
            }
            if (rebound != null) {
                after = after.withConfirmation(r.confirmedStep(), rebound);
            }
            moves.add(new KeyChanges.Change(r, after, null, KeyEvent.said(r.job(), r.key(), now, null,
                    EventType.CREDENTIAL_UPDATED, r.step(), r.attempts(), after.state(), null, text, options.user(),
                    null, null), rewind.removed()));
        }
        List<KeyRecord> resumed = changes.applyAll(moves);
        logOperator(now, action, null, null, null, Map.of("credential", credential, "fingerprint",
                String.valueOf(fingerprint), "resumed", resumed.stream().map(r -> r.job() + " " + r.key()).toList()));
        return resumed;
    }

    /**
     * The jobs of {@code resumed} (keys just put back to PENDING) whose next unattended run ({@code run --due}, the
     * scheduler, a worker) holds a key for the review of the job's unsafe steps instead of running it: the job's
     * unsafe steps were never reviewed or changed since ({@link Review#need}), and the key has an unsafe step left
     * ({@link KeyDecision#heldForReview}). In the order the keys come; each job once.
     *
     * @param jobs the jobs (a key whose job is not among them is left out)
     */
    public List<String> awaitingReview(List<KeyRecord> resumed, List<JobDefinition> jobs) {
        Map<String, List<String>> byJob = new java.util.LinkedHashMap<>();
        resumed.forEach(r -> byJob.computeIfAbsent(r.job(), j -> new ArrayList<>()).add(r.key()));
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : byJob.entrySet()) {
            JobDefinition job = jobs.stream().filter(j -> j.name().equals(e.getKey())).findFirst().orElse(null);
            if (job == null) {
                continue;
            }
            Review.Need need = Review.need(job, controls.jobControl(job.name()));
            if (!need.pending()) {
                continue;
            }
            Map<String, Map<String, StepRecord>> steps = keys.steps(job.name(), e.getValue());
            if (e.getValue().stream().anyMatch(k -> KeyDecision.heldForReview(job, steps.get(k), need) != null)) {
                out.add(job.name());
            }
        }
        return out;
    }

    /**
     * What a review of a job did.
     *
     * @param hash     the hash of the unsafe steps approved ({@link Review#hash})
     * @param before   whether the job waited for a review, and why, before
     * @param released the keys that waited for the review and go on (PENDING: the next run takes them)
     */
    public record Approval(String hash, Review.Need before, List<KeyRecord> released) {
    }

    /**
     * Reviews a job: its unsafe steps as they are now are approved for unattended runs ({@code run --due}, the
     * scheduler, workers), and every key that waited for the review goes back to PENDING (one audited event each).
     * Approving again what is approved changes nothing. An edit of an unsafe step later asks for a review again.
     *
     * @param note why, or {@code null}
     * @throws OperatorException when the job has no unsafe steps (it needs no review)
     */
    public Approval approve(JobDefinition job, String note) {
        return approve(job, note, null);
    }

    /** {@link #approve}, by applying plan {@code planId}: the events name the plan (in the reader's language). */
    public Approval approvePlan(JobDefinition job, String planId) {
        return approve(job, null, planId);
    }

    private Approval approve(JobDefinition job, String note, String planId) {
        String hash = Review.hash(job);
        if (hash == null) {
            throw OperatorException.of("core.refused.noReviewNeeded", job.name());
        }
        Instant now = now();
        JobControl control = controls.jobControl(job.name());
        Review.Need before = Review.need(job, control);
        if (!hash.equals(control.reviewed())) {
            controls.saveJobControl(control.withReview(hash, options.user(), now));
        }
        Said msg = planId == null ? Said.of("core.event.approved", options.user(), hash.substring(0, 12))
                : Said.of("core.event.approvedByPlan", options.user(), hash.substring(0, 12), planId);
        String n = note == null || note.isBlank() ? null : note.strip();
        List<KeyChanges.Change> moves = new ArrayList<>();
        for (KeyRecord r : keys.query(KeyRecords.KeyQuery.in(job.name(), Set.of(KeyState.NEEDS_CONFIRMATION)))) {
            if (!DecisionInputs.waitsForReview(r)) {
                continue;
            }
            KeyRecord after = r.withState(KeyStateMachine.apply(r.state(), Trigger.APPROVE))
                    .withFailureWords(null, msg).withConfirmation(null, null).withUpdatedAt(now);
            moves.add(new KeyChanges.Change(r, after, null, KeyEvent.said(r.job(), r.key(), now, null,
                    EventType.APPROVED, r.step(), r.attempts(), after.state(), null, msg, options.user(), n, null)));
        }
        List<KeyRecord> released = moves.isEmpty() ? List.of() : changes.applyAll(moves);
        if (before.pending() || !released.isEmpty()) {
            Map<String, Object> fields = new java.util.LinkedHashMap<>();
            fields.put("hash", hash);
            if (planId != null) {
                fields.put("plan", planId);
            }
            fields.put("released", released.stream().map(KeyRecord::key).toList());
            logOperator(now, "approve", job.name(), null, n, fields);
        }
        return new Approval(hash, before, released);
    }

    /** Turns the kill switch on: nothing of the job starts; a running key stops at the next step boundary. */
    public JobControl pause(String job, String reason, Instant until) {
        requireNote(reason, "PAUSE");
        if (until != null && !until.isAfter(now())) {
            throw OperatorException.of("core.refused.untilPast", until.toString());
        }
        JobControl jc = controls.jobControl(job).withSwitch(new JobControl(job, true, reason.strip(), until,
                options.user(), now()));
        controls.saveJobControl(jc);
        logOperator(now(), "pause", job, null, jc.reason(), until == null ? Map.of() : Map.of("until", until.toString()));
        return jc;
    }

    public JobControl resume(String job) {
        JobControl jc = controls.jobControl(job).withSwitch(JobControl.running(job));
        controls.saveJobControl(jc);
        logOperator(now(), "resume", job, null, null, Map.of());
        return jc;
    }

    /** The index of the first step of {@code job} that sends {@code credential}, or -1. */
    private static int firstUsing(JobDefinition job, String credential) {
        for (int i = 0; i < job.steps().size(); i++) {
            if (credential.equals(job.steps().get(i).credential())) {
                return i;
            }
        }
        return -1;
    }

    private KeyRecord existing(JobDefinition job, String key) {
        return keys.key(job.name(), key).orElseThrow(() -> OperatorException.of(
                "core.refused.neverRan", key, job.name()));
    }

    private KeyRecord existingOrFresh(JobDefinition job, String key) {
        return changes.ensure(KeyRecord.fresh(job.name(), key, now()));
    }

    private static void check(KeyRecord rec, Trigger trigger) {
        if (!OperatorMoves.of(rec).allows(trigger)) {
            io.keyline.text.Said from = null;
            for (KeyState s : KeyStateMachine.sourcesOf(trigger)) {
                io.keyline.text.Said state = io.keyline.text.Said.of("cli.state." + s.name());
                from = from == null ? state : io.keyline.text.Said.of("core.refused.or", from, state);
            }
            throw OperatorException.of("core.refused.notNow." + trigger.name(), rec.job(), rec.key(),
                    io.keyline.text.Said.of("cli.state." + rec.state().name()), from);
        }
    }

    private static void requireNote(String note, String action) {
        if (note == null || note.isBlank()) {
            throw OperatorException.of("core.refused.noteNeeded." + action);
        }
    }

    private KeyRecord act(KeyRecord rec, Trigger trigger, KeyRecord shape, StepRecord step, EventType type,
                          Said message, String note) {
        Instant now = now();
        KeyState to = KeyStateMachine.apply(rec.state(), trigger);
        KeyRecord after = shape.withState(to).withUpdatedAt(now);
        KeyEvent ev = KeyEvent.said(rec.job(), rec.key(), now, null, type, rec.step(), rec.attempts(), to, null,
                message, options.user(), note == null || note.isBlank() ? null : note.strip(), null);
        try {
            KeyRecord written = changes.apply(rec, after, step, ev);
            logOperator(now, actionName(type), rec.job(), rec.key(), ev.note(), Map.of());
            return written;
        } catch (StaleStateException e) {
            throw OperatorException.of("core.refused.changedMeanwhile", rec.job(), rec.key());
        }
    }

    private Instant now() {
        return options.clock().instant();
    }

    /** The run log's name of an action: confirm, mark-done, retry, skip, rearm, … */
    static String actionName(EventType type) {
        return switch (type) {
            case CONFIRMED -> "confirm";
            case MARKED_DONE -> "mark-done";
            case RETRIED -> "retry";
            case SKIPPED -> "skip";
            case CREDENTIAL_UPDATED -> "credential-renewed";
            case REARMED -> "rearm";
            default -> type.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        };
    }

    /**
     * Appends the action's {@code operator} line. The action is committed (its event in the state is
     * the audit record) before this runs, so a run log that cannot be written does not undo or fail it.
     */
    private void logOperator(Instant ts, String action, String job, String key, String note, Map<String, Object> extra) {
        try {
            trace.operator(ts, action, job, key, options.user(), note, extra);
        } catch (RuntimeException e) {
            // the audit event is in the state; the run log is a copy for tools
        }
    }
}
