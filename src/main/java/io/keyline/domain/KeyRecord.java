package io.keyline.domain;

import io.keyline.text.Said;

import java.time.Instant;

/**
 * The current state of one idempotency key of one job (the "instance"; a run is one execution
 * over it, a step attempt one execution of one step). {@code version} increases with every change
 * and guards every update (optimistic concurrency).
 *
 * @param job            job name
 * @param key            canonical key
 * @param state          key state
 * @param step           step the key is at (the next one to run, or the one that waits/failed), or {@code null}
 * @param attempts       attempts of {@code step} in its current retry cycle
 * @param nextAttemptAt  when a RETRY_WAIT key is due, or {@code null}
 * @param failureClass   class of the last failure, or {@code null}
 * @param message        last human-readable message (never a secret)
 * @param credential     credential the key waits for (NEEDS_CREDENTIAL), or {@code null}
 * @param confirmedStep  step an operator confirmed for its next execution, or {@code null}
 * @param confirmedHash  payload hash the operator confirmed, or {@code null} (any payload)
 * @param runId          run that last touched the key
 * @param leaseOwner     process that holds the key while RUNNING, or {@code null}
 * @param leaseUntil     lease expiry, or {@code null}
 * @param version        optimistic-concurrency version
 * @param createdAt      first time the key was seen
 * @param updatedAt      last change
 * @param waitReason     why a NEEDS_CONFIRMATION key waits, or {@code null} ({@link #withState} drops it in any other state)
 * @param failureOrigin  whose doing the last failure was (the environment, or the site's or program's answer), or
 *                       {@code null} when there is no failure or it is not known
 * @param said           the same message as a bundle key and its arguments, said in the language in use where it is
 *                       shown, or {@code null} when the message has only its English words (as a record stored before
 *                       records kept them)
 */
public record KeyRecord(String job, String key, KeyState state, String step, int attempts, Instant nextAttemptAt,
                        FailureClass failureClass, String message, String credential, String confirmedStep,
                        String confirmedHash, String runId, String leaseOwner, Instant leaseUntil, long version,
                        Instant createdAt, Instant updatedAt, WaitReason waitReason, FailureOrigin failureOrigin,
                        Said said) {

    /**
     * A record that does not wait for a confirmation, with no known failure origin, whose message has only its
     * English words.
     */
    public KeyRecord(String job, String key, KeyState state, String step, int attempts, Instant nextAttemptAt,
                     FailureClass failureClass, String message, String credential, String confirmedStep,
                     String confirmedHash, String runId, String leaseOwner, Instant leaseUntil, long version,
                     Instant createdAt, Instant updatedAt) {
        this(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential, confirmedStep,
                confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt, null, null, null);
    }

    /**
     * The attempts as {@code status} and {@code export} show them: of the step the key is at, or {@code null} for a
     * key at no step (done, or not started), where a 0 would read as "never tried".
     */
    public Integer attemptsAtStep() {
        return step == null ? null : attempts;
    }

    /** A key that has never run: PENDING, version 0 (not yet stored). */
    public static KeyRecord fresh(String job, String key, Instant now) {
        return new KeyRecord(job, key, KeyState.PENDING, null, 0, null, null, null, null, null, null, null, null,
                null, 0, now, now);
    }

    /** The record in state {@code s}; a wait reason belongs to the wait for a confirmation and goes with it. */
    public KeyRecord withState(KeyState s) {
        return new KeyRecord(job, key, s, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt,
                s == KeyState.NEEDS_CONFIRMATION ? waitReason : null, failureOrigin, said);
    }

    public KeyRecord withStep(String st, int att) {
        return new KeyRecord(job, key, state, st, att, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt, waitReason,
                failureOrigin, said);
    }

    /** The record with this failure (or none), whose origin is not known. */
    public KeyRecord withFailure(FailureClass cls, String msg) {
        return withFailure(cls, msg, null);
    }

    /** The record with this failure (or none) and whose doing it was; its message has only its English words. */
    public KeyRecord withFailure(FailureClass cls, String msg, FailureOrigin origin) {
        return failed(cls, msg, null, origin);
    }

    /** The record with this failure (or none), whose origin is not known, and its message as {@code words}. */
    public KeyRecord withFailureWords(FailureClass cls, Said words) {
        return withFailureWords(cls, words, null);
    }

    /** The record with this failure (or none), whose doing it was, and its message as {@code words}. */
    public KeyRecord withFailureWords(FailureClass cls, Said words, FailureOrigin origin) {
        return failed(cls, words.english(), words, origin);
    }

    /** The failure's four components together: {@code msg} is the English of {@code words} when there are words. */
    private KeyRecord failed(FailureClass cls, String msg, Said words, FailureOrigin origin) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, cls, msg, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt, waitReason,
                origin, words);
    }

    public KeyRecord withNextAttemptAt(Instant t) {
        return new KeyRecord(job, key, state, step, attempts, t, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt, waitReason,
                failureOrigin, said);
    }

    public KeyRecord withCredential(String c) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, c,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt, waitReason,
                failureOrigin, said);
    }

    public KeyRecord withConfirmation(String confirmed, String hash) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmed, hash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt, waitReason,
                failureOrigin, said);
    }

    public KeyRecord withLease(String run, String owner, Instant until) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, run, owner, until, version, createdAt, updatedAt, waitReason,
                failureOrigin, said);
    }

    public KeyRecord withoutLease() {
        return withLease(runId, null, null);
    }

    public KeyRecord withUpdatedAt(Instant t) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, t, waitReason,
                failureOrigin, said);
    }

    /** The record with why it waits for a confirmation (kept by {@link #withState} only into NEEDS_CONFIRMATION). */
    public KeyRecord withWaitReason(WaitReason reason) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt, reason,
                failureOrigin, said);
    }

    public KeyRecord withVersion(long v) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, v, createdAt, updatedAt, waitReason,
                failureOrigin, said);
    }

    /** Whether the record exists in the store (a fresh key has version 0). */
    public boolean stored() {
        return version > 0;
    }
}
