package io.keyline.reliability;

import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The checker of R1 must be able to fail: it runs in the default build. */
class HistoryCheckerTest {

    private static KeyEvent ev(long id, EventType type, KeyState state) {
        return new KeyEvent(id, "j", "k", Instant.EPOCH, "r", type, null, 0, state, null, null, null, null, null);
    }

    @Test
    void acceptsALegalPathAndNamesAnIllegalStep() {
        List<KeyEvent> legal = List.of(ev(1, EventType.CLAIMED, KeyState.RUNNING), ev(2, EventType.STEP_STARTED,
                KeyState.RUNNING), ev(3, EventType.WAITING_FOR_CONFIRMATION, KeyState.NEEDS_CONFIRMATION),
                ev(4, EventType.CONFIRMED, KeyState.PENDING), ev(5, EventType.CLAIMED, KeyState.RUNNING),
                ev(6, EventType.KEY_DONE, KeyState.DONE));
        assertThat(HistoryChecker.problems(legal)).isEmpty();
        assertThat(HistoryChecker.endsIn(legal, KeyState.DONE)).isTrue();

        List<KeyEvent> skipsClaim = List.of(ev(1, EventType.KEY_FAILED, KeyState.FAILED));
        assertThat(HistoryChecker.problems(skipsClaim)).containsExactly(
                "event 1 KEY_FAILED: PENDING -> FAILED is not in the transition table");
        List<KeyEvent> doneRunsAgain = List.of(ev(1, EventType.CLAIMED, KeyState.RUNNING),
                ev(2, EventType.KEY_DONE, KeyState.DONE), ev(3, EventType.CLAIMED, KeyState.RUNNING));
        assertThat(HistoryChecker.problems(doneRunsAgain)).hasSize(1);
    }
}
