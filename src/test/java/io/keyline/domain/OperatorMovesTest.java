package io.keyline.domain;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The operator's moves are the transition table's operator rows, nothing more and nothing less. */
class OperatorMovesTest {

    /** The operator trigger that acts on a whole job, not on one key: the review of its unsafe steps. */
    private static final List<Trigger> JOB_WIDE = List.of(Trigger.APPROVE);

    @Test
    void everyOperatorTriggerIsAMoveAndNoOtherIs() {
        EnumSet<Trigger> moves = EnumSet.copyOf(OperatorMoves.ORDER);
        moves.addAll(JOB_WIDE);
        assertThat(OperatorMoves.ORDER).doesNotContainAnyElementsOf(JOB_WIDE);
        assertThat(moves).isEqualTo(Arrays.stream(Trigger.values())
                .filter(Trigger::byOperator).collect(Collectors.toCollection(() -> EnumSet.noneOf(Trigger.class))));
    }

    @Test
    void theMovesOfAStateAreExactlyItsLegalOperatorTransitions() {
        for (KeyState s : KeyState.values()) {
            Set<Trigger> legal = KeyStateMachine.rows().stream()
                    .filter(r -> r.from() == s && r.trigger().byOperator())
                    .filter(r -> !JOB_WIDE.contains(r.trigger())).map(KeyStateMachine.Row::trigger)
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(Trigger.class)));
            OperatorMoves moves = OperatorMoves.of(s, null);
            Set<Trigger> offered = EnumSet.noneOf(Trigger.class);
            offered.addAll(moves.moves());
            assertThat(offered).as("moves from %s", s).isEqualTo(legal);
            for (Trigger t : moves.moves()) {
                assertThat(KeyStateMachine.apply(s, t)).isNotNull(); // legal: no IllegalTransitionException
            }
        }
    }

    @Test
    void exactlyTheStatesThatWaitForAPersonHaveAResolvingMove() {
        for (KeyState s : KeyState.values()) {
            OperatorMoves moves = OperatorMoves.of(s, null);
            assertThat(moves.resolving().isPresent()).as("%s", s).isEqualTo(KeyState.ATTENTION.contains(s));
            moves.resolving().ifPresent(t -> assertThat(moves.allows(t)).isTrue());
        }
        assertThat(OperatorMoves.of(KeyState.NEEDS_CONFIRMATION, null).resolving()).contains(Trigger.CONFIRM);
        assertThat(OperatorMoves.of(KeyState.NEEDS_CREDENTIAL, null).resolving()).contains(Trigger.CREDENTIAL_UPDATED);
        assertThat(OperatorMoves.of(KeyState.FAILED, null).resolving()).contains(Trigger.RETRY);
        assertThat(OperatorMoves.of((KeyRecord) null).moves()).isEmpty();
        assertThat(OperatorMoves.of(KeyState.NEEDS_CREDENTIAL, null).onKey()).doesNotContain(Trigger.CREDENTIAL_UPDATED);
    }

    @Test
    void aKeyHeldForItsJobsReviewIsResolvedByTheReviewNotByAConfirmation() {
        OperatorMoves held = OperatorMoves.of(KeyState.NEEDS_CONFIRMATION, WaitReason.REVIEW);
        assertThat(held.heldForReview()).isTrue();
        assertThat(held.allows(Trigger.CONFIRM)).isFalse();
        assertThat(held.resolving()).contains(Trigger.APPROVE);
        assertThat(held.moves()).containsExactly(Trigger.SKIP, Trigger.MARK_DONE);
        for (WaitReason why : WaitReason.values()) {
            if (why != WaitReason.REVIEW) {
                OperatorMoves other = OperatorMoves.of(KeyState.NEEDS_CONFIRMATION, why);
                assertThat(other.heldForReview()).as("%s", why).isFalse();
                assertThat(other.resolving()).as("%s", why).contains(Trigger.CONFIRM);
            }
        }
        for (KeyState s : KeyState.values()) {
            if (s != KeyState.NEEDS_CONFIRMATION) {
                assertThat(OperatorMoves.of(s, WaitReason.REVIEW)).as("%s", s)
                        .isEqualTo(new OperatorMoves(s, WaitReason.REVIEW, OperatorMoves.of(s, null).moves()));
            }
        }
    }
}
