package io.keyline.core;

import io.keyline.domain.ConfirmPolicy;
import io.keyline.domain.Effect;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyProbe;
import io.keyline.domain.KeyState;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The one rule that decides what a key does next: which step runs (or is probed, or reconciled)
 * and where the key stops. It is a pure function of its {@link Input}: no store, no clock, no
 * network. The engine executes its answer one action at a time; the planner, the scheduler, the
 * confirm preview and the console only read it, so they cannot disagree with what a run does.
 */
public final class KeyDecision {

    private KeyDecision() {
    }

    /** Whether a credential can be sent. */
    public enum CredentialStatus {
        /** Stored and not known to be rejected. */
        USABLE,
        /** Not stored, or cannot be decrypted. */
        MISSING,
        /** The site rejected it and nobody renewed it since: it is not sent again (the breaker). */
        REJECTED
    }

    /**
     * A credential as the rule sees it.
     *
     * @param name    credential name
     * @param status  usable, missing or rejected
     * @param problem why it cannot be used (missing/rejected), as words, or {@code null}
     */
    public record CredentialState(String name, CredentialStatus status, Said problem) {
        public static CredentialState usable(String name) {
            return new CredentialState(name, CredentialStatus.USABLE, null);
        }
    }

    /**
     * Everything the rule looks at.
     *
     * @param job           the job
     * @param key           the key
     * @param record        the stored record, or {@code null} for a key never seen
     * @param steps         the key's step records by step id
     * @param credentials   the state of the credentials the job's steps name (absent = missing)
     * @param probes        probe answers known now, by step id, the job's own probe by {@link KeyProbe#STEP}
     *                      (absent = not asked yet)
     * @param payloadHash   the hash of what a step would send now, by step id ({@code null} = cannot tell yet)
     * @param now           the time
     * @param paused        whether the job is paused (kill switch), with {@code pausedReason}
     * @param pausedReason  why, or {@code null}
     * @param leaseLive     whether a RUNNING record's lease is held by a live process
     * @param heldByMe      whether the caller holds the key (the engine after its claim)
     * @param notYetDue     whether the key is later than the job's current key and not allowed ahead
     * @param review        whether the job's unsafe steps wait for a review before this run may run them (an
     *                      unattended run of a new or edited job), and why; {@link Review.Need#NONE} otherwise
     * @param probeAsks     by step id: how often the probe of that unsafe step could not tell since the step's
     *                      last attempt, or since the key began when it was never sent ({@link
     *                      DecisionInputs#probeAsks}); read only for a step whose probe cannot tell now
     *                      ({@code null} = never asked)
     */
    public record Input(JobDefinition job, String key, KeyRecord record, Map<String, StepRecord> steps,
                        Map<String, CredentialState> credentials, Map<String, ProbeAnswer> probes,
                        Function<String, String> payloadHash, Instant now, boolean paused, String pausedReason,
                        boolean leaseLive, boolean heldByMe, boolean notYetDue, Review.Need review,
                        ToIntFunction<String> probeAsks) {
        public Input {
            steps = steps == null ? Map.of() : steps;
            credentials = credentials == null ? Map.of() : credentials;
            probes = probes == null ? Map.of() : probes;
            payloadHash = payloadHash == null ? s -> null : payloadHash;
            review = review == null ? Review.Need.NONE : review;
            probeAsks = probeAsks == null ? s -> 0 : probeAsks;
        }

        /** An input in which no probe could not tell after an attempt whose outcome is unknown. */
        public Input(JobDefinition job, String key, KeyRecord record, Map<String, StepRecord> steps,
                     Map<String, CredentialState> credentials, Map<String, ProbeAnswer> probes,
                     Function<String, String> payloadHash, Instant now, boolean paused, String pausedReason,
                     boolean leaseLive, boolean heldByMe, boolean notYetDue, Review.Need review) {
            this(job, key, record, steps, credentials, probes, payloadHash, now, paused, pausedReason, leaseLive,
                    heldByMe, notYetDue, review, null);
        }

        public KeyState state() {
            return record == null ? KeyState.PENDING : record.state();
        }

        Input withSteps(Map<String, StepRecord> s) {
            return new Input(job, key, record, s, credentials, probes, payloadHash, now, paused, pausedReason,
                    leaseLive, heldByMe, notYetDue, review, probeAsks);
        }

        Input withProbes(Map<String, ProbeAnswer> p) {
            return new Input(job, key, record, steps, credentials, p, payloadHash, now, paused, pausedReason,
                    leaseLive, heldByMe, notYetDue, review, probeAsks);
        }

        Input held() {
            return new Input(job, key, record, steps, credentials, probes, payloadHash, now, paused, pausedReason,
                    leaseLive, true, notYetDue, review, probeAsks);
        }
    }

