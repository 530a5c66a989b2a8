package io.keyline.ui.timeline;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Threads;
import io.keyline.core.operations.Timeline.EventRow;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

/** The timeline of a key with thousands of events, in a real (headless) window. */
@ExtendWith(ApplicationExtension.class)
class TimelineViewTest {

    @TempDir
    static Path tmp;
    Stage stage;
    TimelineConfirmFixture fx;
    final List<String> navigation = new ArrayList<>();

    @Start
    void start(Stage s) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        stage = s;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void thousandsOfEventsUseAScreenfulOfCellsAndAFailureExpandsToItsEvidence(FxRobot robot) throws Exception {
        fx = new TimelineConfirmFixture(tmp.resolve("big"));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, false));
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.FAILED);
        JobDefinition def = fx.def("daily");
        for (int i = 0; i < 1000; i++) { // 2,000 operator events
            fx.services().operations().actions().skip(def, KEY, "skip " + i);
            fx.services().operations().actions().retry(def, KEY, null);
        }
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.FAILED);

        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.javafx());
        robot.interact(() -> {
            Scene scene = new Scene(new TimelineView(vm, navigator()), 1100, 700);
            scene.getStylesheets().addAll(io.keyline.ui.common.Theme.STYLESHEETS); // the app's (state colours too)
            stage.setScene(scene);
            stage.show();
            vm.load("daily", KEY);
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> vm.headerProperty().get().events() > 2000);
        WaitForAsyncUtils.waitForFxEvents();

        ListView<?> list = robot.lookup(".timeline-list").queryAs(ListView.class);
        assertThat(list.getItems().size()).isGreaterThan(2000);
        // still virtualized (a screenful of cells for thousands of events), under column titles
        assertThat(robot.lookup(".timeline-list .list-cell").queryAll()).hasSizeLessThan(100);
        assertThat(robot.lookup("#timeline-columns").query().isVisible()).isTrue();
        assertThat(robot.lookup("#timeline-columns .label").queryAllAs(javafx.scene.control.Label.class))
                .extracting(javafx.scene.control.Label::getText).contains("Time", "Event", "Step", "Message");
        // scrolled to the newest run (the list lays its cells out a pulse or more after the events arrive: once
        // in a full test run no run row had been laid out yet when this looked)
        java.util.function.Supplier<java.util.Optional<Object>> lastRunRow = () -> robot
                .lookup(".timeline-list .list-cell.run-row").queryAll().stream()
                .map(n -> (Object) ((ListCell<?>) n).getItem()).filter(java.util.Objects::nonNull)
                .reduce((a, b) -> b);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> lastRunRow.get().isPresent());
        assertThat(list.getItems().indexOf(lastRunRow.get().orElseThrow())).isEqualTo(vm.newestRunProperty().get());
        // the latest failure is open, with its evidence below the list
        TextArea evidence = robot.lookup(".evidence-text").queryAs(TextArea.class);
        assertThat(robot.lookup(".timeline-detail").query().isVisible()).isTrue();
        assertThat(evidence.getText()).contains("HTTP 404").contains("no such site");

        // the first run's failure, at the top of a long list: click opens it, Enter closes it
        robot.interact(() -> list.scrollTo(0));
        WaitForAsyncUtils.waitForFxEvents();
        ListCell<?> firstFailure = robot.lookup(".timeline-list .list-cell.failure").queryAll().stream()
                .map(n -> (ListCell<?>) n).filter(c -> c.getIndex() < 10).findFirst().orElseThrow();
        robot.clickOn(firstFailure);
        WaitForAsyncUtils.waitForFxEvents();
        EventRow open = vm.expandedProperty().get();
        assertThat(open).isNotNull();
        assertThat(open.type()).isEqualTo(EventType.KEY_FAILED);
        assertThat(vm.rows().indexOf(open)).isLessThan(10);
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(vm.expandedProperty().get()).isNull();
        assertThat(robot.lookup(".timeline-detail").query().isVisible()).isFalse();

        robot.clickOn("Retry");
        // the next step is the unsafe POST: what it sends is shown first, and sent only from there
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#retry-and-send").tryQuery().isPresent());
        assertThat(navigation).contains("retry shown daily [" + KEY + ":publish]");
        assertThat(robot.lookup(".retry-payload").queryTextInputControl().getText())
                .startsWith("POST " + fx.site.base() + "/api/articles");
        assertThat(fx.site.effects(KEY)).isZero();
        robot.clickOn("#retry-and-send");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> navigation.contains("refresh"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(vm.headerProperty().get().record().state()).isEqualTo(KeyState.DONE);
        assertThat(fx.site.effects(KEY)).isEqualTo(1);
        // after Retry: the outcome is said at the top, and the evidence pane no longer shows the old failure
        assertThat(robot.lookup("#timeline-notice").queryLabeled().getText()).isEqualTo("Retried: " + KEY + " is done");
        assertThat(robot.lookup("#timeline-notice").query().isVisible()).isTrue();
        assertThat(robot.lookup("#timeline-outcome").queryLabeled().getText()).startsWith("Done at ");
        assertThat(robot.lookup(".timeline-detail").query().isVisible()).isFalse();
    }

    /**
     * At 1024 px (the page is 774 wide beside the sidebar) every column is there, shrunk, the titles sit
     * over their columns, no column runs into the next, all cells of a row share one top line, and each
     * row is as tall as its wrapped message (seen: a wrapped message ran into the next row).
     */
    @Test
    void at1024EveryColumnShrinksAndEachRowFitsItsWrappedMessage(FxRobot robot) throws Exception {
        fx = new TimelineConfirmFixture(tmp.resolve("narrow"));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, false));
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.FAILED);
        JobDefinition def = fx.def("daily");
        fx.services().operations().actions().skip(def, KEY, "checked with the editor: the article for this day was cancelled, "
                + "the site answers 404 on purpose and nothing should be published until next week");
        fx.services().operations().actions().retry(def, KEY, "the editor asked for it after all, so it runs again now");

        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.javafx());
        TimelineView[] view = new TimelineView[1];
        robot.interact(() -> {
            // beside a 250 px sidebar in a 1024 px window, as in the console
            view[0] = new TimelineView(vm, navigator());
            javafx.scene.layout.Region sidebar = new javafx.scene.layout.Region();
            sidebar.setMinWidth(250);
            sidebar.setPrefWidth(250);
            javafx.scene.layout.BorderPane window = new javafx.scene.layout.BorderPane(view[0]);
            window.setLeft(sidebar);
            Scene scene = new Scene(window, 1024, 600);
            scene.getStylesheets().addAll(io.keyline.ui.common.Theme.STYLESHEETS);
            stage.setScene(scene);
            // the test window is shared by the test classes: it may still have another test's size
            stage.setWidth(1024);
            stage.setHeight(600);
            stage.show();
            vm.load("daily", KEY);
        });
        // claimed, write succeeded (a none step has no "started" event), publish started,
        // failed, skipped, retried
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> vm.headerProperty().get().events() >= 6);
        robot.interact(vm::collapse);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(view[0].getWidth()).as("the timeline fits beside the sidebar").isLessThanOrEqualTo(774.5);
        List<javafx.scene.Node> titles = new ArrayList<>(robot.lookup("#timeline-columns").queryAs(
                javafx.scene.layout.HBox.class).getChildrenUnmodifiable());
        assertThat(titles).hasSize(8);
        for (javafx.scene.Node t : titles) {
            assertThat(t.isVisible()).as("column %s is shown", ((javafx.scene.control.Label) t).getText()).isTrue();
        }
        // the list lays its rows out in a later pulse than the collapse (on a busy machine, several later)
        java.util.function.Supplier<List<ListCell<?>>> shownRows = () -> robot.lookup(
                ".timeline-list .list-cell.event-row").queryAll().stream()
                .<ListCell<?>>map(n -> (ListCell<?>) n).filter(c -> c.getItem() != null).toList();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> shownRows.get().size() >= 6);
        WaitForAsyncUtils.waitForFxEvents();
        List<ListCell<?>> rows = shownRows.get();
        assertThat(rows).hasSizeGreaterThanOrEqualTo(6);
        boolean wrapped = false;
        for (ListCell<?> cell : rows) {
            javafx.scene.layout.HBox row = (javafx.scene.layout.HBox) cell.getGraphic();
            javafx.geometry.Bounds cellBounds = cell.localToScene(cell.getBoundsInLocal());
            double top = -1;
            for (int i = 0; i < 8; i++) {
                javafx.scene.Node col = row.getChildren().get(i);
                javafx.geometry.Bounds b = col.localToScene(col.getLayoutBounds());
                javafx.geometry.Bounds title = titles.get(i).localToScene(titles.get(i).getLayoutBounds());
                assertThat(b.getMinX()).as("column %d of %s under its title", i, cell.getItem())
                        .isCloseTo(title.getMinX(), org.assertj.core.data.Offset.offset(1.5));
                if (i < 7) {
                    javafx.scene.Node next = row.getChildren().get(i + 1);
                    assertThat(b.getMaxX()).as("column %d runs into the next", i)
                            .isLessThanOrEqualTo(next.localToScene(next.getLayoutBounds()).getMinX());
                }
                assertThat(b.getMaxY()).as("column %d of %s inside its row", i, cell.getItem())
                        .isLessThanOrEqualTo(cellBounds.getMaxY() + 0.5);
                if (col instanceof javafx.scene.control.Label l && !l.getText().isEmpty()) {
                    double y = b.getMinY();
                    top = top < 0 ? y : top;
                    assertThat(y).as("column %d of %s starts on the row's first line", i, cell.getItem())
                            .isCloseTo(top, org.assertj.core.data.Offset.offset(2.0));
                }
            }
            javafx.scene.layout.VBox text = (javafx.scene.layout.VBox) row.getChildren().get(7);
            for (javafx.scene.Node line : text.getChildren()) {
                if (line.isVisible()) {
                    javafx.geometry.Bounds b = line.localToScene(line.getLayoutBounds());
                    assertThat(b.getMaxY()).as("message of %s inside its row", cell.getItem())
                            .isLessThanOrEqualTo(cellBounds.getMaxY() + 0.5);
                    wrapped |= b.getHeight() > 30;
                }
            }
        }
        assertThat(wrapped).as("a long message wraps onto more lines").isTrue();
    }

    /**
     * In Chinese at 1024 px a duration ("+30 毫秒") stays on one line (it was split between its two
     * characters), and the state column is as wide as the Chinese chips need, not as the English ones.
     */
    @Test
    void inChineseAt1024ADurationStaysOnOneLineAndTheStateColumnFitsItsChips(FxRobot robot) throws Exception {
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            java.util.function.Supplier<List<ListCell<?>>> shownRows = doneKeyAt1024(robot, "narrow-zh",
                    io.keyline.ui.common.Fonts.chineseStylesheet());
            int durations = 0;
            for (ListCell<?> cell : shownRows.get()) {
                javafx.scene.layout.HBox row = (javafx.scene.layout.HBox) cell.getGraphic();
                javafx.scene.control.Label time = (javafx.scene.control.Label) row.getChildren().get(1);
                javafx.scene.control.Label since = (javafx.scene.control.Label) row.getChildren().get(2);
                if (!since.getText().isEmpty()) {
                    durations++;
                    assertThat(since.getText()).endsWith(" 毫秒");
                    assertThat(since.getHeight()).as("%s on one line", since.getText())
                            .isLessThanOrEqualTo(time.getHeight() + 0.5);
                }
                javafx.scene.Node chip = ((javafx.scene.layout.StackPane) row.getChildren().get(5)).getChildren().get(0);
                if (chip.isVisible()) {
                    assertThat(chip.getLayoutBounds().getWidth()).as("the chip is not cut")
                            .isLessThanOrEqualTo(row.getChildren().get(5).getLayoutBounds().getWidth() + 0.5);
                }
            }
            assertThat(durations).as("rows with a duration").isPositive();
            // the fixture's clock is still, so every duration here is "+0 毫秒": the column must hold the widest one
            // under a second in the font it is drawn in
            javafx.scene.control.Label since = (javafx.scene.control.Label) ((javafx.scene.layout.HBox)
                    shownRows.get().get(0).getGraphic()).getChildren().get(2);
            javafx.scene.text.Text widest = new javafx.scene.text.Text("+999 毫秒");
            widest.setFont(since.getFont());
            assertThat(since.getWidth()).as("the duration column, for %s", since.getFont())
                    .isGreaterThanOrEqualTo(widest.getLayoutBounds().getWidth());
            javafx.scene.control.Label state = (javafx.scene.control.Label) robot.lookup("#timeline-columns")
                    .queryAs(javafx.scene.layout.HBox.class).getChildrenUnmodifiable().get(5);
            assertThat(state.getWidth()).as("the state column, as wide as a Chinese chip").isLessThan(100);
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void at1024AStepAndItsAttemptStayOnOneLine(FxRobot robot) throws Exception {
        java.util.function.Supplier<List<ListCell<?>>> shownRows = doneKeyAt1024(robot, "narrow-en", null);
        int steps = 0;
        for (ListCell<?> cell : shownRows.get()) {
            javafx.scene.layout.HBox row = (javafx.scene.layout.HBox) cell.getGraphic();
            javafx.scene.control.Label time = (javafx.scene.control.Label) row.getChildren().get(1);
            javafx.scene.control.Label step = (javafx.scene.control.Label) row.getChildren().get(4);
            if (step.getText().contains("#")) {
                steps++;
                assertThat(step.getHeight()).as("%s on one line (column %s px)", step.getText(), step.getWidth())
                        .isLessThanOrEqualTo(time.getHeight() + 0.5);
            }
        }
        assertThat(steps).as("rows with a step and its attempt").isPositive();
    }

    @Test
    void at1024TheStateAndFailureColumnsFitWhatIsShown(FxRobot robot) throws Exception {
        java.util.function.Supplier<List<ListCell<?>>> shownRows = doneKeyAt1024(robot, "narrow-fit", null);
        double chips = 0;
        for (ListCell<?> cell : shownRows.get()) {
            javafx.scene.Node chip = ((javafx.scene.layout.StackPane) ((javafx.scene.layout.HBox) cell.getGraphic())
                    .getChildren().get(5)).getChildren().get(0);
            if (chip.isVisible()) {
                chips = Math.max(chips, chip.prefWidth(-1));
            }
        }
        assertThat(chips).as("rows with a state chip").isPositive();
        List<javafx.scene.Node> titles = robot.lookup("#timeline-columns").queryAs(javafx.scene.layout.HBox.class)
                .getChildrenUnmodifiable();
        javafx.scene.control.Label state = (javafx.scene.control.Label) titles.get(5);
        javafx.scene.control.Label failure = (javafx.scene.control.Label) titles.get(6);
        // a done key shows "Running" and "Done": its state column need not hold "Needs confirmation"
        assertThat(state.getWidth()).as("the state column, for chips up to %s px", chips)
                .isLessThanOrEqualTo(Math.ceil(Math.max(chips, needed(state))) + 1);
        assertThat(failure.getWidth()).as("no failure shown: the failure column holds its title")
                .isLessThanOrEqualTo(Math.ceil(needed(failure)) + 1);
    }

    /** The width {@code l}'s text needs in its font, with its padding. */
    private static double needed(javafx.scene.control.Label l) {
        javafx.scene.text.Text t = new javafx.scene.text.Text(l.getText());
        t.setFont(l.getFont());
        return t.getLayoutBounds().getWidth() + l.snappedLeftInset() + l.snappedRightInset();
    }

    /**
     * A done key's timeline beside a 250 px sidebar in a 1024 px window, as in the console (with the stylesheet
     * {@code extraCss} too, when given); returns the event rows shown, once there are three.
     */
    private java.util.function.Supplier<List<ListCell<?>>> doneKeyAt1024(FxRobot robot, String dir, String extraCss)
            throws Exception {
        fx = new TimelineConfirmFixture(tmp.resolve(dir));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, false));
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.DONE);
        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.javafx());
        robot.interact(() -> {
            javafx.scene.layout.Region sidebar = new javafx.scene.layout.Region();
            sidebar.setMinWidth(250);
            sidebar.setPrefWidth(250);
            javafx.scene.layout.BorderPane window = new javafx.scene.layout.BorderPane(new TimelineView(vm, navigator()));
            window.setLeft(sidebar);
            Scene scene = new Scene(window, 1024, 600);
            scene.getStylesheets().addAll(io.keyline.ui.common.Theme.STYLESHEETS);
            if (extraCss != null) {
                scene.getStylesheets().add(extraCss);
            }
            stage.setScene(scene);
            stage.setWidth(1024);
            stage.setHeight(600);
            stage.show();
            vm.load("daily", KEY);
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> vm.headerProperty().get().events() >= 3);
        robot.interact(vm::collapse);
        java.util.function.Supplier<List<ListCell<?>>> shownRows = () -> robot.lookup(
                ".timeline-list .list-cell.event-row").queryAll().stream()
                .<ListCell<?>>map(n -> (ListCell<?>) n).filter(c -> c.getItem() != null).toList();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> shownRows.get().size() >= 3);
        WaitForAsyncUtils.waitForFxEvents();
        return shownRows;
    }

    private Navigator navigator() {
        return new Navigator() {
            @Override
            public void showInbox() {
                navigation.add("inbox");
            }

            @Override
            public void showJob(String job) {
                navigation.add("job " + job);
            }

            @Override
            public void plan(String job, java.util.List<String> keys) {
                navigation.add("plan " + job + " " + keys);
            }

            @Override
            public void showTimeline(String job, String key) {
                navigation.add("timeline " + job + " " + key);
            }

            @Override
            public void confirm(String job, String key) {
                navigation.add("confirm " + job + " " + key);
            }

            @Override
            public void renewCredential(String name) {
                navigation.add("credential " + name);
            }

            @Override
            public void plan(String job) {
                navigation.add("plan " + job);
            }

            @Override
            public void refresh() {
                navigation.add("refresh");
            }

            @Override
            public void showRetry(String job, java.util.List<io.keyline.core.operations.RetryAndSend.Send> sends,
                                  java.util.function.Consumer<java.util.Map<String, String>> send) {
                navigation.add("retry shown " + job + " " + sends.stream().map(s -> s.key() + ":" + s.step().id())
                        .toList());
                io.keyline.ui.confirm.RetryDialog.show(null, job, sends, send);
            }
        };
    }
}
