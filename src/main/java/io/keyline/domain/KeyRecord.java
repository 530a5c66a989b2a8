package io.keyline.domain;

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
 */
public record KeyRecord(String job, String key, KeyState state, String step, int attempts, Instant nextAttemptAt,
                        FailureClass failureClass, String message, String credential, String confirmedStep,
                        String confirmedHash, String runId, String leaseOwner, Instant leaseUntil, long version,
                        Instant createdAt, Instant updatedAt) {

    /** A key that has never run: PENDING, version 0 (not yet stored). */
    public static KeyRecord fresh(String job, String key, Instant now) {
        return new KeyRecord(job, key, KeyState.PENDING, null, 0, null, null, null, null, null, null, null, null,
                null, 0, now, now);
    }

    public KeyRecord withState(KeyState s) {
        return new KeyRecord(job, key, s, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt);
    }

    public KeyRecord withStep(String st, int att) {
        return new KeyRecord(job, key, state, st, att, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt);
    }

    public KeyRecord withFailure(FailureClass cls, String msg) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, cls, msg, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt);
    }

    public KeyRecord withMessage(String msg) {
        return withFailure(failureClass, msg);
    }

    public KeyRecord withNextAttemptAt(Instant t) {
        return new KeyRecord(job, key, state, step, attempts, t, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt);
    }

    public KeyRecord withCredential(String c) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, c,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt);
    }

    public KeyRecord withConfirmation(String confirmed, String hash) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmed, hash, runId, leaseOwner, leaseUntil, version, createdAt, updatedAt);
    }

    public KeyRecord withLease(String run, String owner, Instant until) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, run, owner, until, version, createdAt, updatedAt);
    }

    public KeyRecord withoutLease() {
        return withLease(runId, null, null);
    }

    public KeyRecord withUpdatedAt(Instant t) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, version, createdAt, t);
    }

    public KeyRecord withVersion(long v) {
        return new KeyRecord(job, key, state, step, attempts, nextAttemptAt, failureClass, message, credential,
                confirmedStep, confirmedHash, runId, leaseOwner, leaseUntil, v, createdAt, updatedAt);
    }

    /** Whether the record exists in the store (a fresh key has version 0). */
    public boolean stored() {
        return version > 0;
    }
}