    /** What the engine does next for a key it holds. */
    public enum ActionKind {
        /** Ask the unsafe step's probe, or the job's own ({@link KeyProbe#STEP}) (read-only). */
        PROBE,
        /** The probe found the effect: record the step done without executing it. */
        RECONCILE,
        /** Execute the step. */
        EXECUTE
    }

    /**
     * One action on one step.
     *
     * @param kind  probe, reconcile or execute
     * @param step  the step
     * @param probe the probe's answer this action relies on ({@code null} for steps without a probe)
     */
    public record Action(ActionKind kind, String step, ProbeAnswer probe) {
    }

    /** Where a key stops. */
    public enum StopKind {
        /** Every step is finished: the key becomes DONE. */
        COMPLETE(false),
        /** The job's own probe found the key's work there: the key becomes DONE (reconciled) and no step runs. */
        ALREADY_PRESENT(false),
        /** The key is DONE already. */
        ALREADY_DONE(true),
        /** An operator skipped it. */
        SKIPPED(true),
        /** It failed; an operator re-arms it with retry. */
        FAILED(true),
        /** An unsafe step waits for a person (the key is, or becomes, NEEDS_CONFIRMATION). */
        NEEDS_CONFIRMATION(false),
        /** A credential is missing or rejected (the key is, or becomes, NEEDS_CREDENTIAL). */
        NEEDS_CREDENTIAL(false),
        /** The probe could not answer: retried like a safe step; the unsafe step does not run. */
        PROBE_INCONCLUSIVE(false),
        /**
         * The probe could not answer on the last try the retry policy gives the step (its step was not sent, or failed
         * where nothing was sent): the key fails, as a safe step whose retries are spent; the unsafe step does not run.
         */
        RETRIES_SPENT(false),
        /**
         * The site refused the probe's question as it is asked, and would again: nothing it guards was sent whose
         * outcome is unknown, so the key fails with the answer named (the job's own probe: before any step).
         */
        PROBE_REFUSED(false),
        /** A retry is due later. */
        WAIT_RETRY(true),
        /** Another live process runs it. */
        RUNNING_ELSEWHERE(true),
        /** The key is later than the current one. */
        NOT_YET_DUE(true),
        /** The job is paused: nothing of it starts. */
        PAUSED(true),
        /** The job was paused while the key ran: it stops at this step boundary (back to PENDING). */
        YIELD(false),
        /**
         * An unattended run met a job whose unsafe steps were never reviewed, or changed since: no step runs, the key
         * is recorded waiting for the review (NEEDS_CONFIRMATION, wait reason REVIEW).
         */
        NEEDS_REVIEW(false);

        private final boolean untouched;

        StopKind(boolean untouched) {
            this.untouched = untouched;
        }

        /** Stops that leave the key as it is: a run does not claim it. */
        public boolean leavesKeyAlone() {
            return untouched;
        }

        /** The key failed, waits for a confirmation or a login, or its job is paused: only a person moves it on. */
        public boolean waitsForPerson() {
            return this == FAILED || this == NEEDS_CONFIRMATION || this == NEEDS_CREDENTIAL || this == PAUSED
                    || this == NEEDS_REVIEW;
        }
    }

