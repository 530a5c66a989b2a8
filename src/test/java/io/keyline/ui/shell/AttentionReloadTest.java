package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.MainWindowTest;
import javafx.scene.control.Button;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Attention reloads its cards every few seconds; a reload that finds nothing new leaves a card's buttons in place,
 * as the Credentials page and the job page keep their rows: a Retry the operator had pressed is still under the
 * pointer at the release.
 */
class AttentionReloadTest extends MainWindowTest {

    @Test
    void aReloadThatFindsNothingNewKeepsTheCardsButtonsUnderThePointer(FxRobot robot) throws Exception {
        fixture("reload");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isEqualTo(2);
        showQuiet(robot, 1024, 680);
        waitUntil(() -> fxValue(robot, () -> retry(robot) != null));
        java.util.concurrent.atomic.AtomicInteger reloads = new java.util.concurrent.atomic.AtomicInteger();
        robot.interact(() -> console.model().attention().addListener(
                (javafx.collections.ListChangeListener<Object>) c -> reloads.incrementAndGet()));
        for (int reload = 1; reload <= 3; reload++) {
            Button before = fxValue(robot, () -> retry(robot));
            int seen = reloads.get();
            robot.interact(() -> console.refresh());
            // the cards were set anew (the same ones)
            waitUntil(() -> reloads.get() > seen);
            Button after = fxValue(robot, () -> retry(robot));
            assertThat(after).as("the card's button after reload %d", reload).isNotNull().isSameAs(before);
            assertThat(fxValue(robot, () -> before.getScene() != null)).as("still on the page").isTrue();
        }
    }

    /** The card's action as the page shows it now (call on the FX thread), or {@code null}. */
    private static Button retry(FxRobot robot) {
        return robot.lookup("#action-daily-2026-11-28").tryQuery().filter(n -> n.getScene() != null && n.isVisible())
                .map(Button.class::cast).orElse(null);
    }
}
