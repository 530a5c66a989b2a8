package io.keyline.ui.job;

import io.keyline.domain.KeyState;
import io.keyline.ui.common.Threads;
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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key table keeps the Attention page's keys: J/K move, T and Enter open the highlighted key's timeline (as a
 * double-click does), and a key typed while the search field has the focus stays in the search field.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewKeysTest {

    @TempDir
    Path tmp;
    final JobPage page = new JobPage();

    @Start
    void start(Stage s) {
        page.start(s);
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        page.close(robot);
    }

    @Test
    void tAndEnterOpenTheHighlightedKeysTimeline(FxRobot robot) throws Exception {
        threeFailedKeys();
        page.size(1024, 680).show(robot, 3);
        List<String> opened = page.opened();
        TableView<JobViewModel.KeyRow> table = page.table(robot);
        robot.interact(() -> {
            table.requestFocus();
            table.getSelectionModel().clearAndSelect(0);
        });
        robot.push(KeyCode.J);
        WaitForAsyncUtils.waitForFxEvents();
        String second = table.getSelectionModel().getSelectedItem().key();
        assertThat(second).as("J moved down").isEqualTo(table.getItems().get(1).key());

        robot.push(KeyCode.T);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(opened).as("T on the highlighted key").containsExactly("daily " + second);

        robot.push(KeyCode.K);
        robot.push(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        String first = table.getItems().get(0).key();
        assertThat(opened).as("Enter on the highlighted key").containsExactly("daily " + second, "daily " + first);

        // in the search field, T is a letter of the search
        robot.interact(() -> robot.lookup("#key-search").query().requestFocus());
        robot.push(KeyCode.T);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(opened).hasSize(2);
    }

    /**
     * The console reloads the job page every few seconds; a reload that finds nothing new keeps the keys the
     * operator highlighted (Run selected stays on them) and the rows under the pointer. Set anew, the list made the
     * table drop its selection and hand its rows other keys, so a Ctrl+click choice was gone within 3 s and a
     * double-click across a reload opened nothing.
     */
    @Test
    void aReloadThatFindsNothingNewKeepsTheHighlightedKeysAndTheRowsUnderThePointer(FxRobot robot) throws Exception {
        threeFailedKeys();
        // loads run at once on the FX thread: a reload has been applied when the call returns
        JobViewModel vm = page.threads(Threads.direct()).size(1024, 680).show(robot, 3);
        TableView<JobViewModel.KeyRow> table = page.table(robot);
        io.keyline.testing.Fx.clickOn(robot, () -> JobPage.rowOf(table, "2026-11-01"));
        robot.press(KeyCode.CONTROL);
        io.keyline.testing.Fx.clickOn(robot, () -> JobPage.rowOf(table, "2026-11-03"));
        robot.release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(highlighted(robot, table)).as("the keys chosen").containsExactly("2026-11-01", "2026-11-03");
        for (int reload = 1; reload <= 3; reload++) {
            javafx.scene.Node before = io.keyline.testing.Fx.fxValue(robot, () -> JobPage.rowOf(table, "2026-11-01"));
            robot.interact(vm::reload);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(highlighted(robot, table)).as("the keys highlighted after reload %d", reload)
                    .containsExactly("2026-11-01", "2026-11-03");
            assertThat(io.keyline.testing.Fx.fxValue(robot, () -> robot.lookup("#run-selected").query().isDisabled()))
                    .as("Run selected after reload %d", reload).isFalse();
            assertThat(io.keyline.testing.Fx.fxValue(robot, () -> JobPage.rowOf(table, "2026-11-01")))
                    .as("the row under the pointer after reload %d", reload).isSameAs(before);
        }
    }

    /**
     * The columns before Outcome are as wide as their rows need, and the operator may still drag one wider by its
     * header's edge: it takes the room from Outcome, and a reload keeps it. Pinned to their widths (least = most),
     * they could not be dragged at all.
     */
    @Test
    void aColumnFittedToItsRowsCanBeDraggedWiderAndAReloadKeepsIt(FxRobot robot) throws Exception {
        threeFailedKeys();
        JobViewModel vm = page.threads(Threads.direct()).size(1024, 680).show(robot, 3);
        TableView<JobViewModel.KeyRow> table = page.table(robot);
        javafx.scene.control.TableColumn<?, ?> step = table.getColumns().get(2);
        javafx.scene.control.TableColumn<?, ?> outcome = table.getColumns().get(table.getColumns().size() - 1);
        double stepBefore = io.keyline.testing.Fx.fxValue(robot, step::getWidth);
        double outcomeBefore = io.keyline.testing.Fx.fxValue(robot, outcome::getWidth);
        // the header's edge between Step and Updated
        javafx.geometry.Point2D edge = io.keyline.testing.Fx.fxValue(robot, () -> {
            javafx.scene.Node header = table.lookupAll(".column-header").stream()
                    .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() == step)
                    .findFirst().orElseThrow();
            javafx.geometry.Bounds b = header.localToScreen(header.getBoundsInLocal());
            return new javafx.geometry.Point2D(b.getMaxX(), b.getCenterY());
        });
        robot.drag(edge, javafx.scene.input.MouseButton.PRIMARY).moveBy(20, 0).moveBy(20, 0).drop();
        WaitForAsyncUtils.waitForFxEvents();
        double stepAfter = io.keyline.testing.Fx.fxValue(robot, step::getWidth);
        assertThat(stepAfter).as("Step dragged 40 px wider").isCloseTo(stepBefore + 40, org.assertj.core.data.Offset
                .offset(4.0));
        assertThat(io.keyline.testing.Fx.fxValue(robot, outcome::getWidth)).as("Outcome gave the room")
                .isCloseTo(outcomeBefore - (stepAfter - stepBefore), org.assertj.core.data.Offset.offset(1.0));
        // a reload that finds a key changed fits the columns again: the dragged one keeps its width
        page.seed("2026-11-01", KeyState.FAILED, r -> r.withStep("write", 2));
        robot.interact(vm::reload);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(io.keyline.testing.Fx.fxValue(robot, () -> table.getItems().stream()
                .filter(r -> r.key().equals("2026-11-01")).findFirst().orElseThrow().record().step())).as("the reload was read").isEqualTo("write");
        assertThat(io.keyline.testing.Fx.fxValue(robot, step::getWidth)).as("Step after a reload")
                .isCloseTo(stepAfter, org.assertj.core.data.Offset.offset(0.5));
    }

    /**
     * J and K keep the key they highlight in view when the rows above it are tall: the reasons of keys that wait for a
     * person wrap, and three such rows above the highlighted one (the context kept above it) fill the table's height,
     * as on the job page of a console of 1024x680.
     */
    @Test
    void jKeepsTheHighlightedKeyInViewBelowTallRows(FxRobot robot) throws Exception {
        tallRows(8);
        page.threads(Threads.direct()).size(760, 560).show(robot, 8);
        TableView<JobViewModel.KeyRow> table = page.table(robot);
        robot.interact(() -> {
            table.requestFocus();
            table.getSelectionModel().clearAndSelect(0);
        });
        List<String> outOfView = new java.util.ArrayList<>();
        for (int i = 1; i < 15; i++) {
            robot.push(i < 8 ? KeyCode.J : KeyCode.K);
            WaitForAsyncUtils.waitForFxEvents();
            String key = io.keyline.testing.Fx.fxValue(robot, () -> table.getSelectionModel().getSelectedItem().key());
            String whole = io.keyline.testing.Fx.fxValue(robot, () -> {
                javafx.scene.control.TableRow<?> r = JobPage.rowOf(table, key);
                if (r == null) {
                    return "not shown";
                }
                javafx.geometry.Bounds row = r.localToScene(r.getBoundsInLocal());
                javafx.scene.Node flow = table.lookup(".clipped-container");
                javafx.geometry.Bounds view = flow.localToScene(flow.getBoundsInLocal());
                return row.getMinY() >= view.getMinY() - 0.5 && row.getMaxY() <= view.getMaxY() + 0.5 ? ""
                        : Math.round(row.getMinY()) + ".." + Math.round(row.getMaxY()) + " in "
                        + Math.round(view.getMinY()) + ".." + Math.round(view.getMaxY());
            });
            if (!whole.isEmpty()) {
                outOfView.add(key + " " + whole);
            }
        }
        assertThat(outOfView).as("keys J and K highlighted out of the table's view").isEmpty();
    }

    /**
     * A column dragged wider narrows Outcome, and the rows whose reason wraps grow to its new lines at once (two at
     * most, except the highlighted key's), not at the next reload: the lines are drawn whole, not cut above and below.
     */
    @Test
    void aDragThatNarrowsOutcomeGrowsTheRowsThatWrap(FxRobot robot) throws Exception {
        tallRows(2);
        page.threads(Threads.direct()).size(1024, 680).show(robot, 2);
        TableView<JobViewModel.KeyRow> table = page.table(robot);
        javafx.scene.control.TableColumn<?, ?> step = table.getColumns().get(2);
        javafx.geometry.Point2D edge = io.keyline.testing.Fx.fxValue(robot, () -> {
            javafx.scene.Node header = table.lookupAll(".column-header").stream()
                    .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() == step)
                    .findFirst().orElseThrow();
            javafx.geometry.Bounds b = header.localToScreen(header.getBoundsInLocal());
            return new javafx.geometry.Point2D(b.getMaxX(), b.getCenterY());
        });
        robot.drag(edge, javafx.scene.input.MouseButton.PRIMARY).moveBy(60, 0).moveBy(60, 0).drop();
        WaitForAsyncUtils.waitForFxEvents();
        List<String> cut = io.keyline.testing.Fx.fxValue(robot, () -> {
            List<String> out = new java.util.ArrayList<>();
            for (javafx.scene.Node n : table.lookupAll(".table-cell")) {
                if (n instanceof javafx.scene.control.TableCell<?, ?> c && c.isVisible() && c.isWrapText()
                        && c.getTableRow() != null && c.getTableRow().getItem() != null) {
                    javafx.scene.text.Text t = new javafx.scene.text.Text(c.getText());
                    t.setFont(c.getFont());
                    t.setWrappingWidth(c.getWidth() - c.snappedLeftInset() - c.snappedRightInset());
                    double lines = t.getLayoutBounds().getHeight();
                    if (!c.getTableRow().isSelected()) {
                        javafx.scene.text.Text two = new javafx.scene.text.Text("x\nx");
                        two.setFont(c.getFont());
                        lines = Math.min(lines, two.getLayoutBounds().getHeight());
                    }
                    double needs = lines + c.snappedTopInset() + c.snappedBottomInset();
                    if (c.getHeight() + 0.5 < needs) {
                        out.add(Math.round(c.getHeight()) + " px for " + Math.round(needs) + " px");
                    }
                }
            }
            return out;
        });
        assertThat(cut).as("reasons drawn in less height than their lines need after the drag").isEmpty();
    }

    /**
     * A column dragged wide in a wide window gives the room back when the window narrows: Outcome keeps at least its
     * least width inside the table. Kept at the dragged width, Step pushed Outcome past the table's right edge, out
     * of sight (the table has no horizontal scroll bar), and cut Updated.
     */
    @Test
    void aColumnDraggedWideGivesTheRoomBackWhenTheWindowNarrows(FxRobot robot) throws Exception {
        tallRows(2);
        robot.interact(() -> page.stage().setWidth(1300));
        page.threads(Threads.direct()).size(1300, 680).show(robot, 2);
        TableView<JobViewModel.KeyRow> table = page.table(robot);
        javafx.scene.control.TableColumn<?, ?> step = table.getColumns().get(2);
        javafx.geometry.Point2D edge = io.keyline.testing.Fx.fxValue(robot, () -> {
            javafx.scene.Node header = table.lookupAll(".column-header").stream()
                    .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() == step)
                    .findFirst().orElseThrow();
            javafx.geometry.Bounds b = header.localToScreen(header.getBoundsInLocal());
            return new javafx.geometry.Point2D(b.getMaxX(), b.getCenterY());
        });
        double before = io.keyline.testing.Fx.fxValue(robot, step::getWidth);
        robot.drag(edge, javafx.scene.input.MouseButton.PRIMARY).moveBy(200, 0).moveBy(200, 0).moveBy(200, 0)
                .drop();
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(io.keyline.testing.Fx.fxValue(robot, step::getWidth)).as("Step dragged wider")
                .isGreaterThan(before + 500);
        double wide = io.keyline.testing.Fx.fxValue(robot, table::getWidth);
        robot.interact(() -> page.stage().setWidth(1024));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(io.keyline.testing.Fx.fxValue(robot, table::getWidth)).as("the table narrowed with the window")
                .isLessThan(wide - 200);
        String fits = io.keyline.testing.Fx.fxValue(robot, () -> {
            javafx.scene.control.TableColumn<?, ?> outcome = table.getColumns().get(table.getColumns().size() - 1);
            javafx.scene.Node header = table.lookupAll(".column-header").stream()
                    .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h
                            && h.getTableColumn() == outcome).findFirst().orElseThrow();
            javafx.geometry.Bounds h = header.localToScene(header.getBoundsInLocal());
            javafx.scene.Node flow = table.lookup(".clipped-container");
            javafx.geometry.Bounds view = flow.localToScene(flow.getBoundsInLocal());
            return h.getMaxX() <= view.getMaxX() + 1 && outcome.getWidth() >= outcome.getMinWidth() - 0.5 ? ""
                    : "Outcome " + Math.round(h.getMinX()) + ".." + Math.round(h.getMaxX()) + " in a view ending at "
                    + Math.round(view.getMaxX()) + ", Step " + Math.round(step.getWidth()) + " px";
        });
        assertThat(fits).as("Outcome inside the table after the window narrowed").isEmpty();
    }

    /** Job daily with {@code n} keys that wait for a new login to sandbox-cookie, a reason of several lines. */
    private void tallRows(int n) throws Exception {
        page.openPublishing(tmp);
        for (int i = 1; i <= n; i++) {
            page.seed(String.format("2026-11-%02d", i), KeyState.NEEDS_CREDENTIAL, r -> r.withStep("publish", 1)
                    .withCredential("sandbox-cookie"));
        }
    }

    /** Job daily with three keys that failed at publish: 2026-11-01, -02 and -03. */
    private void threeFailedKeys() throws Exception {
        page.openPublishing(tmp);
        for (String key : List.of("2026-11-01", "2026-11-02", "2026-11-03")) {
            page.seed(key, KeyState.FAILED, r -> r.withStep("publish", 1));
        }
    }

    private static List<String> highlighted(FxRobot robot, TableView<JobViewModel.KeyRow> table) {
        return io.keyline.testing.Fx.fxValue(robot, () -> table.getSelectionModel().getSelectedItems().stream()
                .map(JobViewModel.KeyRow::key).sorted().toList());
    }
}
