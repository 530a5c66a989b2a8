package io.keyline.ui.shell;

import io.keyline.core.operations.Attention;
import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.ui.MainWindowTest;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Attention item the keyboard highlighted stays the highlighted one across the console's reloads — the same item,
 * not the same row: a reload that changes what it says, or brings an older item above it. It is drawn highlighted,
 * and Enter acts on it (its Confirm opens), not on the item that took its row.
 */
class AttentionHighlightTest extends MainWindowTest {

    @Test
    void theItemHighlightedByTheKeyboardStaysHighlightedWhenAReloadChangesItOrAddsOneAboveIt(FxRobot robot)
            throws Exception {
        fixture("highlight");
        fx.publishJob("daily", null);
        Instant start = fx.wb.clock.instant();
        waits("2026-11-25", start.minus(Duration.ofMinutes(30)), "the answer was lost");
        waits("2026-11-26", start.minus(Duration.ofMinutes(20)), "the answer was lost");
        waits("2026-11-27", start.minus(Duration.ofMinutes(10)), "the answer was lost");
        showQuiet(robot, 1024, 680);
        ListView<Attention.Item> list = list(robot);
        waitUntil(() -> fxValue(robot, () -> confirmations(list)) == 3);
        robot.interact(list::requestFocus);
        for (int i = 0; i < 4 && !"2026-11-26".equals(fxValue(robot, () -> keyOf(list.getSelectionModel()
                .getSelectedItem()))); i++) {
            robot.push(KeyCode.J);
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertThat(drawn(robot, list)).as("highlighted by J").containsExactly("selection 2026-11-26",
                "drawn 2026-11-26");

        // a minute later, the highlighted key says something else
        KeyRecord k = fx.ws.store().key("daily", "2026-11-26").orElseThrow();
        fx.ws.store().apply(k, k.withFailure(FailureClass.AMBIGUOUS, "the answer was lost again"), null,
                event("2026-11-26", k.updatedAt()));
        fx.wb.clock.advance(Duration.ofMinutes(1));
        refresh(robot, list, () -> list.getItems().stream().anyMatch(i -> i.reason().contains("again")));
        assertThat(drawn(robot, list)).as("after a reload that changed it").containsExactly("selection 2026-11-26",
                "drawn 2026-11-26");
        assertThat(enterConfirms(robot, list)).as("Enter after the reload").isEqualTo("2026-11-26");

        // an older key arrives above it
        waits("2026-11-24", start.minus(Duration.ofMinutes(40)), "the answer was lost");
        refresh(robot, list, () -> confirmations(list) == 4);
        assertThat(fxValue(robot, () -> keyOf(list.getItems().get(0)))).as("the new item is first")
                .isEqualTo("2026-11-24");
        assertThat(drawn(robot, list)).as("after a reload that added an item above it")
                .containsExactly("selection 2026-11-26", "drawn 2026-11-26");

        assertThat(enterConfirms(robot, list)).as("Enter after the reloads").isEqualTo("2026-11-26");
    }

    /** Presses Enter in the list; the key whose Confirm it opened (which is then cancelled: nothing is sent). */
    private String enterConfirms(FxRobot robot, ListView<Attention.Item> list) throws Exception {
        robot.interact(list::requestFocus);
        robot.push(KeyCode.ENTER);
        waitUntil(() -> robot.lookup("#confirm-and-run").tryQuery().isPresent());
        String title = fxValue(robot, () -> Window.getWindows().stream().filter(w -> w != stage && w.isShowing()
                && w instanceof Stage).map(w -> ((Stage) w).getTitle()).findFirst().orElse(""));
        robot.clickOn("#confirm-cancel");
        WaitForAsyncUtils.waitForFxEvents();
        return java.util.stream.Stream.of("2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27")
                .filter(title::contains).findFirst().orElse(title);
    }

    @SuppressWarnings("unchecked")
    private static ListView<Attention.Item> list(FxRobot robot) {
        return robot.lookup("#inbox-list").queryAs(ListView.class);
    }

    /** Reloads as the 3-second ticker does and waits until the list holds fresh items that meet {@code done}. */
    private void refresh(FxRobot robot, ListView<Attention.Item> list, java.util.concurrent.Callable<Boolean> done)
            throws Exception {
        List<Attention.Item> before = fxValue(robot, () -> List.copyOf(list.getItems()));
        robot.interact(() -> console.refresh());
        waitUntil(() -> fxValue(robot, () -> !console.model().loadingProperty().get()
                && before.stream().noneMatch(b -> b == list.getItems().get(0)) && done.call()));
    }

    /** What the page says is highlighted: the list's selection and the rows drawn highlighted. */
    private List<String> drawn(FxRobot robot, ListView<Attention.Item> list) {
        return fxValue(robot, () -> {
            list.layout();
            List<String> out = new ArrayList<>();
            out.add("selection " + keyOf(list.getSelectionModel().getSelectedItem()));
            for (javafx.scene.Node n : list.lookupAll(".list-cell")) {
                if (n instanceof ListCell<?> c && c.isVisible() && c.getItem() instanceof Attention.Item i
                        && c.getPseudoClassStates().contains(javafx.css.PseudoClass.getPseudoClass("selected"))) {
                    out.add("drawn " + keyOf(i));
                }
            }
            return out;
        });
    }

    /** The items that wait for a confirmation (the job's keys that never ran are one more item). */
    private static long confirmations(ListView<Attention.Item> list) {
        return list.getItems().stream().filter(i -> i.kind() == Attention.Kind.CONFIRMATION).count();
    }

    private static String keyOf(Attention.Item i) {
        return i == null ? null : i.key();
    }

    /** Key {@code key} of daily waits for a confirmation of publish since {@code since}, its answer lost. */
    private void waits(String key, Instant since, String message) {
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", key, since));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.NEEDS_CONFIRMATION).withStep("publish", 1)
                .withWaitReason(WaitReason.OUTCOME_UNKNOWN).withFailure(FailureClass.AMBIGUOUS, message)
                .withUpdatedAt(since), null, event(key, since));
    }

    private static KeyEvent event(String key, Instant at) {
        return new KeyEvent(0, "daily", key, at, "seed", EventType.CLAIMED, null, 0, KeyState.NEEDS_CONFIRMATION, null,
                "seeded", null, null, null);
    }
}