    /**
     * Where and why a key stops.
     *
     * @param kind       the kind
     * @param step       the step it stops at, or {@code null}
     * @param credential the credential it waits for, or {@code null}
     * @param until      for a retry or a lease: until when, or {@code null}
     * @param waitReason for NEEDS_CONFIRMATION: why ({@code null} for a wait stored without a reason)
     * @param detail     a short reason (a credential's problem, the pause reason) in English, or {@code null}
     * @param words      the same reason as words, said where a person reads it, or {@code null}
     */
    public record Stop(StopKind kind, String step, String credential, Instant until, WaitReason waitReason,
                       String detail, Said words) {
        /** A stop whose reason, if any, is a text shown as it is (a name, a reason kept as text). */
        public Stop(StopKind kind, String step, String credential, Instant until, WaitReason waitReason,
                    String detail) {
            this(kind, step, credential, until, waitReason, detail, detail == null ? null : Said.plain(detail));
        }

        /** A stop whose reason is words. */
        static Stop why(StopKind kind, String step, String credential, Said words) {
            return new Stop(kind, step, credential, null, null, words == null ? null : words.english(), words);
        }

        static Stop of(StopKind kind) {
            return new Stop(kind, null, null, null, null, null);
        }
    }

    /**
     * The decision: either an action ({@code next}) or a stop.
     *
     * @param next  the action, or {@code null}
     * @param stop  the stop, or {@code null}
     * @param alone whether the stop leaves the key as it is (a run does not claim it): the key is finished,
     *              waits for a person or a retry, runs elsewhere, is not yet due, or its job is paused
     */
    public record Decision(Action next, Stop stop, boolean alone) {
        public boolean acts() {
            return next != null;
        }

        /** A stop that leaves the key untouched (a run does not claim it). */
        public boolean leavesKeyAlone() {
            return alone;
        }
    }

    private static Decision act(ActionKind kind, String step, ProbeAnswer probe) {
        return new Decision(new Action(kind, step, probe), null, false);
    }

    /** A stored key's message as words (its text as it is when the state kept no words for it). */
    private static Said words(KeyRecord rec) {
        return rec.said() != null ? rec.said() : rec.message() == null ? null : Said.plain(rec.message());
    }

    private static Decision stop(Stop s) {
        return new Decision(null, s, s.kind().leavesKeyAlone());
    }

    /** A stop decided by the key's state alone: the run leaves the key as it is. */
    private static Decision keep(Stop s) {
        return new Decision(null, s, true);
    }

    /** What the key does next. */
    public static Decision decide(Input in) {
        KeyRecord rec = in.record();
        if (!in.heldByMe()) {
            switch (in.state()) {
                case DONE -> {
                    return keep(Stop.of(StopKind.ALREADY_DONE));
                }
                case SKIPPED -> {
                    return keep(Stop.of(StopKind.SKIPPED));
                }
                case FAILED -> {
                    return keep(new Stop(StopKind.FAILED, rec.step(), null, null, null, rec.message(),
                            words(rec)));
                }
                case NEEDS_CONFIRMATION -> {
                    return keep(new Stop(StopKind.NEEDS_CONFIRMATION, rec.step(), null, null, rec.waitReason(),
                            rec.message()));
                }
                case NEEDS_CREDENTIAL -> {
                    return keep(new Stop(StopKind.NEEDS_CREDENTIAL, rec.step(), rec.credential(), null, null,
                            rec.message(), words(rec)));
                }
                case RUNNING -> {
                    if (in.leaseLive()) {
                        return keep(new Stop(StopKind.RUNNING_ELSEWHERE, rec.step(), null, rec.leaseUntil(), null,
                                rec.leaseOwner()));
                    }
                }
                case RETRY_WAIT -> {
                    if (rec.nextAttemptAt() != null && rec.nextAttemptAt().isAfter(in.now())) {
                        return keep(new Stop(StopKind.WAIT_RETRY, rec.step(), null, rec.nextAttemptAt(), null,
                                rec.message()));
                    }
                }
                case PENDING -> {
                    // runnable
                }
            }
            if (in.notYetDue()) {
                return keep(Stop.of(StopKind.NOT_YET_DUE));
            }
        }
        if (in.paused() && in.heldByMe() && firstUnfinished(in) == null) {
            // the step that ended as the run was told to stop was the last one: the work is done, nothing yields
            return stop(Stop.of(StopKind.COMPLETE));
        }
        if (in.paused()) {
            Stop s = new Stop(in.heldByMe() ? StopKind.YIELD : StopKind.PAUSED, firstUnfinished(in), null, null, null,
                    in.pausedReason());
            return in.heldByMe() ? stop(s) : keep(s);
        }
        String unsafe = heldForReview(in.job(), in.steps(), in.review());
        if (unsafe != null) {
            // an unattended run of a new or edited job: no step runs until a person reviewed its unsafe steps
            return stop(new Stop(StopKind.NEEDS_REVIEW, unsafe, null, null, WaitReason.REVIEW, in.review().words()));
        }
        if (in.job().probe() != null && beforeFirstStep(in)) {
            Decision d = decideKeyProbe(in, in.job().probe());
            if (d != null) {
                return d;
            }
        }
        for (StepDefinition s : in.job().steps()) {
            StepRecord sr = in.steps().get(s.id());
            if (sr != null && sr.status().finished()) {
                continue;
            }
            return decideStep(in, s, sr);
        }
        return stop(Stop.of(StopKind.COMPLETE));
    }

