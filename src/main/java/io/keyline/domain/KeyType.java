package io.keyline.domain;

/** How a job's idempotency keys are formed. */
public enum KeyType {
    /** ISO date in the job's zone: {@code 2026-11-29}. */
    DATE,
    /** ISO week-based year and week: {@code 2026-W48}. */
    WEEK,
    /** Year and month: {@code 2026-11}. */
    MONTH,
    /** Free business identifier given by the operator, e.g. a document number. */
    MANUAL;

    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
