package io.keyline.domain;

/** What executes a step (or a probe). */
public enum StepKind {
    COMMAND, HTTP
}
