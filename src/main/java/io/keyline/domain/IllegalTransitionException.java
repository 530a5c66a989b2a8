package io.keyline.domain;

/** Thrown when a trigger does not apply to a key's current state. */
public final class IllegalTransitionException extends IllegalStateException {

    public IllegalTransitionException(KeyState from, Trigger trigger) {
        super("cannot " + trigger.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + " a key in state " + from + " (allowed from: " + KeyStateMachine.sourcesOf(trigger) + ")");
    }
}
