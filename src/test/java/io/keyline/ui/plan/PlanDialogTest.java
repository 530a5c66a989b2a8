package io.keyline.ui.plan;

import atlantafx.base.theme.PrimerLight;
import io.keyline.core.Plan;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Threads;
import javafx.application.Application;
import io.keyline.ui.common.Theme;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The plan dialog in a real (headless) window: plan, read the request, apply once. */
@ExtendWith(ApplicationExtension.class)
class PlanDialogTest {

    static final String TODAY = "2026-11-29";

    Path tmp;
    ConsoleFixture fx;
    Stage stage;
    final AtomicInteger changed = new AtomicInteger();

    @Start
    void start(Stage stage) throws IOException {
        this.stage = stage;
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        tmp = Files.createTempDirectory("keyline-plan-dialog");
        fx = new ConsoleFixture(tmp);
        fx.publishJob("p", null);
        PlanViewModel vm = new PlanViewModel(fx.services, Threads.javafx());
        PlanDialog dialog = new PlanDialog(vm, changed::incrementAndGet);
        Scene scene = new Scene(dialog.root(), 1080, 700);
        scene.getStylesheets().setAll(Theme.STYLESHEETS);
        stage.setScene(scene);
        stage.show();
        vm.loadJobs();
        vm.choice().jobProperty().set("p");
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
        try (var files = Files.walk(tmp)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void planShowsTheRequestAndApplyRunsItOnce(FxRobot robot) throws Exception {
        TableView<?> table = robot.lookup(".plan-keys").queryAs(TableView.class);
        assertThat(table.getFixedCellSize()).isPositive();
        Button plan = robot.lookup("Plan").queryButton();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !plan.isDisabled());
        robot.clickOn(plan);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> table.getItems().size() == 1);
        assertThat(((PlanViewModel.Row) table.getItems().get(0)).plan().action()).isEqualTo("run write,publish");
        TextArea detail = robot.lookup(".plan-detail").queryAs(TextArea.class);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(detail.getText()).contains("POST " + fx.site.base() + "/api/articles")
                .contains("Idempotency-Key: p:" + TODAY + ":publish");
        assertThat(fx.site.posts()).as("a dry run sends only read-only probes").isZero();

        Button apply = robot.lookup("Apply").queryButton();
        robot.doubleClickOn(apply);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx.state("p", TODAY) == KeyState.DONE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> changed.get() > 0);
        assertThat(apply.isDisabled()).isTrue();
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);
        assertThat(fx.site.posts()).isEqualTo(1);
    }

    /** Due plans the catch-up window: the dialog says which older missing days it leaves out, with a button. */
    @Test
    void aDuePlanShowsTheMissingDaysItLeavesOutWithAButton(FxRobot robot) throws Exception {
        Button plan = robot.lookup("Plan").queryButton();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !plan.isDisabled());
        robot.clickOn("#target-due");
        robot.clickOn(plan);
        // the note's row shows once the plan is there (the note itself is always visible inside it)
        javafx.scene.control.Labeled note = robot.lookup("#plan-missing-note").queryLabeled();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> note.getParent().isVisible()
                && !note.getText().isEmpty());
        WaitForAsyncUtils.waitForFxEvents();
        String text = robot.lookup("#plan-missing-note").queryLabeled().getText();
        assertThat(text).contains("catch-up window").contains("missing, not due").contains("never ran (2026-");
        assertThat(robot.lookup("#plan-missing-keys").queryButton().getText()).matches("Plan \\d+ missing…");
        assertThat(fx.site.posts()).isZero();
    }

    /**
     * A key that waits for the job's review wears "Needs review" in the plan's State column, not the amber
     * "Needs confirmation" of an outcome that may have changed the world: nothing was sent.
     */
    @Test
    void aKeyThatWaitsForTheReviewWearsNeedsReview(FxRobot robot) throws Exception {
        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), java.util.List.of("2026-11-28"),
                io.keyline.core.RunRequest.due(false));
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        Button plan = robot.lookup("Plan").queryButton();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !plan.isDisabled());
        robot.clickOn("#target-due");
        robot.clickOn(plan);
        TableView<?> table = robot.lookup(".plan-keys").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> table.getItems().stream()
                .anyMatch(r -> ((PlanViewModel.Row) r).key().equals("2026-11-28")));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.Label chip = robot.lookup(".plan-keys .table-cell").queryAll().stream()
                .map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .filter(c -> c.getTableRow() != null && c.getTableRow().getItem() instanceof PlanViewModel.Row r
                        && r.key().equals("2026-11-28") && c.getGraphic() instanceof javafx.scene.control.Label)
                .map(c -> (javafx.scene.control.Label) c.getGraphic()).findFirst().orElseThrow();
        assertThat(chip.getText()).isEqualTo("To review");
        assertThat(chip.getAccessibleText()).isEqualTo("Needs review");
        assertThat(chip.getStyleClass()).contains("state-needs-review").doesNotContain("state-needs-confirmation");
    }

    // ------------------------------------------------------------------ at the narrowest dialog (1024×680)

    /** Daily at 09:00 UTC from 2026-11-27: on the workbench's 2026-11-29 its Due plan holds two catch-ups. */
    static final String SCHEDULED = io.keyline.acceptance.Jobs.publish("scheduled-article", "unsafe", true, null)
            .replace("\"start\": \"2026-01-01\" },", "\"start\": \"2026-11-27\" },\n  \"schedule\": \"0 9 * * *\",");

    /**
     * In {@code language}, a fresh state where scheduled-article has two missed ticks, its Plan dialog in a window of
     * 1024×680 (the size it opens at over the smallest console), its Due plan made.
     */
    private TableView<PlanViewModel.Row> planDueAtTheNarrowest(FxRobot robot, java.util.Locale language) throws Exception {
        io.keyline.text.Text.use(language);
        fx.close();
        fx = new ConsoleFixture(tmp.resolve("narrowest-" + language));
        fx.wb.job("scheduled-article", SCHEDULED, fx.site.base());
        robot.interact(() -> {
            PlanViewModel vm = new PlanViewModel(fx.services, Threads.javafx());
            PlanDialog dialog = new PlanDialog(vm, changed::incrementAndGet);
            Scene scene = new Scene(dialog.root(), 1024, 680);
            scene.getStylesheets().setAll(Theme.stylesheets());
            stage.setScene(scene);
            stage.setWidth(1024);
            stage.setHeight(680);
            vm.loadJobs();
            vm.choice().jobProperty().set("scheduled-article");
        });
        robot.clickOn("#target-due");
        Button plan = robot.lookup("#plan-run").queryButton();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !plan.isDisabled());
        robot.clickOn(plan);
        @SuppressWarnings("unchecked")
        TableView<PlanViewModel.Row> table = robot.lookup("#plan-table").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> table.getItems().size() == 3);
        assertThat(table.getItems()).hasSize(3);
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        return table;
    }

    /** Applies the plan on screen and waits for the table to show what each key came to. */
    private void applyAndWait(FxRobot robot, TableView<PlanViewModel.Row> table) throws Exception {
        robot.clickOn(robot.lookup("#plan-apply").queryButton());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> table.getItems().stream().allMatch(r -> r.after() != null));
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** The planned-action cells on screen whose text is drawn cut, each as "shown ≠ whole". */
    private static java.util.List<String> cutActions(FxRobot robot, TableView<PlanViewModel.Row> table) {
        return io.keyline.testing.Fx.fxValue(robot, () -> table.lookupAll(".table-cell").stream()
                .map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .filter(c -> c.isVisible() && c.getTableColumn() == table.getColumns().get(2)
                        && c.getText() != null && !c.getText().isBlank())
                .filter(c -> !(c.lookup(".text") instanceof javafx.scene.text.Text t) || !c.getText().equals(t.getText()))
                .map(c -> "'" + (c.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null)
                        + "' of '" + c.getText() + "'")
                .toList());
    }

    /**
     * At the narrowest dialog each planned action reads whole, a catch-up's note included, before Apply and after it
     * with what the key came to ("→ done"): at 1024 px the first row read "run write → publish (catch-up: missed tick
     * 202…", which hid its result.
     */
    @Test
    void atTheNarrowestEachPlannedActionReadsWholeBeforeAndAfterApply(FxRobot robot) throws Exception {
        java.util.Map<String, java.util.List<String>> cut = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : java.util.List.of(io.keyline.text.Text.ENGLISH,
                io.keyline.text.Text.CHINESE)) {
            try {
                TableView<PlanViewModel.Row> table = planDueAtTheNarrowest(robot, language);
                assertThat(PlanViewModel.actionText(table.getItems().get(0))).as("a catch-up's action").contains("09:00");
                cut.put(language + " planned", cutActions(robot, table));
                applyAndWait(robot, table);
                assertThat(table.getItems()).allMatch(r -> r.after().state() == KeyState.DONE);
                cut.put(language + " applied", cutActions(robot, table));
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
            }
        }
        cut.values().removeIf(java.util.List::isEmpty);
        assertThat(cut).as("planned actions cut at 1024x680").isEmpty();
    }

    /**
     * Planned again, each planned action still reads whole and its column reaches the table's right edge: in
     * Chinese a second Plan left the column at the width of an empty plan ("从 publish 继续（运行 publish）（…") beside
     * an empty filler column of some 550 px.
     */
    @Test
    void plannedAgainTheActionColumnSpansTheTableAndEachActionReadsWhole(FxRobot robot) throws Exception {
        java.util.Map<String, String> wrong = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : java.util.List.of(io.keyline.text.Text.ENGLISH,
                io.keyline.text.Text.CHINESE)) {
            try {
                TableView<PlanViewModel.Row> table = planDueAtTheNarrowest(robot, language);
                String first = table.getItems().get(0).plan().action();
                // the same plan again, then after a plan of one key
                robot.clickOn(robot.lookup("#plan-run").queryButton());
                waitForRows(table, 3, first);
                checkActionsSpanTheTable(robot, table, language + " planned again", wrong);
                robot.clickOn("#target-keys").clickOn("#plan-keys").write(TODAY);
                robot.clickOn(robot.lookup("#plan-run").queryButton());
                waitForRows(table, 1, null);
                robot.clickOn("#target-due").clickOn(robot.lookup("#plan-run").queryButton());
                waitForRows(table, 3, first);
                checkActionsSpanTheTable(robot, table, language + " after one key", wrong);
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
            }
        }
        assertThat(wrong).as("the plan's table, planned a second time at 1024x680").isEmpty();
    }

    private static void waitForRows(TableView<PlanViewModel.Row> table, int rows, String firstAction) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> table.getItems().size() == rows
                && (firstAction == null || table.getItems().get(0).plan().action().equals(firstAction)));
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Adds to {@code wrong} the actions drawn cut, and a filler column wider than a few px right of them. */
    private static void checkActionsSpanTheTable(FxRobot robot, TableView<PlanViewModel.Row> table, String when,
                                                 java.util.Map<String, String> wrong) {
        java.util.List<String> cut = cutActions(robot, table);
        if (!cut.isEmpty()) {
            wrong.put(when + ", cut", cut.toString());
        }
        double filler = io.keyline.testing.Fx.fxValue(robot, () -> table.lookupAll(".filler").stream()
                .filter(javafx.scene.Node::isVisible)
                .mapToDouble(n -> n.getLayoutBounds().getWidth()).max().orElse(0));
        if (filler > 4) {
            wrong.put(when + ", filler", Math.round(filler) + " px right of the planned actions, which are "
                    + Math.round(table.getColumns().get(2).getWidth()) + " px wide");
        }
    }

    /**
     * In Chinese the key column is measured in the face its cells draw in (the CJK face the console's stylesheet
     * names), not in JavaFX's "System": it is as wide as its widest key and its padding, no wider.
     */
    @Test
    void inChineseTheKeyColumnIsMeasuredInTheFaceItsCellsDrawIn(FxRobot robot) throws Exception {
        try {
            TableView<PlanViewModel.Row> table = planDueAtTheNarrowest(robot, io.keyline.text.Text.CHINESE);
            javafx.scene.control.TableCell<?, ?> cell = io.keyline.testing.Fx.fxValue(robot, () -> table
                    .lookupAll(".table-cell").stream().map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                    .filter(c -> c.getTableColumn() == table.getColumns().get(0) && c.getText() != null
                            && !c.getText().isBlank())
                    .findFirst().orElseThrow());
            double widest = io.keyline.testing.Fx.fxValue(robot, () -> table.getItems().stream().mapToDouble(r -> {
                javafx.scene.text.Text t = new javafx.scene.text.Text(r.key());
                t.setFont(cell.getFont());
                return t.getLayoutBounds().getWidth();
            }).max().orElseThrow());
            double title = io.keyline.ui.common.Cut.titleWidth(table.getColumns().get(0).getText());
            assertThat(table.getColumns().get(0).getWidth()).as("the key column, its cells in %s", cell.getFont())
                    .isLessThanOrEqualTo(Math.max(title, Math.ceil(widest) + 20) + 1);
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    /**
     * At the narrowest dialog the request of the selected key reads on whole lines: the URL is never broken inside
     * (it read "POST h" / "ttp://127.0.0.1:…" in a requests pane left 300 px beside the planned actions).
     */
    @Test
    void atTheNarrowestTheRequestLineIsNotBrokenInsideItsUrl(FxRobot robot) throws Exception {
        java.util.Map<String, String> broken = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : java.util.List.of(io.keyline.text.Text.ENGLISH,
                io.keyline.text.Text.CHINESE)) {
            try {
                planDueAtTheNarrowest(robot, language);
                TextArea detail = robot.lookup(".plan-detail").queryAs(TextArea.class);
                String line = "POST " + fx.site.base() + "/api/articles";
                assertThat(detail.getText()).contains(line);
                // the text the area draws, and the room it wraps in
                javafx.scene.text.Text drawn = io.keyline.testing.Fx.fxValue(robot, () -> detail.lookupAll(".text").stream()
                        .filter(n -> n instanceof javafx.scene.text.Text t && t.getText() != null
                                && t.getText().contains(line))
                        .map(n -> (javafx.scene.text.Text) n).findFirst().orElseThrow());
                javafx.scene.text.Text measure = new javafx.scene.text.Text(line);
                measure.setFont(drawn.getFont());
                double needs = measure.getLayoutBounds().getWidth();
                double room = drawn.getWrappingWidth();
                if (room > 0 && needs > room) {
                    broken.put(language.toString(), "'" + line + "' needs " + Math.round(needs) + " px, its line is "
                            + Math.round(room) + " px");
                }
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
            }
        }
        assertThat(broken).as("request lines broken inside the URL at 1024x680").isEmpty();
    }

    /** Apply keeps the divider between the plan's keys and its requests where it was (it jumped when Apply finished). */
    @Test
    void applyKeepsTheDividerWhereItWas(FxRobot robot) throws Exception {
        java.util.Map<String, String> moved = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : java.util.List.of(io.keyline.text.Text.ENGLISH,
                io.keyline.text.Text.CHINESE)) {
            try {
                TableView<PlanViewModel.Row> table = planDueAtTheNarrowest(robot, language);
                javafx.scene.Node divider = robot.lookup(".split-pane-divider").query();
                javafx.geometry.Bounds before = io.keyline.testing.Fx.fxValue(robot,
                        () -> divider.localToScene(divider.getLayoutBounds()));
                applyAndWait(robot, table);
                javafx.geometry.Bounds after = io.keyline.testing.Fx.fxValue(robot,
                        () -> divider.localToScene(divider.getLayoutBounds()));
                if (Math.abs(after.getMinX() - before.getMinX()) > 1 || Math.abs(after.getMinY() - before.getMinY()) > 1) {
                    moved.put(language.toString(), "from x " + Math.round(before.getMinX()) + ", y "
                            + Math.round(before.getMinY()) + " to x " + Math.round(after.getMinX()) + ", y "
                            + Math.round(after.getMinY()));
                }
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
            }
        }
        assertThat(moved).as("the divider after Apply").isEmpty();
    }
}
