package io.keyline.core;

import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepRecord;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * What {@link KeyDecision} looks at besides a key's own records, worked out in one place for the
 * engine, the planner and the scheduler: whether a key is not yet due, whether the holder of a running
 * key is alive, whether a retry is soon enough to be waited for in place, whether an unattended run must
 * wait for the review of the job's unsafe steps ({@link Review}), and the state of the job's credentials.
 * One instance serves one job for one run, plan or tick (the current key is computed once).
 */
public final class DecisionInputs {

    private final JobDefinition job;
    private final boolean ahead;
    private final Clock clock;
    private final WorkerRegistry holders;
    private final Duration waitInPlace;
    private final Review.Need review;
    private String current;

    private DecisionInputs(JobDefinition job, boolean ahead, Clock clock, WorkerRegistry holders,
                           Duration waitInPlace, Review.Need review) {
        this.job = job;
        this.ahead = ahead;
        this.clock = clock;
        this.holders = holders;
        this.waitInPlace = waitInPlace;
        this.review = review;
    }

    /**
     * @param ahead       keys later than the current one are allowed ({@code --ahead}, an apply of such a plan)
     * @param clock       what "now" and the current key are read from
     * @param holders     the state's rule whether a running key's holder is alive
     * @param waitInPlace a retry due within this is waited for by the run that meets it
     */
    public static DecisionInputs of(JobDefinition job, boolean ahead, Clock clock, WorkerRegistry holders,
                                    Duration waitInPlace) {
        return new DecisionInputs(job, ahead, clock, holders, waitInPlace, Review.Need.NONE);
    }

    /**
     * The inputs of an unattended run ({@code run --due}, the scheduler, a worker): a job whose unsafe steps were
     * never reviewed, or changed since their review ({@link Review#need}), runs none of its keys; each waits for
     * the review.
     *
     * @param control the job's stored controls (its reviewed hash)
     */
    public static DecisionInputs unattended(JobDefinition job, JobControl control, boolean ahead, Clock clock,
                                            WorkerRegistry holders, Duration waitInPlace) {
        return new DecisionInputs(job, ahead, clock, holders, waitInPlace, Review.need(job, control));
    }

    public JobDefinition job() {
        return job;
    }

    /** Whether {@code key} is later than the job's current key and not allowed ahead (never for manual keys). */
    public synchronized boolean notYetDue(String key) {
        if (ahead || job.key().type() == KeyType.MANUAL) {
            return false;
        }
        if (current == null) {
            current = KeyRules.current(job.key(), clock);
        }
        return KeyRules.compare(job.key(), key, current) > 0;
    }

    /** The job's current key, or {@code null} for manual keys. */
    public synchronized String currentKey() {
        if (job.key().type() == KeyType.MANUAL) {
            return null;
        }
        if (current == null) {
            current = KeyRules.current(job.key(), clock);
        }
        return current;
    }

    /** Whether the holder of {@code rec}, a RUNNING key, is alive now: while it is, the key is not taken over. */
    public boolean holderAlive(KeyRecord rec, Instant now) {
        return rec != null && rec.state() == KeyState.RUNNING && holders.holderAlive(rec, now);
    }

    /** Whether a run that meets {@code stop} waits for it where it is: a retry due within the wait-in-place time. */
    public boolean waitsInPlace(KeyDecision.Stop stop, Instant now) {
        return stop.kind() == KeyDecision.StopKind.WAIT_RETRY && stop.until() != null
                && Duration.between(now, stop.until()).compareTo(waitInPlace) <= 0;
    }

    /**
     * The input for a key nobody here holds yet: would a run take it, and where would it stop? Its steps,
     * credentials and probes are not looked at beyond what the record says, and its job is read as not paused.
     */
    public KeyDecision.Input unheld(String key, KeyRecord rec, Instant now) {
        return new KeyDecision.Input(job, key, rec, Map.of(), Map.of(), Map.of(), null, now, false,
                null, holderAlive(rec, now), false, notYetDue(key), review);
    }

    /**
     * The input for a key as the engine sees it just after its claim ({@link #held}, with the key's stored step
     * records), read by whoever claims nothing: the credentials, probes and payloads are not looked at, so the
     * decision it gives is the engine's only as far as a pause and the review's hold (a key is held by the review
     * only while an unsafe step of its is left to run).
     */
    public KeyDecision.Input afterClaim(String key, KeyRecord rec, Map<String, StepRecord> steps, Instant now) {
        return held(key, rec, steps, Map.of(), Map.of(), null, now, null, null);
    }

    /**
     * The input for a key as a plan sees it: its step records, the credentials' state and the payloads, with
     * probes asked as the path goes (see {@link KeyDecision#project}). A plan is the review: a key that waits
     * for it is planned as the run after the review takes it (pending).
     */
    public KeyDecision.Input planned(String key, KeyRecord rec, Map<String, StepRecord> steps,
                                     Map<String, KeyDecision.CredentialState> credentials,
                                     Function<String, String> payloadHash, Instant now, String pausedReason) {
        return planned(key, rec, steps, credentials, payloadHash, now, pausedReason, null);
    }

