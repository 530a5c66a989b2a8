package io.keyline.domain;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The operator's moves are the transition table's operator rows, nothing more and nothing less. */
class OperatorMovesTest {

    @Test
    void everyOperatorTriggerIsAMoveAndNoOtherIs() {
        EnumSet<Trigger> moves = EnumSet.copyOf(OperatorMoves.ORDER);
        moves.addAll(OperatorMoves.JOB_WIDE);
        assertThat(OperatorMoves.ORDER).doesNotContainAnyElementsOf(OperatorMoves.JOB_WIDE);
        assertThat(moves).isEqualTo(Arrays.stream(Trigger.values())
                .filter(Trigger::byOperator).collect(Collectors.toCollection(() -> EnumSet.noneOf(Trigger.class))));
    }

    @Test
    void theMovesOfAStateAreExactlyItsLegalOperatorTransitions() {
        for (KeyState s : KeyState.values()) {
            Set<Trigger> legal = KeyStateMachine.rows().stream()
                    .filter(r -> r.from() == s && r.trigger().byOperator())
                    .filter(r -> !OperatorMoves.JOB_WIDE.contains(r.trigger())).map(KeyStateMachine.Row::trigger)
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(Trigger.class)));
            OperatorMoves moves = OperatorMoves.of(s);
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
            OperatorMoves moves = OperatorMoves.of(s);
            assertThat(moves.resolving().isPresent()).as("%s", s).isEqualTo(KeyState.ATTENTION.contains(s));
            moves.resolving().ifPresent(t -> assertThat(moves.allows(t)).isTrue());
        }
        assertThat(OperatorMoves.of(KeyState.NEEDS_CONFIRMATION).resolving()).contains(Trigger.CONFIRM);
        assertThat(OperatorMoves.of(KeyState.NEEDS_CREDENTIAL).resolving()).contains(Trigger.CREDENTIAL_UPDATED);
        assertThat(OperatorMoves.of(KeyState.FAILED).resolving()).contains(Trigger.RETRY);
        assertThat(OperatorMoves.of(null).moves()).isEmpty();
        assertThat(OperatorMoves.of(KeyState.NEEDS_CREDENTIAL).onKey()).doesNotContain(Trigger.CREDENTIAL_UPDATED);
    }
}
