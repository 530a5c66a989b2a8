package io.keyline.domain;

/** Whether an operator must confirm each execution of a step. */
public enum ConfirmPolicy {
    NEVER, ALWAYS
}