    /**
     * As {@link #planned(String, KeyRecord, Map, Map, Function, Instant, String)}, with the asks of probes that
     * could not tell since the step's last attempt ({@link #probeAsks(Supplier)}).
     */
    public KeyDecision.Input planned(String key, KeyRecord rec, Map<String, StepRecord> steps,
                                     Map<String, KeyDecision.CredentialState> credentials,
                                     Function<String, String> payloadHash, Instant now, String pausedReason,
                                     ToIntFunction<String> probeAsks) {
        KeyRecord seen = waitsForReview(rec) ? rec.withState(KeyState.PENDING) : rec;
        return new KeyDecision.Input(job, key, seen, steps, credentials, Map.of(), payloadHash, now,
                pausedReason != null, pausedReason, holderAlive(seen, now), false, notYetDue(key), Review.Need.NONE,
                probeAsks);
    }

    /** Whether a key waits for the review of its job's unsafe steps (NEEDS_CONFIRMATION, wait reason REVIEW). */
    public static boolean waitsForReview(KeyRecord rec) {
        return rec != null && waitsForReview(rec.state(), rec.waitReason());
    }

    /** Whether a key in {@code state}, waiting for {@code why}, waits for the review of its job's unsafe steps. */
    public static boolean waitsForReview(KeyState state, io.keyline.domain.WaitReason why) {
        return io.keyline.domain.OperatorMoves.heldForReview(state, why);
    }

    /**
     * The input for a key this process holds (the engine after its claim): it goes on until it stops. {@code
     * probeAsks}: the asks of probes that could not tell since their step's last attempt
     * ({@link #probeAsks(Supplier)}).
     */
    public KeyDecision.Input held(String key, KeyRecord rec, Map<String, StepRecord> steps,
                                  Map<String, KeyDecision.CredentialState> credentials,
                                  Map<String, ProbeAnswer> probes, Function<String, String> payloadHash, Instant now,
                                  String pausedReason, ToIntFunction<String> probeAsks) {
        return new KeyDecision.Input(job, key, rec, steps, credentials, probes, payloadHash, now,
                pausedReason != null, pausedReason, false, true, false, review, probeAsks);
    }

    /**
     * Whether {@code e} records an ask of an unsafe step's probe that could not tell (before a send, or after an
     * attempt whose outcome is unknown): each such ask scheduled the next with the probe's answer.
     */
    private static boolean inconclusiveAsk(KeyEvent e) {
        return e.type() == EventType.RETRY_SCHEDULED && e.probe() == ProbeAnswer.INCONCLUSIVE;
    }

    /**
     * By step id: how often the probe of that unsafe step could not tell since the step's last attempt (or since
     * the key began, when it was never sent), read from the key's history (oldest first), so that the count holds
     * across the runs that ask it, not only while one run waits in place. An ask is not an attempt of the step:
     * nothing was sent. An operator's action on the key (a confirmation, a renewal of its login, a retry) starts
     * every count again.
     */
    public static Map<String, Integer> probeAsks(List<KeyEvent> history) {
        Map<String, Integer> asks = new HashMap<>();
        Set<String> attempted = new HashSet<>();
        for (int i = history.size() - 1; i >= 0; i--) {
            KeyEvent e = history.get(i);
            if (e.user() != null) {
                break;
            }
            if (e.step() == null || attempted.contains(e.step())) {
                continue;
            }
            if (e.type() == EventType.STEP_STARTED) {
                attempted.add(e.step());
            } else if (inconclusiveAsk(e)) {
                asks.merge(e.step(), 1, Integer::sum);
            }
        }
        return asks;
    }

    /**
     * The asks of {@link #probeAsks(List)} as the decision reads them, by step id: the history is read
     * once, when the decision first needs it (a probe that cannot tell), not for every key.
     */
    public static ToIntFunction<String> probeAsks(Supplier<List<KeyEvent>> history) {
        return new ToIntFunction<>() {
            private Map<String, Integer> asks;

            @Override
            public synchronized int applyAsInt(String step) {
                if (asks == null) {
                    asks = probeAsks(history.get());
                }
                return asks.getOrDefault(step, 0);
            }
        };
    }

    /**
     * The state of the credentials the job's steps and its own probe name, as the decision sees them: missing, rejected (the
     * breaker: a rejected credential is not sent again until it is renewed or tested accepted) or usable.
     */
    public static Map<String, KeyDecision.CredentialState> credentials(JobDefinition job,
                                                                       CredentialProvider provider) {
        Map<String, KeyDecision.CredentialState> out = new HashMap<>();
        for (String name : job.credentials()) {
            out.put(name, credential(provider, name));
        }
        return out;
    }

    private static KeyDecision.CredentialState credential(CredentialProvider provider, String name) {
        CredentialProvider.Lookup l = provider.lookup(name);
        if (!l.present()) {
            return new KeyDecision.CredentialState(name, KeyDecision.CredentialStatus.MISSING, l.problem());
        }
        if (l.rejected() != null) {
            return new KeyDecision.CredentialState(name, KeyDecision.CredentialStatus.REJECTED, l.rejected());
        }
        return KeyDecision.CredentialState.usable(name);
    }
}
