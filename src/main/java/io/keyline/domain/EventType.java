package io.keyline.domain;

/** What an event in a key's append-only history records. */
public enum EventType {
    CLAIMED,
    RECOVERED,
    STEP_STARTED,
    STEP_SUCCEEDED,
    /** The step's effect was found to exist already (by its probe); the step was not executed. */
    STEP_RECONCILED,
    STEP_FAILED,
    PROBE_ANSWERED,
    RETRY_SCHEDULED,
    KEY_DONE,
    KEY_FAILED,
    WAITING_FOR_CONFIRMATION,
    WAITING_FOR_CREDENTIAL,
    YIELDED,
    /** An applied plan stopped the key: reality departed from what the plan showed (the evidence says how). */
    DEPARTED,
    CONFIRMED,
    MARKED_DONE,
    RETRIED,
    SKIPPED,
    CREDENTIAL_UPDATED,
    /**
     * The site set new cookies for the credential on an answer to a request that carried it, and they were kept
     * (encrypted): the message names the credential and its new fingerprint, never a value.
     */
    CREDENTIAL_REFRESHED,
    /** An operator re-armed a DONE key: its steps (all, or from one) run again; unsafe ones through their probe. */
    REARMED,
    /**
     * A wait for a confirmation outlived its step's {@code expireAfter}: the key was skipped or failed (never
     * confirmed: the step did not run).
     */
    CONFIRMATION_EXPIRED,
    /** An operator reviewed the job (approve, or apply of a plan): a key that waited for the review goes on. */
    APPROVED
}
