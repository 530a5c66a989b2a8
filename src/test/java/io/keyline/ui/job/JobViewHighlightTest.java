package io.keyline.ui.job;

import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Threads;
import javafx.css.PseudoClass;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key the keyboard highlighted on the job page stays the highlighted key across the console's reloads — the same
 * key, not the same row: a reload every minute changes a waiting key's words ("waiting / 11 min" → "12 min"), another
 * key's state changes or a new key arrives above it. It is drawn highlighted (its whole reason shown), it stays in
 * view, and T, Enter and J act from it.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewHighlightTest {

    private static final PseudoClass SELECTED = PseudoClass.getPseudoClass("selected");

    @TempDir
    Path tmp;
    final JobPage page = new JobPage();
    ConsoleFixture fx;
    List<String> opened;

    @Start
    void start(Stage s) {
        page.start(s);
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        page.close(robot);
    }

    @Test
    void theKeyHighlightedByTheKeyboardStaysHighlightedWhenAReloadChangesItsWords(FxRobot robot) throws Exception {
        fx = page.openPublishing(tmp);
        for (int day = 1; day <= 8; day++) {
            waits(String.format("2026-11-%02d", day));
        }
        fx.wb.clock.advance(Duration.ofMinutes(11).plusSeconds(30));
        TableView<JobViewModel.KeyRow> table = show(robot, 8);
        robot.interact(() -> {
            table.requestFocus();
            table.getSelectionModel().clearAndSelect(0);
        });
        for (int j = 0; j < 4; j++) {
            robot.push(KeyCode.J);
        }
        WaitForAsyncUtils.waitForFxEvents();
        String key = "2026-11-04"; // newest first: the fifth row, low in the table's view
        assertThat(drawn(robot, table)).as("highlighted by J, J").isEqualTo(List.of("selection " + key,
                "drawn " + key, "whole " + key));

        // a minute later every waiting key's words change
        fx.wb.clock.advance(Duration.ofMinutes(1));
        page.reload(robot);
        assertThat(fxValue(robot, () -> table.getItems().get(4).when())).as("the reload was read").contains("12");
        assertThat(drawn(robot, table)).as("after a reload that changed the key's words")
                .isEqualTo(List.of("selection " + key, "drawn " + key, "whole " + key));
        opened.clear();
        robot.push(KeyCode.T);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(opened).as("T after the reload").containsExactly("daily " + key);

        // another key's state changes, and two new keys arrive above the highlighted one: its row moves down
        page.seed("2026-11-08", KeyState.FAILED, r -> r.withFailure(FailureClass.FATAL, "the site said no"));
        waits("2026-11-09");
        waits("2026-11-10");
        page.reload(robot);
        assertThat(fxValue(robot, () -> table.getItems().size())).as("the new keys were read").isEqualTo(10);
        assertThat(drawn(robot, table)).as("after a reload that added keys above it")
                .isEqualTo(List.of("selection " + key, "drawn " + key, "whole " + key));
        opened.clear();
        robot.push(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(opened).as("Enter after the reload").containsExactly("daily " + key);
        robot.push(KeyCode.J);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fxValue(robot, () -> table.getSelectionModel().getSelectedItem().key())).as("J from it")
                .isEqualTo("2026-11-03");
    }

    /**
     * Keys highlighted together (Ctrl+click) stay highlighted together when a reload changes their words: Run selected
     * still runs them all.
     */
    @Test
    void keysHighlightedTogetherStayHighlightedWhenAReloadChangesTheirWords(FxRobot robot) throws Exception {
        fx = page.openPublishing(tmp);
        for (int day = 1; day <= 4; day++) {
            waits(String.format("2026-11-%02d", day));
        }
        fx.wb.clock.advance(Duration.ofMinutes(5));
        TableView<JobViewModel.KeyRow> table = show(robot, 4);
        io.keyline.testing.Fx.clickOn(robot, () -> JobPage.rowOf(table, "2026-11-03"));
        robot.press(KeyCode.CONTROL);
        io.keyline.testing.Fx.clickOn(robot, () -> JobPage.rowOf(table, "2026-11-01"));
        robot.release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> chosen = List.of("selection 2026-11-03", "selection 2026-11-01", "drawn 2026-11-03",
                "whole 2026-11-03", "drawn 2026-11-01", "whole 2026-11-01");
        assertThat(drawn(robot, table)).as("chosen by Ctrl+click").containsExactlyInAnyOrderElementsOf(chosen);

        fx.wb.clock.advance(Duration.ofMinutes(1));
        page.reload(robot);
        assertThat(drawn(robot, table)).as("after a reload that changed their words")
                .containsExactlyInAnyOrderElementsOf(chosen);
        assertThat(fxValue(robot, () -> table.getSelectionModel().getSelectedItem().key()))
                .as("the key clicked last is the one the keyboard acts on").isEqualTo("2026-11-01");
    }

    /** Shows the job page of daily, its keys loaded at once on the FX thread; its key table. */
    private TableView<JobViewModel.KeyRow> show(FxRobot robot, int keys) throws Exception {
        page.threads(Threads.direct()).size(1024, 680).show(robot, keys);
        opened = page.opened();
        return page.table(robot);
    }

    /**
     * What the page says is highlighted: the table's selection, the rows drawn highlighted, the rows that show their
     * whole reason (taller than two lines), and any highlighted row out of the table's view.
     */
    private static List<String> drawn(FxRobot robot, TableView<JobViewModel.KeyRow> table) {
        return fxValue(robot, () -> {
            table.layout();
            List<String> out = new ArrayList<>();
            table.getSelectionModel().getSelectedItems().forEach(r -> out.add("selection " + r.key()));
            javafx.scene.Node flow = table.lookup(".clipped-container");
            javafx.geometry.Bounds view = flow.localToScene(flow.getBoundsInLocal());
            double twoLines = 0;
            List<TableRow<?>> rows = new ArrayList<>();
            for (javafx.scene.Node n : table.lookupAll(".table-row-cell")) {
                if (n instanceof TableRow<?> r && r.isVisible() && r.getItem() instanceof JobViewModel.KeyRow) {
                    rows.add(r);
                }
            }
            rows.sort(java.util.Comparator.comparingInt(TableRow::getIndex));
            for (TableRow<?> r : rows) {
                if (!r.getPseudoClassStates().contains(SELECTED)) {
                    twoLines = Math.max(twoLines, r.getHeight());
                }
            }
            for (TableRow<?> r : rows) {
                String k = ((JobViewModel.KeyRow) r.getItem()).key();
                if (r.getPseudoClassStates().contains(SELECTED)) {
                    out.add("drawn " + k);
                    javafx.geometry.Bounds b = r.localToScene(r.getBoundsInLocal());
                    if (b.getMinY() < view.getMinY() - 0.5 || b.getMaxY() > view.getMaxY() + 0.5) {
                        out.add("out of view " + k);
                    }
                }
                if (r.getHeight() > twoLines + 0.5) {
                    out.add("whole " + k);
                }
            }
            return out;
        });
    }

    /** Key {@code key} of daily waits for a confirmation of publish, with a reason of several lines. */
    private void waits(String key) {
        page.seed(key, KeyState.NEEDS_CONFIRMATION, r -> r.withStep("publish", 1)
                .withWaitReason(WaitReason.OUTCOME_UNKNOWN).withFailure(FailureClass.AMBIGUOUS,
                        "The request may have reached the site: its answer was lost after the request was "
                        + "written, and the step has no probe that could tell whether the article exists. "
                        + "Check the site, then confirm to send it again or mark the key done.")
                .withUpdatedAt(fx.wb.clock.instant()));
    }
}
