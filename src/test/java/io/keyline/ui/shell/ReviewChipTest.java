package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Attention;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.text.Text;
import io.keyline.ui.job.Heatmap;
import io.keyline.ui.job.JobViewModel;
import io.keyline.ui.MainWindowTest;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableCell;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javafx.scene.control.Button;
import javafx.scene.control.TableRow;
import javafx.stage.Window;
import org.testfx.util.WaitForAsyncUtils;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key that waits for its job's review wears its own chip and colour wherever the console shows a key's state:
 * nothing was sent, so it must not read as a confirmation of an outcome that may have changed the world; and its
 * moves lead to the job's review (Plan…), never to a confirmation. Seen in the real main window, in English and in
 * Chinese.
 */
class ReviewChipTest extends MainWindowTest {

    static final String REVIEWED = "2026-11-28";
    static final String UNKNOWN = "2026-11-27";
    static final String DONE = "2026-11-26";

    /** Job daily: one key waits for the job's review, one for a confirmation of an unknown outcome, one is done. */
    private void open(FxRobot robot, Locale language) throws Exception {
        Text.use(language);
        fixture("review");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        assertThat(fx.wb.cli("run", "daily", "--key", DONE).exit()).isZero();
        Instant now = fx.wb.clock.instant();
        seedWait(UNKNOWN, WaitReason.OUTCOME_UNKNOWN, now);
        seedWait(REVIEWED, WaitReason.REVIEW, now);
        show(robot, 1024, 680);
    }

