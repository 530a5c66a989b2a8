package io.keyline.core;

import io.keyline.core.exec.Rendering;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How often a step was done and sent back by a person, as its next redo's {@code Idempotency-Key} names it: only a
 * step done (succeeded, reconciled, marked done) before a rearm or a retry counts; its attempts, failures, waits,
 * resends and runs again by the job's retryFrom within one life do not.
 */
class RedosTest {

    static KeyEvent event(EventType type, String step) {
        return new KeyEvent(0, "pub", "2026-11-29", Instant.parse("2026-11-29T09:00:00Z"), "r", type, step, 1,
                KeyState.RUNNING, null, "", null, null, null, null);
    }

    @Test
    void onlyAStepDoneCountsAndEachLifeKeepsItsKey() {
        List<KeyEvent> firstLife = List.of(event(EventType.CLAIMED, null), event(EventType.STEP_STARTED, "page"),
                event(EventType.STEP_SUCCEEDED, "page"), event(EventType.STEP_STARTED, "post"),
                event(EventType.STEP_FAILED, "post"), event(EventType.RETRY_SCHEDULED, "post"),
                event(EventType.RECOVERED, null), event(EventType.STEP_STARTED, "post"),
                event(EventType.WAITING_FOR_CONFIRMATION, "post"), event(EventType.CONFIRMED, "post"),
                event(EventType.STEP_STARTED, "post"), event(EventType.STEP_STARTED, "page"),
                event(EventType.STEP_SUCCEEDED, "page"));
        assertThat(Redos.of(firstLife)).as("both are in their first life: every send keeps its key, and page run "
                + "again by the job's retryFrom too").isEmpty();

        List<KeyEvent> redone = new java.util.ArrayList<>(firstLife);
        redone.addAll(List.of(event(EventType.MARKED_DONE, "post"), event(EventType.KEY_DONE, null),
                event(EventType.REARMED, "page"), event(EventType.STEP_SUCCEEDED, "page"),
                event(EventType.STEP_RECONCILED, "post"), event(EventType.RETRIED, "page")));
        assertThat(Redos.of(redone)).isEqualTo(Map.of("page", 2, "post", 2));
        assertThat(Rendering.idempotencyKey("pub", "2026-11-29", "post", 0)).isEqualTo("pub:2026-11-29:post");
        assertThat(Rendering.idempotencyKey("pub", "2026-11-29", "post", 2)).isEqualTo("pub:2026-11-29:post:redo2");
    }
}