    /**
     * Whether the key has not begun its work: no step finished, and none started whose outcome is unknown. The
     * job's own probe is asked then (again after a renewal or a retry that discarded the key's progress).
     */
    static boolean beforeFirstStep(Input in) {
        for (StepRecord sr : in.steps().values()) {
            if (sr.status() != StepStatus.FAILED) {
                return false;
            }
        }
        return true;
    }

    /**
     * The job's own probe: asked first; present → the key is done, no step runs; a rejected credential parks the
     * key; absent or no answer → {@code null}: the steps decide as usual.
     */
    private static Decision decideKeyProbe(Input in, KeyProbe probe) {
        String first = in.job().steps().get(0).id();
        if (probe.credential() != null) {
            CredentialState cs = in.credentials().get(probe.credential());
            if (cs == null || cs.status() != CredentialStatus.USABLE) {
                Said problem = cs == null ? Said.of("core.credential.unset", probe.credential()) : cs.problem();
                return stop(Stop.why(StopKind.NEEDS_CREDENTIAL, first, probe.credential(), problem));
            }
        }
        ProbeAnswer answer = in.probes().get(KeyProbe.STEP);
        if (answer == null) {
            return act(ActionKind.PROBE, KeyProbe.STEP, null);
        }
        return switch (answer) {
            case PRESENT -> stop(new Stop(StopKind.ALREADY_PRESENT, null, null, null, null, null));
            case AUTH -> stop(Stop.why(StopKind.NEEDS_CREDENTIAL, first, probe.credential(),
                    Said.of("core.credential.jobProbeRejected")));
            case REFUSED -> stop(new Stop(StopKind.PROBE_REFUSED, KeyProbe.STEP, null, null, null, null));
            case ABSENT, INCONCLUSIVE, NOT_ASKED -> null;
        };
    }

