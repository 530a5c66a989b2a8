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
    /** An operator re-armed a DONE key: its steps (all, or from one) run again; unsafe ones through their probe. */
    REARMED,
    /** An operator reviewed the job (approve, or apply of a plan): a key that waited for the review goes on. */
    APPROVED
}
