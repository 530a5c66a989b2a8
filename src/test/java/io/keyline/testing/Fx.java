package io.keyline.testing;

import javafx.event.Event;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Labeled;
import javafx.scene.control.MenuItem;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.input.PickResult;
import javafx.stage.Window;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** What the console's TestFX tests share: waiting for the screen, and reading it on the FX thread. */
public final class Fx {

    private Fx() {
    }

    /** Waits up to 20 s for {@code condition}, then for the FX events it left queued. */
    public static void waitUntil(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, condition);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** {@code read} on the FX thread; its value here. */
    public static <T> T fxValue(FxRobot robot, Callable<T> read) {
        AtomicReference<T> out = new AtomicReference<>();
        robot.interact(() -> {
            try {
                out.set(read.call());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return out.get();
    }

    /** Hides every window but {@code stage} (the dialogs a test opened), so that the next test starts alone. */
    public static void hideOtherWindows(FxRobot robot, javafx.stage.Window stage) {
        robot.interact(() -> {
            for (javafx.stage.Window w : javafx.stage.Window.getWindows().stream().toList()) {
                if (w != stage) {
                    w.hide();
                }
            }
        });
    }

    /**
     * Clicks the middle of the node {@code on} finds: {@code on} runs on the FX thread just before the click, so a
     * table that rebuilt its cells since the test waited gives the node it shows now, not one it dropped. The node
     * must be on the screen and enabled.
     */
    public static void clickOn(FxRobot robot, Callable<Node> on) {
        Point2D middle = fxValue(robot, () -> {
            Node node = on.call();
            assertThat(node).as("the node to click").isNotNull();
            assertThat(node.getScene()).as("%s is on the screen", node).isNotNull();
            assertThat(node.isDisabled()).as("%s is disabled", node).isFalse();
            javafx.geometry.Bounds b = node.localToScreen(node.getBoundsInLocal());
            return new Point2D(b.getCenterX(), b.getCenterY());
        });
        robot.clickOn(middle);
    }

    /**
     * Opens the menu a right click on {@code on} (its first cell, if it has cells) opens and returns the popup that
     * shows (headless, a press of the secondary button raises no menu request, so the request a right click makes is
     * raised on the node).
     */
    public static ContextMenu rightClick(FxRobot robot, Node on) {
        return rightClick(robot, () -> on);
    }

    /**
     * Opens the menu a right click on the node {@code on} finds opens: {@code on} runs in the same FX event as the
     * request, as the scene picks the node under the pointer when the button is pressed.
     */
    public static ContextMenu rightClick(FxRobot robot, Callable<Node> on) {
        AtomicReference<Node> clicked = new AtomicReference<>();
        robot.interact(() -> {
            Node picked;
            try {
                picked = on.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            Node node = picked.lookup(".table-cell") != null ? picked.lookup(".table-cell") : picked;
            clicked.set(picked);
            Point2D local = node.localToScene(8, 8);
            Point2D screen = node.localToScreen(8, 8);
            Event.fireEvent(node, new ContextMenuEvent(ContextMenuEvent.CONTEXT_MENU_REQUESTED, local.getX(),
                    local.getY(), screen.getX(), screen.getY(), false,
                    new PickResult(node, local.getX(), local.getY())));
        });
        WaitForAsyncUtils.waitForFxEvents();
        return fxValue(robot, () -> Window.getWindows().stream()
                .filter(w -> w.isShowing() && w instanceof ContextMenu).map(w -> (ContextMenu) w).findFirst()
                .orElseThrow(() -> new AssertionError("a right click on " + clicked.get() + " opened no menu")));
    }

    /** The items the menu's popup shows, as the operator reads them (not the items it holds). */
    public static List<String> shownItems(FxRobot robot, ContextMenu menu) {
        return fxValue(robot, () -> menu.getScene().getRoot().lookupAll(".menu-item").stream()
                .filter(n -> n.isVisible() && n.isManaged()).map(n -> ((Labeled) n.lookup(".label")).getText())
                .toList());
    }

    /** Chooses the shown item {@code text} of the menu, as a click on it does. */
    public static void choose(FxRobot robot, ContextMenu menu, String text) {
        assertThat(shownItems(robot, menu)).as("the menu's items").contains(text);
        MenuItem item = fxValue(robot, () -> menu.getItems().stream()
                .filter(i -> i.isVisible() && text.equals(i.getText())).findFirst().orElseThrow());
        robot.interact(() -> {
            menu.hide();
            item.fire();
        });
    }
}
