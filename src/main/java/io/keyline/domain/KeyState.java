package io.keyline.domain;

import java.util.EnumSet;
import java.util.Set;

/** The state of one idempotency key of one job. Transitions are in {@link KeyStateMachine}. */
public enum KeyState {
    PENDING, RUNNING, DONE, RETRY_WAIT, FAILED, NEEDS_CONFIRMATION, NEEDS_CREDENTIAL, SKIPPED;

    /** States that wait for a person. */
    public static final Set<KeyState> ATTENTION = EnumSet.of(FAILED, NEEDS_CONFIRMATION, NEEDS_CREDENTIAL);

    /** States in which a key is finished for good (until an operator re-arms it). */
    public boolean finished() {
        return this == DONE || this == SKIPPED;
    }

    public boolean needsAttention() {
        return ATTENTION.contains(this);
    }
}
