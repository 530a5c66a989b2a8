package io.keyline.domain;

/** Thrown when a trigger does not apply to a key's current state. */
public final class IllegalTransitionException extends IllegalStateException {
    private final KeyState from;
    private final Trigger trigger;

    public IllegalTransitionException(KeyState from, Trigger trigger) {
        super("cannot " + trigger.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + " a key in state " + from + " (allowed from: " + KeyStateMachine.sourcesOf(trigger) + ")");
        this.from = from;
        this.trigger = trigger;
    }

    public KeyState from() {
        return from;
    }

    public Trigger trigger() {
        return trigger;
    }
}
