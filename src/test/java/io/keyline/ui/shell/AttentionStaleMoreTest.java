package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Attention;
import io.keyline.domain.KeyState;
import io.keyline.domain.Trigger;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.MainWindowTest;
import io.keyline.ui.common.Format;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An Attention card's More is of the card as it is now: opened before a reload that took the card away (its key was
 * retried elsewhere), it closes; a move chosen from it (a click that came before it closed) is refused with a notice,
 * and the key is left in the state it is in now.
 */
class AttentionStaleMoreTest extends MainWindowTest {

    private static final String KEY = "2026-11-28";

    @Test
    void aMoreOpenedBeforeTheKeyChangedClosesAndItsSkipIsRefused(FxRobot robot) throws Exception {
        fixture("stale-more");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        showQuiet(robot, 1024, 680);
        waitUntil(() -> card(robot) != null);
        MenuButton more = fxValue(robot, () -> (MenuButton) card(robot).lookup(".menu-button"));
        robot.clickOn(more);
        waitUntil(() -> fxValue(robot, more::isShowing));
        MenuItem skip = fxValue(robot, () -> more.getItems().stream()
                .filter(i -> Format.move(Trigger.SKIP).equals(i.getText())).findFirst().orElseThrow());

        // meanwhile the key is re-armed elsewhere, and the page reloads: the card is gone
        assertThat(fx.wb.cli("retry", "daily", KEY).exit()).isZero();
        assertThat(fx.state("daily", KEY)).isEqualTo(KeyState.PENDING);
        robot.interact(() -> console.refresh());
        waitUntil(() -> card(robot) == null && !fxValue(robot, () -> console.model().loadingProperty().get()));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fxValue(robot, () -> Window.getWindows().stream()
                .anyMatch(w -> w instanceof ContextMenu && w.isShowing()))).as("the More of the card that is gone")
                .isFalse();

        // a click on its Skip… that came before it closed, with a note
        robot.interact(skip::fire);
        waitUntil(() -> robot.lookup("#note-text").tryQuery().isPresent());
        robot.clickOn("#note-text").write("not needed");
        robot.clickOn("#note-action");
        waitUntil(() -> fxValue(robot, () -> robot.lookup("#inbox-notice").queryAs(javafx.scene.control.Label.class)
                .getText()).contains(KEY) && !fxValue(robot, () -> console.model().loadingProperty().get()));
        Thread.sleep(500);
        assertThat(fx.state("daily", KEY)).as("the re-armed key after the stale card's Skip").isEqualTo(
                KeyState.PENDING);
        assertThat(fxValue(robot, () -> robot.lookup("#inbox-notice").queryAs(javafx.scene.control.Label.class)
                .getText())).as("what Attention says").contains("Pending").contains("Failed");
    }

    /** The failed key's card, or {@code null}. */
    private static ListCell<?> card(FxRobot robot) {
        return fxValue(robot, () -> robot.lookup("#inbox-list .list-cell").queryAll().stream()
                .map(n -> (ListCell<?>) n).filter(c -> c.isVisible() && c.getItem() instanceof Attention.Item i
                        && i.kind() == Attention.Kind.FAILED && i.keys().contains(KEY)).findFirst().orElse(null));
    }
}