    private static Decision decideStep(Input in, StepDefinition s, StepRecord sr) {
        if (s.credential() != null) {
            CredentialState cs = in.credentials().get(s.credential());
            if (cs == null || cs.status() != CredentialStatus.USABLE) {
                Said problem = cs == null ? Said.of("core.credential.unset", s.credential()) : cs.problem();
                return stop(Stop.why(StopKind.NEEDS_CREDENTIAL, s.id(), s.credential(), problem));
            }
        }
        if (s.effect() != Effect.UNSAFE) {
            // none/idempotent: safe to (re)do, also after an interrupted attempt
            return act(ActionKind.EXECUTE, s.id(), null);
        }
        KeyRecord rec = in.record();
        boolean interrupted = sr != null && (sr.status() == StepStatus.STARTED || sr.status() == StepStatus.AMBIGUOUS);
        boolean confirmed = rec != null && s.id().equals(rec.confirmedStep());
        if (!interrupted && s.confirm() == ConfirmPolicy.ALWAYS && !confirmed) {
            return stop(new Stop(StopKind.NEEDS_CONFIRMATION, s.id(), null, null, WaitReason.CONFIRM_ALWAYS, null));
        }
        ProbeAnswer answer = null;
        if (s.probe() != null) {
            answer = in.probes().get(s.id());
            if (answer == null) {
                return act(ActionKind.PROBE, s.id(), null);
            }
            switch (answer) {
                case PRESENT -> {
                    return act(ActionKind.RECONCILE, s.id(), answer);
                }
                case AUTH -> {
                    return stop(Stop.why(StopKind.NEEDS_CREDENTIAL, s.id(), s.credential(),
                            Said.of("core.credential.probeRejected")));
                }
                case INCONCLUSIVE -> {
                    // it is asked as often as the retry policy tries a step (this ask too), never as an attempt of
                    // the step: nothing was sent. Then, after an attempt whose outcome is unknown, a person decides
                    // whether its work is there; before a send, the key fails with nothing sent
                    boolean spent = in.probeAsks().applyAsInt(s.id()) + 1 >= s.retry().maxAttempts();
                    if (interrupted && spent) {
                        return stop(new Stop(StopKind.NEEDS_CONFIRMATION, s.id(), null, null,
                                WaitReason.OUTCOME_UNKNOWN, "probe: " + answer.word()));
                    }
                    return stop(new Stop(!interrupted && spent ? StopKind.RETRIES_SPENT
                            : StopKind.PROBE_INCONCLUSIVE, s.id(), null, null, null, null));
                }
                case REFUSED -> {
                    // asking again gets the same: a send whose outcome is unknown waits for a person, as without
                    // a probe; otherwise nothing it guards was sent, and the key fails with the answer named
                    return stop(interrupted ? new Stop(StopKind.NEEDS_CONFIRMATION, s.id(), null, null,
                            WaitReason.OUTCOME_UNKNOWN, "probe: " + answer.word())
                            : new Stop(StopKind.PROBE_REFUSED, s.id(), null, null, null, null));
                }
                case ABSENT, NOT_ASKED -> {
                    // decided below
                }
            }
        }
        if (interrupted && !confirmed) {
            return stop(new Stop(StopKind.NEEDS_CONFIRMATION, s.id(), null, null, WaitReason.OUTCOME_UNKNOWN,
                    s.probe() == null ? "no probe" : "probe: " + answer.word()));
        }
        if (confirmed && rec.confirmedHash() != null) {
            String now = in.payloadHash().apply(s.id());
            if (now != null && !now.equals(rec.confirmedHash())) {
                return stop(new Stop(StopKind.NEEDS_CONFIRMATION, s.id(), null, null, WaitReason.PAYLOAD_CHANGED,
                        null));
            }
        }
        return act(ActionKind.EXECUTE, s.id(), answer);
    }

    /** The failures of an unsafe step whose work may be there all the same, by the words the key keeps. */
    private static final java.util.Set<String> MAY_BE_DONE = java.util.Set.of("core.event.refusedAfterUnknown",
            "core.event.takenNotSuccess");

    /**
     * Whether a FAILED key's failure says its work may be there all the same (the site took the request, or refused
     * it after an attempt whose outcome is unknown): the site is looked at before a retry sends it again.
     */
    public static boolean mayBeDone(KeyRecord rec) {
        return rec != null && rec.state() == KeyState.FAILED && rec.said() != null
                && MAY_BE_DONE.contains(String.valueOf(rec.said().key()));
    }

