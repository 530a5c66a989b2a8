package io.keyline.domain;

import java.util.List;
import java.util.Optional;

/**
 * What an operator may do to a key in a state, read from {@link KeyStateMachine}: every screen and
 * command that offers or performs an operator action asks here, so none can offer a move the table
 * refuses or hide one it allows.
 *
 * @param state the key's state ({@code null}: a key that is not there offers nothing)
 * @param moves the operator triggers the table allows from {@code state}, in the order screens offer them
 */
public record OperatorMoves(KeyState state, List<Trigger> moves) {

    /** Every operator trigger, in the order screens offer them. */
    public static final List<Trigger> ORDER = List.of(Trigger.CONFIRM, Trigger.CREDENTIAL_UPDATED, Trigger.RETRY,
            Trigger.REARM, Trigger.SKIP, Trigger.MARK_DONE);

    /**
     * Operator triggers that act on a whole job, not on one key: a review of the job's unsafe steps (approve, or
     * apply of a plan) lets every key that waited for it go on. Screens offer them on the job and in Attention.
     */
    public static final List<Trigger> JOB_WIDE = List.of(Trigger.APPROVE);

    /** The moves that resolve a state that waits for a person, the first allowed one wins. */
    private static final List<Trigger> RESOLVING = List.of(Trigger.CONFIRM, Trigger.CREDENTIAL_UPDATED,
            Trigger.RETRY);

    public OperatorMoves {
        moves = List.copyOf(moves);
    }

    /** The moves the transition table allows from {@code state}. */
    public static OperatorMoves of(KeyState state) {
        return new OperatorMoves(state, state == null ? List.of()
                : ORDER.stream().filter(t -> KeyStateMachine.allows(state, t)).toList());
    }

    public boolean allows(Trigger move) {
        return moves.contains(move);
    }

    /**
     * The one move that resolves a state that waits for a person (confirm the step, renew the login, retry
     * the failed key), or empty for a state that waits for nobody.
     */
    public Optional<Trigger> resolving() {
        if (state == null || !state.needsAttention()) {
            return Optional.empty();
        }
        return RESOLVING.stream().filter(this::allows).findFirst();
    }

    /** The moves on this one key (a renewed login resumes every key that waits for it, not one). */
    public List<Trigger> onKey() {
        return moves.stream().filter(t -> t != Trigger.CREDENTIAL_UPDATED).toList();
    }
}
