package io.keyline.domain;

/** What executes a step (or a probe). */
public enum StepKind {
    COMMAND, HTTP;

    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