    private void seedWait(String key, WaitReason why, Instant now) {
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", key, now));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.NEEDS_CONFIRMATION).withStep("publish", 1)
                        .withWaitReason(why),
                null, new KeyEvent(0, "daily", key, now, "seed", EventType.WAITING_FOR_CONFIRMATION, "publish", 1,
                        KeyState.NEEDS_CONFIRMATION, null, "seeded", null, null, null).withWaitReason(why));
    }

    private static String review(Locale language) {
        return language == Text.CHINESE ? "待审核" : "Needs review";
    }

    /** The review's chip, as chips, the legend and the filter name it (its accessible text is {@link #review}). */
    private static String reviewChip(Locale language) {
        return language == Text.CHINESE ? "待审核" : "To review";
    }

    private static String pending(Locale language) {
        return language == Text.CHINESE ? "待运行" : "Pending";
    }

    @Test
    void attentionShowsAReviewWaitAsNeedsReview(FxRobot robot) throws Exception {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            open(robot, language);
            waitUntil(() -> chipOf(robot, Attention.Kind.REVIEW).isPresent()
                    && chipOf(robot, Attention.Kind.CONFIRMATION).isPresent());
            Label chip = chipOf(robot, Attention.Kind.REVIEW).orElseThrow();
            Label confirm = chipOf(robot, Attention.Kind.CONFIRMATION).orElseThrow();
            assertThat(fxValue(robot, chip::getText)).as("the review item's chip in %s", language)
                    .isEqualTo(reviewChip(language));
            assertThat(fxValue(robot, chip::getAccessibleText)).as("the review item's chip read aloud in %s", language)
                    .isEqualTo(review(language));
            assertThat(fxValue(robot, () -> List.copyOf(chip.getStyleClass()))).as("its style in %s", language)
                    .contains("state-needs-review").doesNotContain("state-needs-confirmation");
            assertThat(fxValue(robot, chip::getText)).as("the confirmation item's chip in %s", language)
                    .isNotEqualTo(fxValue(robot, confirm::getText));
            assertThat(fxValue(robot, () -> List.copyOf(confirm.getStyleClass())))
                    .contains("state-needs-confirmation");
            assertThat(background(robot, chip)).as("the review chip's colour in %s", language)
                    .isNotEqualTo(background(robot, confirm));
            closeFixture();
        }
    }

    @Test
    void theJobPageShowsAReviewWaitAsNeedsReviewInItsTableHeatmapAndLegend(FxRobot robot) throws Exception {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            open(robot, language);
            robot.interact(() -> console.showJob("daily"));
            waitUntil(() -> robot.lookup("#key-table").tryQuery().map(Node::isVisible).orElse(false)
                    && chipInTable(robot, REVIEWED).isPresent() && chipInTable(robot, UNKNOWN).isPresent()
                    && !robot.lookup("#heatmap").queryAs(Heatmap.class).viewProperty().get().cells().isEmpty());
            Thread.sleep(300);
            org.testfx.util.WaitForAsyncUtils.waitForFxEvents();

            Label chip = chipInTable(robot, REVIEWED).orElseThrow();
            // in the chip's short words, which leave the table's room to Outcome, and in full for a screen reader
            assertThat(fxValue(robot, chip::getText)).as("the key table's chip in %s", language)
                    .isEqualTo(reviewChip(language));
            assertThat(fxValue(robot, chip::getAccessibleText)).as("the key table's chip read aloud in %s", language)
                    .isEqualTo(review(language));
            assertThat(fxValue(robot, () -> List.copyOf(chip.getStyleClass()))).as("its style in %s", language)
                    .contains("state-needs-review").doesNotContain("state-needs-confirmation");
            assertThat(fxValue(robot, () -> chipInTable(robot, UNKNOWN).orElseThrow().getStyleClass().contains(
                    "state-needs-confirmation"))).as("a confirmation keeps its chip").isTrue();
            assertThat(fxValue(robot, () -> io.keyline.ui.common.Cut.isCut(chip))).as("the chip in %s is whole",
                    language).isFalse();

            // the legend names every colour a cell can wear: the review's and the pending keys' too
            Label reviewEntry = legendEntry(robot, reviewChip(language));
            Label pendingEntry = legendEntry(robot, pending(language));
            Label confirmEntry = legendEntry(robot, Text.t("ui.chip.NEEDS_CONFIRMATION"));
            Color reviewColour = (Color) fxValue(robot, () -> ((Rectangle) reviewEntry.getGraphic()).getFill());
            Color confirmColour = (Color) fxValue(robot, () -> ((Rectangle) confirmEntry.getGraphic()).getFill());
            assertThat(reviewColour).as("the legend's review colour in %s", language).isNotEqualTo(confirmColour);
            assertThat((Color) fxValue(robot, () -> ((Rectangle) pendingEntry.getGraphic()).getFill()))
                    .isEqualTo(io.keyline.ui.common.Palette.of(KeyState.PENDING));

            // the heatmap's cell of the key is drawn in the legend's review colour
            Heatmap heat = robot.lookup("#heatmap").queryAs(Heatmap.class);
            assertThat(cellColour(robot, heat, REVIEWED)).as("the heatmap cell in %s", language)
                    .satisfies(c -> assertThat(close(c, reviewColour)).as("%s is %s", c, reviewColour).isTrue());
            assertThat(cellColour(robot, heat, UNKNOWN)).as("a confirmation's cell")
                    .satisfies(c -> assertThat(close(c, confirmColour)).as("%s is %s", c, confirmColour).isTrue());
            closeFixture();
        }
    }

    /** Daily at 08:00 UTC from 2026-11-28, an unsafe command step: on the workbench's 2026-11-29 two keys are due. */
    static final String SCHEDULED = """
        { "name": "posted", "key": { "type": "date", "zone": "UTC", "start": "2026-11-28" },
          "schedule": "0 8 * * *",
          "steps": [ { "id": "post", "kind": "command", "effect": "unsafe", "command": ["true"] } ] }
        """;

    /**
     * The timeline shows a key's past: the event that held the key for its job's review wears the review's chip,
     * as does the run it ended, also after the review let the key run to done.
     */
    @Test
    void theTimelineShowsTheEventThatHeldAKeyForTheReviewAsNeedsReview(FxRobot robot) throws Exception {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            Text.use(language);
            fixture("timeline");
            fx.wb.job("posted", SCHEDULED, null);
            assertThat(fx.wb.cli("run", "--due").exit()).as("the unreviewed job's keys wait").isEqualTo(4);
            assertThat(fx.wb.cli("approve", "posted").exit()).isZero();
            assertThat(fx.wb.cli("run", "--due").exit()).isZero();
            assertThat(fx.state("posted", "2026-11-29")).isEqualTo(KeyState.DONE);
            show(robot, 1024, 680);
            robot.interact(() -> console.showTimeline("posted", "2026-11-29"));
            waitUntil(() -> eventChip(robot, EventType.WAITING_FOR_CONFIRMATION).isPresent()
                    && runChip(robot, KeyState.NEEDS_CONFIRMATION).isPresent());
            org.testfx.util.WaitForAsyncUtils.waitForFxEvents();

            Label chip = eventChip(robot, EventType.WAITING_FOR_CONFIRMATION).orElseThrow();
            assertThat(fxValue(robot, chip::getText)).as("the held event's chip in %s", language)
                    .isEqualTo(reviewChip(language));
            assertThat(fxValue(robot, () -> List.copyOf(chip.getStyleClass()))).as("its style in %s", language)
                    .contains("state-needs-review").doesNotContain("state-needs-confirmation");
            Label run = runChip(robot, KeyState.NEEDS_CONFIRMATION).orElseThrow();
            assertThat(fxValue(robot, run::getText)).as("the chip of the run that held it in %s", language)
                    .isEqualTo(reviewChip(language));
            assertThat(fxValue(robot, () -> io.keyline.ui.common.Cut.isCut(chip))).as("the chip in %s is whole",
                    language).isFalse();
            closeFixture();
        }
    }

    /**
     * The event that held a key for its job's review is named for the review, not "Waits for confirmation", and its
     * left bar has the review's calm colour, not the red of a failure; a wait for a confirmation keeps both.
     */
    @Test
    void theTimelineNamesTheEventThatHeldAKeyForTheReviewAndBarsItInTheReviewsColour(FxRobot robot) throws Exception {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            open(robot, language);
            String waitsForReview = language == Text.CHINESE ? "等待审核" : "Waits for the review";
            Color review = io.keyline.ui.common.Palette.named("-kl-review");
            Color failed = io.keyline.ui.common.Palette.named("-kl-failed");
            for (String key : List.of(REVIEWED, UNKNOWN)) {
                robot.interact(() -> console.showTimeline("daily", key));
                waitUntil(() -> eventCell(robot, key, EventType.WAITING_FOR_CONFIRMATION).isPresent());
                org.testfx.util.WaitForAsyncUtils.waitForFxEvents();
                ListCell<?> cell = eventCell(robot, key, EventType.WAITING_FOR_CONFIRMATION).orElseThrow();
                String type = fxValue(robot, () -> ((Label) cell.lookup(".timeline-type")).getText());
                Color bar = fxValue(robot, () -> (Color) cell.getBorder().getStrokes().get(0).getLeftStroke());
                if (key.equals(REVIEWED)) {
                    assertThat(type).as("the held event's name in %s", language).isEqualTo(waitsForReview);
                    assertThat(fxValue(robot, () -> List.copyOf(cell.getStyleClass()))).as("its style in %s", language)
                            .contains("review").doesNotContain("failure");
                    assertThat(close(bar, review)).as("its bar %s is the review's %s in %s", bar, review, language)
                            .isTrue();
                } else {
                    assertThat(type).as("a confirmation's event in %s", language)
                            .isEqualTo(Text.t("core.event.WAITING_FOR_CONFIRMATION"));
                    assertThat(close(bar, failed)).as("a confirmation's bar %s in %s", bar, language).isTrue();
                }
            }
            closeFixture();
        }
    }

    /** The cell of the first event of {@code type} in the timeline of {@code key}, once that timeline is on screen. */
    private static Optional<ListCell<?>> eventCell(FxRobot robot, String key, EventType type) {
        return fxValue(robot, () -> robot.lookup(".timeline-view").queryAll().stream()
                .filter(v -> v.isVisible() && v.getScene() != null && v.lookupAll(".page-title").stream()
                        .anyMatch(t -> t instanceof Label l && key.equals(l.getText())))
                .flatMap(v -> v.lookupAll(".list-cell").stream())
                .<ListCell<?>>map(n -> (ListCell<?>) n)
                .filter(c -> c.getItem() instanceof io.keyline.core.operations.Timeline.EventRow e && e.type() == type)
                .findFirst());
    }

    /** The state chip of the first event row of {@code type} in the timeline. */
    private static Optional<Label> eventChip(FxRobot robot, EventType type) {
        return fxValue(robot, () -> robot.lookup("#timeline-list .list-cell").queryAll().stream()
                .map(n -> (ListCell<?>) n)
                .filter(c -> c.getItem() instanceof io.keyline.core.operations.Timeline.EventRow e && e.type() == type)
                .map(c -> (Label) c.lookup(".state-chip")).filter(l -> l != null && l.isVisible()).findFirst());
    }

    /** The chip of the first run header in the timeline whose run left the key in {@code outcome}. */
    private static Optional<Label> runChip(FxRobot robot, KeyState outcome) {
        return fxValue(robot, () -> robot.lookup("#timeline-list .list-cell").queryAll().stream()
                .map(n -> (ListCell<?>) n)
                .filter(c -> c.getItem() instanceof io.keyline.core.operations.Timeline.RunHeader h
                        && h.outcome() == outcome)
                .map(c -> (Label) c.lookup(".state-chip")).filter(l -> l != null && l.isVisible()).findFirst());
    }

    /** The chip of the first Attention item of {@code kind} on screen. */
    private static Optional<Label> chipOf(FxRobot robot, Attention.Kind kind) {
        return fxValue(robot, () -> robot.lookup("#inbox-list .list-cell").queryAll().stream()
                .map(n -> (ListCell<?>) n)
                .filter(c -> c.getItem() instanceof Attention.Item i && i.kind() == kind)
                .map(c -> (Label) c.lookup(".state-chip")).filter(java.util.Objects::nonNull).findFirst());
    }

    /** The state chip of key {@code key} in the key table. */
    private static Optional<Label> chipInTable(FxRobot robot, String key) {
        return fxValue(robot, () -> robot.lookup("#key-table .table-cell").queryAll().stream()
                .map(n -> (TableCell<?, ?>) n)
                .filter(c -> c.getTableRow() != null && c.getTableRow().getItem() instanceof JobViewModel.KeyRow r
                        && r.key().equals(key) && c.getGraphic() != null && c.getGraphic().getStyleClass()
                        .contains("state-chip"))
                .map(c -> (Label) c.getGraphic()).findFirst());
    }

    private static Label legendEntry(FxRobot robot, String text) {
        return fxValue(robot, () -> robot.lookup(".label").queryAll().stream()
                .filter(n -> n instanceof Label l && text.equals(l.getText()) && l.getGraphic() instanceof Rectangle)
                .map(n -> (Label) n).findFirst())
                .orElseThrow(() -> new AssertionError("no legend entry '" + text + "'"));
    }

    private static Object background(FxRobot robot, Label chip) {
        return fxValue(robot, () -> chip.getBackground() == null ? null
                : chip.getBackground().getFills().get(chip.getBackground().getFills().size() - 1).getFill());
    }

    private static Color cellColour(FxRobot robot, Heatmap heat, String key) {
        return fxValue(robot, () -> {
            javafx.geometry.Point2D at = heat.centreOf(key);
            WritableImage shot = heat.snapshot(null, null);
            return shot.getPixelReader().getColor((int) at.getX(), (int) at.getY());
        });
    }

    private static boolean close(Color a, Color b) {
        return Math.abs(a.getRed() - b.getRed()) < 0.02 && Math.abs(a.getGreen() - b.getGreen()) < 0.02
                && Math.abs(a.getBlue() - b.getBlue()) < 0.02;
    }

    // ---------------------------------------------------------------- the moves offered for a review key
    // A key that waits for its job's review is let go by a plan of the job, never by a confirmation of the key (the
    // core refuses that): wherever the console offers the key's moves, the first is Plan…, which opens the job's Plan
    // dialog, and Confirm… is not offered.

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

            assertThat(menuOf(robot, row(robot, UNKNOWN).orElseThrow())).as("a confirmation's menu in %s", language)
                    .contains(confirm(language)).doesNotContain(plan(language));
            javafx.scene.control.ContextMenu menu = io.keyline.testing.Fx.rightClick(robot,
                    row(robot, REVIEWED).orElseThrow());
            assertThat(io.keyline.testing.Fx.shownItems(robot, menu)).as("the review key's menu in %s", language)
                    .contains(plan(language)).doesNotContain(confirm(language));
            io.keyline.testing.Fx.choose(robot, menu, plan(language));
            waitUntil(() -> planWindow(robot).isPresent());
            closeFixture();
        }
    }

    /**
     * A right click selects the row under the pointer and opens the menu of the row that shows the key then; the
     * table gives its rows other keys as the selection, the page or a refresh changes it. Whichever key's row was
     * opened before, each right click opens the moves of the key under the pointer, as the popup shows them.
     */
    @Test
    void eachRightClickOpensTheMovesOfTheKeyUnderThePointer(FxRobot robot) throws Exception {
        open(robot, Text.ENGLISH);
        robot.interact(() -> console.showJob("daily"));
        waitUntil(() -> row(robot, DONE).isPresent() && row(robot, REVIEWED).isPresent()
                && row(robot, UNKNOWN).isPresent());
        for (String key : List.of(REVIEWED, DONE, REVIEWED, UNKNOWN, DONE, UNKNOWN, REVIEWED, DONE, REVIEWED)) {
            // the highlighted key's reason is whole, and its row may push the others out of view
            robot.interact(() -> {
                javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(
                        javafx.scene.control.TableView.class);
                table.getItems().stream().filter(i -> i instanceof JobViewModel.KeyRow k && k.key().equals(key))
                        .findFirst().ifPresent(i -> table.scrollTo(table.getItems().indexOf(i)));
            });
            WaitForAsyncUtils.waitForFxEvents();
            TableRow<?> shown = row(robot, key).orElseThrow();
            javafx.geometry.Point2D at = fxValue(robot, () -> shown.lookup(".table-cell").localToScreen(8, 8));
            robot.moveTo(at).press(javafx.scene.input.MouseButton.SECONDARY)
                    .release(javafx.scene.input.MouseButton.SECONDARY);
            WaitForAsyncUtils.waitForFxEvents();
            // the request a right click makes goes to the row that shows the key as the press left the table; the
            // table gives its rows other keys as it refreshes, so the row is picked in the request's own event
            javafx.scene.control.ContextMenu menu = io.keyline.testing.Fx.rightClick(robot, () -> robot
                    .lookup("#key-table .table-row-cell").queryAll().stream().map(n -> (TableRow<?>) n)
                    .filter(r -> visible(r) && r.getItem() instanceof JobViewModel.KeyRow k && k.key().equals(key))
                    .findFirst().orElseThrow());
            List<String> shownItems = io.keyline.testing.Fx.shownItems(robot, menu);
            robot.interact(menu::hide);
            assertThat(shownItems).as("the menu a right click on %s opens", key)
                    .containsExactlyElementsOf(MOVES.get(key));
        }
        closeFixture();
    }

    /** The moves each key of the fixture offers, in the order its menu lists them. */
    static final java.util.Map<String, List<String>> MOVES = java.util.Map.of(
            DONE, List.of("Timeline", "Rearm…"),
            REVIEWED, List.of("Timeline", "Plan…", "Skip…", "Mark done…"),
            UNKNOWN, List.of("Timeline", "Confirm…", "Skip…", "Mark done…"));

    /** The keyboard's menu key (and Shift+F10) opens the highlighted key's moves, as a right click on its row does. */
    @Test
    void theMenuKeyOpensTheMovesOfTheHighlightedKey(FxRobot robot) throws Exception {
        open(robot, Text.ENGLISH);
        robot.interact(() -> console.showJob("daily"));
        waitUntil(() -> row(robot, DONE).isPresent() && row(robot, REVIEWED).isPresent());
        javafx.scene.control.TableView<?> table = robot.lookup("#key-table")
                .queryAs(javafx.scene.control.TableView.class);
        robot.interact(table::requestFocus);
        for (String key : List.of(REVIEWED, UNKNOWN, DONE)) {
            robot.type(javafx.scene.input.KeyCode.J);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fxValue(robot, () -> ((JobViewModel.KeyRow) table.getSelectionModel().getSelectedItem()).key()))
                    .isEqualTo(key);
            robot.press(javafx.scene.input.KeyCode.SHIFT).type(javafx.scene.input.KeyCode.F10)
                    .release(javafx.scene.input.KeyCode.SHIFT);
            WaitForAsyncUtils.waitForFxEvents();
            javafx.scene.control.ContextMenu menu = fxValue(robot, () -> Window.getWindows().stream()
                    .filter(w -> w.isShowing() && w instanceof javafx.scene.control.ContextMenu)
                    .map(w -> (javafx.scene.control.ContextMenu) w).findFirst()
                    .orElseThrow(() -> new AssertionError("Shift+F10 on " + key + " opened no menu")));
            assertThat(io.keyline.testing.Fx.shownItems(robot, menu)).as("the menu of %s", key)
                    .containsExactlyElementsOf(MOVES.get(key));
            robot.type(javafx.scene.input.KeyCode.ESCAPE);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fxValue(robot, menu::isShowing)).as("Escape closes it").isFalse();
        }
        closeFixture();
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
                .filter(r -> visible(r) && r.getItem() instanceof JobViewModel.KeyRow k && k.key().equals(key))
                .findFirst());
    }

    /** The items of the menu a right click on the row opens, as its popup shows them; the menu is closed again. */
    private static List<String> menuOf(FxRobot robot, TableRow<?> row) {
        javafx.scene.control.ContextMenu menu = io.keyline.testing.Fx.rightClick(robot, row);
        List<String> shown = io.keyline.testing.Fx.shownItems(robot, menu);
        robot.interact(menu::hide);
        return shown;
    }

    private static Optional<Window> planWindow(FxRobot robot) {
        String title = Text.t("ui.plan.windowTitle", "daily");
        return fxValue(robot, () -> Window.getWindows().stream()
                .filter(w -> w.isShowing() && w instanceof Stage s && title.equals(s.getTitle())).findFirst());
    }
}
