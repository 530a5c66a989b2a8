package io.keyline.domain;

import java.util.List;
import java.util.Optional;

/**
 * What an operator may do to a key in a state, read from {@link KeyStateMachine}: every screen and
 * command that offers or performs an operator action asks here, so none can offer a move the table
 * refuses or hide one it allows.
 *
 * A key that waits for its job's review (NEEDS_CONFIRMATION for {@link WaitReason#REVIEW}) is let go by a review of
 * the job (a plan of it applied, or approved), never by a confirmation of the key: it offers no {@code CONFIRM},
 * and the move that resolves it is the job's review ({@link Trigger#APPROVE}, offered as Plan… of the job).
 *
 * @param state the key's state ({@code null}: a key that is not there offers nothing)
 * @param why   why a NEEDS_CONFIRMATION key waits, or {@code null}
 * @param moves the operator triggers on the key, in the order screens offer them
 */
public record OperatorMoves(KeyState state, WaitReason why, List<Trigger> moves) {

    /** Every operator trigger, in the order screens offer them. */
    public static final List<Trigger> ORDER = List.of(Trigger.CONFIRM, Trigger.CREDENTIAL_UPDATED, Trigger.RETRY,
            Trigger.REARM, Trigger.SKIP, Trigger.MARK_DONE);

    /** The moves that resolve a state that waits for a person, the first allowed one wins. */
    private static final List<Trigger> RESOLVING = List.of(Trigger.CONFIRM, Trigger.CREDENTIAL_UPDATED,
            Trigger.RETRY);

    public OperatorMoves {
        moves = List.copyOf(moves);
    }

    /** The moves on a key as it is now ({@code null}: a key that is not there offers nothing). */
    public static OperatorMoves of(KeyRecord rec) {
        return rec == null ? of(null, null) : of(rec.state(), rec.waitReason());
    }

    /**
     * The moves the transition table allows from {@code state}, but a confirmation of a key that waits for its job's
     * review.
     */
    public static OperatorMoves of(KeyState state, WaitReason why) {
        boolean review = heldForReview(state, why);
        return new OperatorMoves(state, why, state == null ? List.of()
                : ORDER.stream().filter(t -> KeyStateMachine.allows(state, t))
                .filter(t -> !(review && t == Trigger.CONFIRM)).toList());
    }

    /** Whether a key in {@code state}, waiting for {@code why}, waits for the review of its job's unsafe steps. */
    public static boolean heldForReview(KeyState state, WaitReason why) {
        return state == KeyState.NEEDS_CONFIRMATION && why == WaitReason.REVIEW;
    }

    /** Whether the key waits for its job's review: its one way on is a plan of the job ({@link #resolving}). */
    public boolean heldForReview() {
        return heldForReview(state, why);
    }

    public boolean allows(Trigger move) {
        return moves.contains(move);
    }

    /**
     * The one move that resolves a state that waits for a person (confirm the step, renew the login, retry
     * the failed key, review the job), or empty for a state that waits for nobody.
     */
    public Optional<Trigger> resolving() {
        if (state == null || !state.needsAttention()) {
            return Optional.empty();
        }
        if (heldForReview()) {
            return Optional.of(Trigger.APPROVE);
        }
        return RESOLVING.stream().filter(this::allows).findFirst();
    }

    /** The moves on this one key (a renewed login resumes every key that waits for it, not one). */
    public List<Trigger> onKey() {
        return moves.stream().filter(t -> t != Trigger.CREDENTIAL_UPDATED).toList();
    }
}
