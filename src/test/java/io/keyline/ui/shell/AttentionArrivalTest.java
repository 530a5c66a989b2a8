package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Attention;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.MainWindowTest;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arriving at Attention (Ctrl+1, or the list's first items) highlights its first row in the focused list, so T
 * opens that key's timeline at once; a key pressed on arrival only looks: Enter opens the timeline too, and
 * nothing runs or is sent until the operator picks a row. The first row here is an interrupted key, whose action
 * (Run now) would send its unsafe POST at once.
 */
class AttentionArrivalTest extends MainWindowTest {

    static final String INTERRUPTED = "2026-11-28";
    static final String FAILED = "2026-11-29";

    /** Job p: a key a killed run left at publish an hour ago (first in the list); job q: a key that failed. */
    private void open(FxRobot robot) throws Exception {
        fixture("arrival");
        fx.wb.job("p", Jobs.publish("p", "unsafe", false, null), fx.site.base());
        fx.wb.job("q", Jobs.publish("q", "unsafe", false, null), fx.site.base());
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "q", "--key", FAILED).exit()).isEqualTo(2);
        Instant now = fx.wb.clock.instant();
        Instant then = now.minus(Duration.ofHours(1));
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("p", INTERRUPTED, then));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.RUNNING).withStep("publish", 1)
                        .withLease("20261129T085900-abcdef", "elsewhere/4242/deadbeef", now.minus(Duration.ofMinutes(1)))
                        .withUpdatedAt(then),
                null, new KeyEvent(0, "p", INTERRUPTED, then, "20261129T085900-abcdef", EventType.CLAIMED, null, 0,
                        KeyState.RUNNING, null, "run started", null, null, null));
        showQuiet(robot, 1280, 860);
        waitUntil(() -> inbox(robot).getItems().stream().filter(i -> i.waitingKeys() > 0).count() == 2);
        assertThat(inbox(robot).getItems().get(0).key()).as("the interrupted key comes first").isEqualTo(INTERRUPTED);
    }

    @SuppressWarnings("unchecked")
    private static ListView<Attention.Item> inbox(FxRobot robot) {
        return robot.lookup("#inbox-list").queryAs(ListView.class);
    }

    private List<Window> dialogs() {
        return Window.getWindows().stream().filter(w -> w != stage && w.isShowing()).toList();
    }

    /** The job and key of the timeline on screen, "p 2026-11-28", or empty when none shows. */
    private static String timeline(FxRobot robot) {
        return fxValue(robot, () -> {
            if (robot.lookup("#timeline-back").tryQuery().map(n -> n.getScene() == null).orElse(true)) {
                return "";
            }
            String job = robot.lookup(".timeline-job-link").queryAs(Hyperlink.class).getText();
            String key = robot.lookup(".timeline-header .page-title").queryAll().stream()
                    .map(n -> ((Label) n).getText()).filter(t -> !t.equals("·")).findFirst().orElse("");
            return job + " " + key;
        });
    }

    /** The keys' hint at the end of the list's subtitle. */
    private static String hint(FxRobot robot) {
        String subtitle = fxValue(robot, () -> robot.lookup("#inbox-subtitle").queryAs(Label.class).getText());
        return subtitle.substring(subtitle.lastIndexOf("  \u00B7  ") + 5);
    }

    @Test
    void inChineseTheHintSaysWhatEnterDoesOnArrivalAndOncePicked(FxRobot robot) throws Exception {
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        open(robot);
        ListView<Attention.Item> list = inbox(robot);
        assertThat(within5s(() -> list.getSelectionModel().getSelectedIndex() == 0 && list.isFocused())).isTrue();
        assertThat(hint(robot)).isEqualTo("J/K 或单击选定一行；选定之前 Enter 只打开它的时间线；T 查看时间线");
        robot.type(KeyCode.J);
        assertThat(hint(robot)).isEqualTo("J/K 移动，Enter 执行，T 查看时间线");
    }

    /** Waits up to 5 s for {@code condition}; whether it came. */
    private static boolean within5s(Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < end) {
            WaitForAsyncUtils.waitForFxEvents();
            if (condition.call()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static void ctrl(FxRobot robot, KeyCode code) {
        robot.press(KeyCode.CONTROL).type(code).release(KeyCode.CONTROL);
    }

    @Test
    void ctrl1ThenTOpensTheFirstKeysTimelineAndSendsNothing(FxRobot robot) throws Exception {
        open(robot);
        long posts = fx.site.posts();
        // from another page: the job's
        robot.interact(() -> console.showJob("q"));
        waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false));

        ctrl(robot, KeyCode.DIGIT1);
        robot.type(KeyCode.T);
        assertThat(within5s(() -> !timeline(robot).isEmpty())).as("T right after Ctrl+1 opens a timeline").isTrue();
        assertThat(timeline(robot)).as("the first attention key's").isEqualTo("p " + INTERRUPTED);

        // back on Attention, Enter only looks too: the timeline, not Run now
        robot.type(KeyCode.ESCAPE);
        waitUntil(() -> timeline(robot).isEmpty());
        ctrl(robot, KeyCode.DIGIT1);
        robot.type(KeyCode.ENTER);
        assertThat(within5s(() -> !timeline(robot).isEmpty())).as("Enter right after Ctrl+1 opens a timeline").isTrue();
        assertThat(timeline(robot)).isEqualTo("p " + INTERRUPTED);

        // and Ctrl+Enter on arrival does nothing at all
        robot.type(KeyCode.ESCAPE);
        waitUntil(() -> timeline(robot).isEmpty());
        ctrl(robot, KeyCode.DIGIT1);
        ctrl(robot, KeyCode.ENTER);
        Thread.sleep(500);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(dialogs()).as("no dialog opens on arrival").isEmpty();
        assertThat(timeline(robot)).isEmpty();

        Thread.sleep(500);
        assertThat(fx.site.posts()).as("nothing was sent to the site").isEqualTo(posts);
        assertThat(fx.state("p", INTERRUPTED)).as("the interrupted key did not run").isEqualTo(KeyState.RUNNING);
    }

    @Test
    void theListFirstShownWithItemsHighlightsAndFocusesItsFirstRow(FxRobot robot) throws Exception {
        open(robot);
        long posts = fx.site.posts();
        ListView<Attention.Item> list = inbox(robot);
        assertThat(within5s(() -> list.getSelectionModel().getSelectedIndex() == 0 && list.isFocused()))
                .as("the first row is highlighted in the focused list (selected %s, focus on %s)",
                        fxValue(robot, () -> list.getSelectionModel().getSelectedIndex()),
                        fxValue(robot, () -> stage.getScene().getFocusOwner()))
                .isTrue();
        // the hint says what Enter does now: it only looks until a row is picked
        assertThat(hint(robot)).isEqualTo("J/K or a click picks a row; until then Enter opens its timeline; T timeline");
        robot.type(KeyCode.T);
        assertThat(within5s(() -> !timeline(robot).isEmpty())).isTrue();
        assertThat(timeline(robot)).isEqualTo("p " + INTERRUPTED);

        // once the operator picks the row (the first J picks it, as it picked the first row before), Enter acts on
        // it as always
        robot.type(KeyCode.ESCAPE);
        waitUntil(() -> timeline(robot).isEmpty());
        assertThat(fx.site.posts()).as("nothing was sent on arrival").isEqualTo(posts);
        robot.type(KeyCode.J);
        assertThat(fxValue(robot, () -> list.getSelectionModel().getSelectedItem().key())).isEqualTo(INTERRUPTED);
        assertThat(hint(robot)).isEqualTo("J/K move, Enter acts, T timeline");
        robot.type(KeyCode.ENTER);
        waitUntil(() -> fx.state("p", INTERRUPTED) == KeyState.DONE);
        assertThat(fx.site.posts() - posts).as("Run now on the picked row sends its POST").isEqualTo(1);
    }
}
