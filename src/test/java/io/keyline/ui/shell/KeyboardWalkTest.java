package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Attention;
import io.keyline.domain.KeyState;
import io.keyline.testing.Fx;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.MainWindowTest;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console walked with the keyboard only — J and K, arrows, Enter, Space, Escape, the menu key — on the Attention
 * page, the job page and the plan dialog, and in every window those keys open: no key sends a request, confirms a
 * key or renews a login unless the operator moved the focus onto the button that does it, as the mouse must click
 * it. Every key that waits for a person, and the site, are as they were after the walk.
 */
class KeyboardWalkTest extends MainWindowTest {

    @Test
    void noKeyPressSendsWithoutTheConfirmationTheMouseNeeds(FxRobot robot) throws Exception {
        fixture("walk");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", true, null), fx.site.base());
        fx.wb.job("login", Jobs.publish("login", "unsafe", true, "\"credential\": \"site-cookie\","),
                fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie").exit()).isZero();
        assertThat(fx.wb.cli("approve", "daily").exit()).isZero();
        assertThat(fx.wb.cli("approve", "login").exit()).isZero();
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "--yes", "daily", "--key", "2026-11-27").exit()).isEqualTo(2);
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.wb.cli("run", "--yes", "daily", "--key", "2026-11-28").exit()).isEqualTo(4);
        fx.site.requireCookie("session=v2");
        assertThat(fx.wb.cli("run", "--yes", "login", "--key", "2026-11-28").exit()).isEqualTo(4);
        Map<String, KeyState> before = states();
        assertThat(before).containsEntry("daily 2026-11-27", KeyState.FAILED)
                .containsEntry("daily 2026-11-28", KeyState.NEEDS_CONFIRMATION)
                .containsEntry("login 2026-11-28", KeyState.NEEDS_CREDENTIAL);
        long posts = fx.site.posts();
        List<String> sent = new ArrayList<>();

        showQuiet(robot, 1024, 680);
        ListView<?> list = robot.lookup("#inbox-list").queryAs(ListView.class);
        waitUntil(() -> fxValue(robot, () -> list.getItems().stream().filter(i -> ((Attention.Item) i).kind()
                != Attention.Kind.MISSING).count()) >= 3);
        robot.interact(list::requestFocus);
        // the highlight of arrival: Enter opens its timeline, Escape comes back
        walk(robot, "Attention on arrival", sent, posts, before, KeyCode.ENTER, KeyCode.SPACE, KeyCode.ESCAPE);
        int items = fxValue(robot, () -> list.getItems().size());
        for (int i = 0; i < items; i++) {
            robot.interact(list::requestFocus);
            walk(robot, "Attention, item " + (i + 1), sent, posts, before, KeyCode.J, KeyCode.ENTER);
            // in whatever Enter opened (a confirmation, a retry, a renewal, a plan): its keys without Tab
            walk(robot, "the window item " + (i + 1) + "'s Enter opened (" + windows(robot) + ")", sent, posts,
                    before, KeyCode.ENTER, KeyCode.SPACE, KeyCode.ENTER, KeyCode.DOWN, KeyCode.SPACE, KeyCode.ESCAPE);
            Fx.hideOtherWindows(robot, stage);
        }

        // a renewal: the new value typed where the dialog put the focus, then Enter (the mouse must click Save)
        robot.interact(() -> console.renewCredential("site-cookie"));
        waitUntil(() -> !windows(robot).isEmpty());
        Thread.sleep(500);
        robot.write("Cookie: session=v2");
        walk(robot, "the renewal, its value typed (" + windows(robot) + ")", sent, posts, before, KeyCode.ENTER,
                KeyCode.ENTER, KeyCode.ESCAPE);
        Fx.hideOtherWindows(robot, stage);

        robot.interact(() -> console.showJob("daily"));
        waitUntil(() -> fxValue(robot, () -> robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class)
                .getItems().size()) == 2);
        robot.interact(() -> robot.lookup("#key-table").query().requestFocus());
        walk(robot, "the job page", sent, posts, before, KeyCode.J, KeyCode.K, KeyCode.SPACE, KeyCode.DOWN,
                KeyCode.UP, KeyCode.ENTER, KeyCode.ESCAPE);
        for (int down = 0; down < 5; down++) {
            robot.interact(() -> robot.lookup("#key-table").query().requestFocus());
            List<KeyCode> keys = new ArrayList<>(List.of(KeyCode.J, KeyCode.CONTEXT_MENU));
            for (int d = 0; d < down; d++) {
                keys.add(KeyCode.DOWN);
            }
            keys.add(KeyCode.ENTER);
            walk(robot, "the job page's menu, item " + (down + 1), sent, posts, before, keys.toArray(KeyCode[]::new));
            walk(robot, "what the menu's item " + (down + 1) + " opened (" + windows(robot) + ")", sent, posts,
                    before, KeyCode.ENTER, KeyCode.SPACE, KeyCode.ENTER, KeyCode.ESCAPE);
            Fx.hideOtherWindows(robot, stage);
            robot.interact(() -> console.showJob("daily"));
        }

        robot.interact(() -> console.plan("daily"));
        waitUntil(() -> robot.lookup("#plan-run").tryQuery().isPresent());
        walk(robot, "the plan dialog", sent, posts, before, KeyCode.ENTER, KeyCode.SPACE, KeyCode.F5);
        Thread.sleep(2000);
        walk(robot, "the plan dialog, planned (" + windows(robot) + ")", sent, posts, before, KeyCode.ENTER,
                KeyCode.SPACE, KeyCode.DOWN, KeyCode.ENTER, KeyCode.SPACE, KeyCode.ESCAPE);

        assertThat(sent).as("key presses that sent, confirmed or renewed without the focus on the button that does it")
                .isEmpty();
    }

    /** Presses {@code keys} one by one; after each, notes in {@code sent} a request or a changed key. */
    private void walk(FxRobot robot, String where, List<String> sent, long posts, Map<String, KeyState> before,
                      KeyCode... keys) throws Exception {
        for (KeyCode k : keys) {
            robot.push(k);
            WaitForAsyncUtils.waitForFxEvents();
            Thread.sleep(400);
            WaitForAsyncUtils.waitForFxEvents();
            String focus = fxValue(robot, () -> Window.getWindows().stream().filter(Window::isFocused)
                    .map(w -> w.getScene() == null || w.getScene().getFocusOwner() == null ? "nothing"
                            : w.getScene().getFocusOwner().toString()).findFirst().orElse("no window"));
            if (fx.site.posts() != posts) {
                sent.add(where + ": " + k + " sent " + (fx.site.posts() - posts) + " POST (focus on " + focus + ")");
                return;
            }
            Map<String, KeyState> now = states();
            if (!now.equals(before)) {
                sent.add(where + ": " + k + " changed " + before + " to " + now + " (focus on " + focus + ")");
                return;
            }
        }
    }

    private Map<String, KeyState> states() {
        Map<String, KeyState> m = new LinkedHashMap<>();
        for (String k : List.of("daily 2026-11-27", "daily 2026-11-28", "login 2026-11-28")) {
            String[] p = k.split(" ");
            m.put(k, fx.state(p[0], p[1]));
        }
        return m;
    }

    private String windows(FxRobot robot) {
        return fxValue(robot, () -> String.join(", ", Window.getWindows().stream().filter(w -> w != stage
                && w.isShowing()).map(w -> w instanceof Stage s ? s.getTitle() : w.getClass().getSimpleName())
                .toList()));
    }
}
