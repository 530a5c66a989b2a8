package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Threads;
import io.keyline.ui.job.JobViewModel;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key that waits for its job's review is let go by a plan of the job, never by a confirmation of the key (the
 * core refuses that): wherever the console offers the key's moves, the first is Plan…, which opens the job's Plan
 * dialog, and Confirm… is not offered. Seen in the real main window, in English and in Chinese.
 */
@ExtendWith(ApplicationExtension.class)
class ReviewMovesTest {

    static final String REVIEWED = "2026-11-28";
    static final String UNKNOWN = "2026-11-27";
    static final AtomicInteger RUN = new AtomicInteger();

    @TempDir
    static Path tmp;
    Stage stage;
    ConsoleFixture fx;
    ConsoleView console;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        io.keyline.testing.Fx.hideOtherWindows(robot, stage);
        Text.use(Text.ENGLISH);
        if (fx != null) {
            fx.close();
        }
    }

    /** Job daily: one key waits for the job's review, one for a confirmation of an unknown outcome. */
    private void open(FxRobot robot, Locale language) throws Exception {
        Text.use(language);
        fx = new ConsoleFixture(tmp.resolve("moves-" + RUN.incrementAndGet()));
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        Instant now = fx.wb.clock.instant();
        seedWait(UNKNOWN, WaitReason.OUTCOME_UNKNOWN, now);
        seedWait(REVIEWED, WaitReason.REVIEW, now);
        robot.interact(() -> {
            Scene scene = ConsoleApp.scene(fx.services, Threads.javafx());
            console = (ConsoleView) scene.getRoot();
            stage.setScene(scene);
            stage.setWidth(1024);
            stage.setHeight(680);
            stage.show();
        });
    }

    private void seedWait(String key, WaitReason why, Instant now) {
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", key, now));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.NEEDS_CONFIRMATION).withStep("publish", 1)
                        .withWaitReason(why),
                null, new KeyEvent(0, "daily", key, now, "seed", EventType.WAITING_FOR_CONFIRMATION, "publish", 1,
                        KeyState.NEEDS_CONFIRMATION, null, "seeded", null, null, null));
    }

    private void closeFixture() throws Exception {
        fx.close();
        fx = null;
    }

    private static String plan(Locale language) {
        return language == Text.CHINESE ? "计划…" : "Plan…";
    }

    private static String confirm(Locale language) {
        return language == Text.CHINESE ? "确认…" : "Confirm…";
    }

    @Test
    void aReviewKeysTimelineOffersPlanWhichOpensTheJobsPlan(FxRobot robot) throws Exception {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            open(robot, language);
            robot.interact(() -> console.showTimeline("daily", UNKNOWN));
            waitUntil(() -> button(robot, ".timeline-view", confirm(language)).isPresent());

            robot.interact(() -> console.showTimeline("daily", REVIEWED));
            waitUntil(() -> fxValue(robot, () -> robot.lookup(".timeline-view .state-chip").queryAll().stream()
                    .anyMatch(n -> n.getStyleClass().contains("state-needs-review"))));
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(button(robot, ".timeline-view", confirm(language))).as("Confirm… on the review key's page in %s",
                    language).isEmpty();
            Button plan = button(robot, ".timeline-view", plan(language))
                    .orElseThrow(() -> new AssertionError("no Plan… on the review key's page in " + language));
            robot.interact(plan::fire);
            waitUntil(() -> planWindow(robot).isPresent());
            closeFixture();
        }
    }

    @Test
    void theKeyTablesMenuOffersPlanNotConfirmForAReviewKey(FxRobot robot) throws Exception {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            open(robot, language);
            robot.interact(() -> console.showJob("daily"));
            waitUntil(() -> row(robot, REVIEWED).isPresent() && row(robot, UNKNOWN).isPresent());
            WaitForAsyncUtils.waitForFxEvents();

            assertThat(shown(robot, row(robot, UNKNOWN).orElseThrow())).as("a confirmation's menu in %s", language)
                    .contains(confirm(language)).doesNotContain(plan(language));
            List<String> review = shown(robot, row(robot, REVIEWED).orElseThrow());
            assertThat(review).as("the review key's menu in %s", language)
                    .contains(plan(language)).doesNotContain(confirm(language));
            MenuItem plan = fxValue(robot, () -> row(robot, REVIEWED).orElseThrow().getContextMenu().getItems()
                    .stream().filter(i -> i.isVisible() && plan(language).equals(i.getText())).findFirst().orElseThrow());
            robot.interact(plan::fire);
            waitUntil(() -> planWindow(robot).isPresent());
            closeFixture();
        }
    }

    @Test
    void theConfirmDialogOfAReviewKeySaysSoAndOffersPlan(FxRobot robot) throws Exception {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            open(robot, language);
            robot.interact(() -> console.confirm("daily", REVIEWED));
            waitUntil(() -> fxValue(robot, () -> robot.lookup(".confirm-headline").tryQuery()
                    .map(n -> !((Label) n).getText().isEmpty()).orElse(false)));
            WaitForAsyncUtils.waitForFxEvents();
            Label headline = robot.lookup(".confirm-headline").queryAs(Label.class);
            assertThat(fxValue(robot, headline::getText)).as("the headline in %s", language)
                    .isEqualTo(Text.t("core.confirm.reason.REVIEW"));
            assertThat(fxValue(robot, () -> List.copyOf(headline.getStyleClass()))).as("its look in %s", language)
                    .contains("state-needs-review");
            Label probe = robot.lookup(".confirm-probe").queryAs(Label.class);
            assertThat(fxValue(robot, probe::getText)).as("a probe's answer says nothing about a review").isEmpty();
            Button plan = button(robot, ".confirm-dialog", plan(language))
                    .orElseThrow(() -> new AssertionError("no Plan… in the Confirm dialog in " + language));
            robot.interact(plan::fire);
            waitUntil(() -> planWindow(robot).isPresent());
            closeFixture();
        }
    }

    private static Optional<Button> button(FxRobot robot, String in, String text) {
        return fxValue(robot, () -> robot.lookup(in + " .button").queryAll().stream()
                .filter(n -> n instanceof Button b && text.equals(b.getText()) && visible(b))
                .map(n -> (Button) n).findFirst());
    }

    private static boolean visible(Node n) {
        for (Node at = n; at != null; at = at.getParent()) {
            if (!at.isVisible()) {
                return false;
            }
        }
        return n.getScene() != null && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing();
    }

    private static Optional<TableRow<?>> row(FxRobot robot, String key) {
        return fxValue(robot, () -> robot.lookup("#key-table .table-row-cell").queryAll().stream()
                .<TableRow<?>>map(n -> (TableRow<?>) n)
                .filter(r -> r.getItem() instanceof JobViewModel.KeyRow k && k.key().equals(key)
                        && r.getContextMenu() != null)
                .findFirst());
    }

    private static List<String> shown(FxRobot robot, TableRow<?> row) {
        return fxValue(robot, () -> row.getContextMenu().getItems().stream().filter(MenuItem::isVisible)
                .map(MenuItem::getText).toList());
    }

    private static Optional<Window> planWindow(FxRobot robot) {
        String title = Text.t("ui.plan.windowTitle", "daily");
        return fxValue(robot, () -> Window.getWindows().stream()
                .filter(w -> w.isShowing() && w instanceof Stage s && title.equals(s.getTitle())).findFirst());
    }
}
