package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Attention;
import io.keyline.domain.Trigger;
import io.keyline.testing.Fx;
import io.keyline.testing.TestSite.Fault;
import io.keyline.text.Text;
import io.keyline.ui.MainWindowTest;
import io.keyline.ui.common.Format;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuButton;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Attention's More opens the moves of the card it sits on: the list reuses its cells for other items as it
 * reloads, and a popup does not always redraw items whose visibility changed while it was hidden (the key table
 * showed another key's moves that way). Each card's menu is read as the popup shows it, card after card, after
 * each reload.
 */
class AttentionMoreMenuTest extends MainWindowTest {

    @Test
    void eachMoreOpensTheMovesOfItsOwnCardAfterTheListReloads(FxRobot robot) throws Exception {
        fixture("more");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        fx.wb.job("login", Jobs.publish("login", "unsafe", false, "\"credential\": \"site-cookie\","),
                fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie").exit()).isZero();
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isEqualTo(2);
        show(robot, 1280, 860);

        List<String> seen = new ArrayList<>();
        // each round adds a card of another kind: the list reloads and its cells take other items
        List<Runnable> next = List.of(
                () -> {
                    fx.site.failPosts(Fault.STATUS_502);
                    assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-29").exit()).isEqualTo(4);
                },
                () -> {
                    fx.site.failPosts(Fault.STATUS_404);
                    assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-27").exit()).isEqualTo(2);
                },
                () -> {
                    fx.site.requireCookie("session=v2");
                    assertThat(fx.wb.cli("run", "login", "--key", "2026-11-29").exit()).isEqualTo(4);
                });
        for (int round = 0; round <= next.size(); round++) {
            robot.interact(() -> console.refresh());
            waitUntil(() -> !console.model().loadingProperty().get() && !cells(robot).isEmpty());
            Thread.sleep(300);
            WaitForAsyncUtils.waitForFxEvents();
            List<String> ids = fxValue(robot, () -> cells(robot).stream().filter(c -> c.getItem().kind()
                != Attention.Kind.MISSING).map(c -> c.getItem().id()).toList());
            // last card first, then the first: not the order the cells were filled in
            List<String> order = new ArrayList<>(ids);
            java.util.Collections.reverse(order);
            order.addAll(ids);
            for (String id : order) {
                ListCell<Attention.Item> cell = fxValue(robot, () -> cells(robot).stream()
                        .filter(c -> c.getItem().id().equals(id)).findFirst().orElseThrow());
                Attention.Item item = fxValue(robot, cell::getItem);
                if (item.kind() == Attention.Kind.MISSING) {
                    continue;
                }
                MenuButton more = fxValue(robot, () -> (MenuButton) cell.lookup(".menu-button"));
                robot.clickOn(more);
                waitUntil(() -> fxValue(robot, () -> Window.getWindows().stream()
                        .anyMatch(w -> w instanceof ContextMenu && w.isShowing())));
                WaitForAsyncUtils.waitForFxEvents();
                ContextMenu menu = fxValue(robot, () -> (ContextMenu) Window.getWindows().stream()
                        .filter(w -> w instanceof ContextMenu && w.isShowing()).findFirst().orElseThrow());
                List<String> shown = Fx.shownItems(robot, menu);
                robot.interact(more::hide);
                WaitForAsyncUtils.waitForFxEvents();
                assertThat(shown).as("More on %s (%s), round %d", item.title(), item.state(), round)
                        .containsExactlyElementsOf(expected(item));
                seen.add(item.state() + "");
            }
            if (round < next.size()) {
                next.get(round).run();
            }
        }
        assertThat(seen).as("the kinds of card whose More was read").contains("FAILED", "NEEDS_CONFIRMATION",
                "NEEDS_CREDENTIAL");

        // a move chosen from a card's More asks about that card's keys
        List<String> ids = fxValue(robot, () -> cells(robot).stream().filter(c -> c.getItem().kind()
                != Attention.Kind.MISSING).map(c -> c.getItem().id()).toList());
        for (String id : List.of(ids.get(ids.size() - 1), ids.get(0))) {
            ListCell<Attention.Item> cell = fxValue(robot, () -> cells(robot).stream()
                    .filter(c -> c.getItem().id().equals(id)).findFirst().orElseThrow());
            Attention.Item item = fxValue(robot, cell::getItem);
            robot.clickOn(fxValue(robot, () -> (MenuButton) cell.lookup(".menu-button")));
            waitUntil(() -> fxValue(robot, () -> Window.getWindows().stream()
                    .anyMatch(w -> w instanceof ContextMenu && w.isShowing())));
            ContextMenu menu = fxValue(robot, () -> (ContextMenu) Window.getWindows().stream()
                    .filter(w -> w instanceof ContextMenu && w.isShowing()).findFirst().orElseThrow());
            Fx.choose(robot, menu, Format.move(Trigger.SKIP));
            waitUntil(() -> robot.lookup(".note-dialog .page-title").tryQuery().isPresent());
            String what = item.keys().size() == 1 ? item.firstJob() + " " + item.key() : item.keysText();
            assertThat(fxValue(robot, () -> ((javafx.scene.control.Label) robot.lookup(".note-dialog .page-title")
                    .query()).getText())).as("Skip… from the More of %s", item.title())
                    .isEqualTo(Text.t("ui.move.noteTitle", Text.t("ui.move.skip"), what));
            robot.clickOn("#note-cancel");
            waitUntil(() -> robot.lookup(".note-dialog").tryQuery().isEmpty());
        }
    }

    /** What the card's item offers, in the order More lists it. */
    private static List<String> expected(Attention.Item item) {
        List<String> out = new ArrayList<>(List.of(Text.t("ui.inbox.timeline")));
        for (Trigger t : List.of(Trigger.MARK_DONE, Trigger.SKIP)) {
            if (item.moves().allows(t)) {
                out.add(Format.move(t));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<ListCell<Attention.Item>> cells(FxRobot robot) {
        return robot.lookup("#inbox-list .list-cell").queryAll().stream().map(n -> (ListCell<Attention.Item>) n)
                .filter(c -> c.isVisible() && !c.isEmpty() && c.getItem() != null).toList();
    }
}
