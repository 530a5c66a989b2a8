package io.keyline.domain;

/** Why a NEEDS_CONFIRMATION key's unsafe step waits for a person (stored with the key, never read from its message). */
public enum WaitReason {
    /** The step is set to {@code confirm: always}. */
    CONFIRM_ALWAYS,
    /** Its last attempt may have reached the site and no probe says it did not; or it has no probe. */
    OUTCOME_UNKNOWN,
    /** It was confirmed, but what it would send changed since. */
    PAYLOAD_CHANGED,
    /**
     * An unattended run met a job whose unsafe steps were never reviewed (a new job), or were edited since their
     * review: the key waits until the operator applies a plan of the job or approves it.
     */
    REVIEW
}