    /**
     * The unsafe step at which a run with {@code review} pending holds a key for the review of its job: the first
     * unsafe step the key has not finished; {@code null} when no review is pending or every unsafe step of the key
     * is finished (then the review holds nothing back).
     *
     * @param steps the key's step records by step id
     */
    public static String heldForReview(JobDefinition job, Map<String, StepRecord> steps, Review.Need review) {
        return review != null && review.pending() ? firstUnsafe(job, steps == null ? Map.of() : steps) : null;
    }

    /** The first unsafe step the key has not finished (the step the review is about), or {@code null}. */
    private static String firstUnsafe(JobDefinition job, Map<String, StepRecord> steps) {
        for (StepDefinition s : job.steps()) {
            StepRecord sr = steps.get(s.id());
            if (s.effect() == Effect.UNSAFE && (sr == null || !sr.status().finished())) {
                return s.id();
            }
        }
        return null;
    }

    private static String firstUnfinished(Input in) {
        for (StepDefinition s : in.job().steps()) {
            StepRecord sr = in.steps().get(s.id());
            if (sr == null || !sr.status().finished()) {
                return s.id();
            }
        }
        return null;
    }

    /**
     * The path a run would take if every step it executes succeeds: the actions in order and the
     * stop. Probes are asked through {@code probe} (a dry run asks them read-only, or answers
     * {@link ProbeAnswer#NOT_ASKED}); an action's outcome is assumed (executed = succeeded,
     * reconciled = reconciled).
     *
     * @param probe asks the probe of a step (or the job's own, {@link KeyProbe#STEP}), given the step and the
     *              steps the path has executed or reconciled before it
     */
    public static Path project(Input in, ProbeOracle probe) {
        List<Action> actions = new ArrayList<>();
        Decision first = decide(in);
        if (first.leavesKeyAlone()) {
            return new Path(List.of(), first.stop());
        }
        Input cur = in.held();
        Map<String, StepRecord> steps = new HashMap<>(in.steps());
        Map<String, ProbeAnswer> probes = new HashMap<>(in.probes());
        // the steps the path runs or reconciles before a probe: their outputs are known only while the key runs
        List<String> before = new ArrayList<>();
        for (int guard = 0; guard < 4 * in.job().steps().size() + 4; guard++) {
            Decision d = decide(cur);
            if (!d.acts()) {
                return new Path(List.copyOf(actions), d.stop());
            }
            Action a = d.next();
            switch (a.kind()) {
                case PROBE -> {
                    ProbeAnswer ans = Objects.requireNonNull(probe.ask(a.step(), List.copyOf(before)));
                    probes.put(a.step(), ans);
                    cur = cur.withProbes(Map.copyOf(probes));
                }
                case RECONCILE, EXECUTE -> {
                    actions.add(a);
                    before.add(a.step());
                    StepRecord old = steps.get(a.step());
                    steps.put(a.step(), new StepRecord(a.step(), a.kind() == ActionKind.EXECUTE ? StepStatus.SUCCEEDED
                            : StepStatus.RECONCILED, old == null ? 1 : old.attempts() + 1, null, Map.of(), in.now()));
                    cur = cur.withSteps(Map.copyOf(steps));
                }
            }
        }
        throw new IllegalStateException("decision loop for " + in.job().name() + " " + in.key());
    }

    /** Answers probes for {@link #project}. */
    @FunctionalInterface
    public interface ProbeOracle {
        /**
         * @param step           the unsafe step whose probe is asked, or {@link KeyProbe#STEP} for the job's own
         * @param executedBefore steps the path executes or reconciles before it (in this run): their outputs are known
         *                       only while the key runs (a reconciled step's are what its probe extracts then)
         */
        ProbeAnswer ask(String step, List<String> executedBefore);
    }

    /**
     * A projected run of one key.
     *
     * @param actions the reconciles and executions, in order (probes are folded into their answers)
     * @param stop    where the key stops
     */
    public record Path(List<Action> actions, Stop stop) {
        /** The steps the run executes, in order. */
        public List<String> executed() {
            return actions.stream().filter(a -> a.kind() == ActionKind.EXECUTE).map(Action::step).toList();
        }
    }
}
