package io.keyline.domain;

/** Progress of one step of one key. A key's steps without a record have not started. */
public enum StepStatus {
    /** Intent committed: the step is about to do (or did) its work; the outcome is not recorded. */
    STARTED,
    /** The step's outcome is unknown (the world may have changed); only a probe or a person decides. */
    AMBIGUOUS,
    /** The last attempt failed and its outcome is known: nothing changed, or the step is safe to redo. */
    FAILED,
    /** The step finished with success. */
    SUCCEEDED,
    /** The step's effect was found present (probe or operator) and the step was not executed again. */
    RECONCILED;

    public boolean finished() {
        return this == SUCCEEDED || this == RECONCILED;
    }
}
