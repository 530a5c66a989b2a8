package io.keyline.ui.shell;

import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.ui.MainWindowTest;
import javafx.scene.Node;
import javafx.scene.control.Label;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An Attention card says how long its key has waited, and says it as time goes by while the page stays open: the
 * console's reloads that find nothing new leave the cards as they are, so the age is told anew from the clock.
 */
class AttentionAgeTest extends MainWindowTest {

    @Test
    void aCardsAgeGoesOnWhileThePageStaysOpen(FxRobot robot) throws Exception {
        fixture("age");
        fx.publishJob("daily", null);
        Instant start = fx.wb.clock.instant();
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", "2026-11-27", start.minus(Duration.ofMinutes(3))));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.NEEDS_CONFIRMATION).withStep("publish", 1)
                .withWaitReason(WaitReason.OUTCOME_UNKNOWN).withFailure(FailureClass.AMBIGUOUS, "the answer was lost")
                .withUpdatedAt(start.minus(Duration.ofMinutes(3))), null, new KeyEvent(0, "daily", "2026-11-27",
                start.minus(Duration.ofMinutes(3)), "seed", EventType.CLAIMED, null, 0, KeyState.NEEDS_CONFIRMATION,
                null, "seeded", null, null, null));
        showQuiet(robot, 1024, 680);
        waitUntil(() -> ages(robot).contains("waiting 3 min"));

        // five minutes on, with nothing new in the state: the page is neither reloaded by hand nor left
        fx.wb.clock.advance(Duration.ofMinutes(5));
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < until && !ages(robot).contains("waiting 8 min")) {
            Thread.sleep(200);
        }
        assertThat(ages(robot)).as("the card's age five minutes later, the page open").contains("waiting 8 min");
    }

    /** The ages the Attention cards show. */
    private static List<String> ages(FxRobot robot) {
        return fxValue(robot, () -> robot.lookup("#inbox-list").query().lookupAll(".label").stream()
                .filter(Node::isVisible).map(n -> ((Label) n).getText())
                .filter(t -> t != null && t.startsWith("waiting ")).toList());
    }
}
