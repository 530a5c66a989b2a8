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
    CONFIRMED,
    MARKED_DONE,
    RETRIED,
    SKIPPED,
    CREDENTIAL_UPDATED
}
