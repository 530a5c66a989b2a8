package io.keyline.domain;

/** What a step does to the outside world; decides what may be retried automatically. */
public enum Effect {
    /** Local or pure: safe to redo. */
    NONE,
    /** External but keyed (PUT, upsert, server honours Idempotency-Key): safe to redo. */
    IDEMPOTENT,
    /** External and not idempotent: never redone unless provably not applied. */
    UNSAFE;

    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
