package io.keyline.domain;

/** What moves a key from one state to another. Operator triggers are audited with user and note. */
public enum Trigger {
    /** A run takes a PENDING or due RETRY_WAIT key. */
    CLAIM(false),
    /** A run takes over a RUNNING key whose lease holder died. */
    RECOVER(false),
    /** A step started, succeeded, was reconciled or a probe answered; the key keeps running. */
    PROGRESS(false),
    COMPLETE(false),
    SCHEDULE_RETRY(false),
    FAIL(false),
    NEED_CONFIRMATION(false),
    NEED_CREDENTIAL(false),
    /** The run stops at a step boundary (job paused); the key goes back to PENDING. */
    YIELD(false),
    /** A wait for a confirmation outlived its step's {@code expireAfter} and its {@code then} is {@code skip}. */
    EXPIRE_TO_SKIPPED(false),
    /** A wait for a confirmation outlived its step's {@code expireAfter} and its {@code then} is {@code fail}. */
    EXPIRE_TO_FAILED(false),
    CONFIRM(true),
    MARK_DONE(true),
    RETRY(true),
    SKIP(true),
    CREDENTIAL_UPDATED(true),
    /** An operator re-arms a DONE key (all steps, or from a named one). */
    REARM(true),
    /** An operator reviewed the job (approved it, or applied a plan of it): its keys that waited for that go on. */
    APPROVE(true);

    private final boolean operator;

    Trigger(boolean operator) {
        this.operator = operator;
    }

    public boolean byOperator() {
        return operator;
    }
}
