package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.core.RunTrace;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Palette;
import io.keyline.ui.MainWindowTest;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableRow;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the keyboard is, seen in the pixels of the real main window at 1024×680: whatever Tab reaches (a
 * button, a flat button, a menu button, a row of a list or a table) has a ring of the focus colour along
 * all four of its sides, in the light and the dark theme; the same control without the focus has none,
 * and in a list only the focused row has it.
 */
class FocusRingTest extends MainWindowTest {

    static final String KEY = "2026-11-29";

    @Test
    void whatTabReachesHasARingAndNothingElseDoes(FxRobot robot) throws Exception {
        fixture("focus");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        fx.wb.job("weekly", Jobs.publish("weekly", "unsafe", false, null), fx.site.base());
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        ConsoleServices services = ConsoleApp.services(fx.ws, fx.ws.engine(RunTrace.NONE), fx.wb.env(),
                new ConsoleLayoutTest.Scheduler());
        show(robot, services, 1024, 680);
        waitUntil(() -> robot.lookup("#action-daily-" + KEY).tryQuery().isPresent()
                && robot.lookup("#job-weekly").tryQuery().isPresent()
                && robot.lookup("#scheduler-toggle").query().isVisible());

        List<String> missing = new ArrayList<>();
        for (boolean dark : new boolean[] {false, true}) {
            if (dark) {
                robot.interact(() -> console.toggleTheme());
                WaitForAsyncUtils.waitForFxEvents();
            }
            Color ring = Palette.named("-kl-focus", dark);
            String theme = dark ? "dark" : "light";
            // buttons: the ring runs outside them, so a button is as large with the focus as without
            for (String id : List.of("#action-daily-" + KEY, "#scheduler-toggle")) {
                Node b = robot.lookup(id).query();
                check(robot, b, ring, false, theme + " " + id, missing);
            }
            Node more = robot.lookup("#inbox-list .inbox-item .menu-button").query();
            check(robot, more, ring, false, theme + " More", missing);

            // the sidebar's jobs: only the focused row is ringed (inside it: the rows touch)
            Node daily = robot.lookup("#job-daily").query();
            Node weekly = robot.lookup("#job-weekly").query();
            robot.interact(() -> robot.lookup("#job-list").query().requestFocus());
            keyboardFocus(robot, robot.lookup("#job-list").query());
            Node focusedJob = fxValue(robot, () -> ((ListCell<?>) daily).isFocused() ? daily : weekly);
            Node otherJob = focusedJob == daily ? weekly : daily;
            WritableImage shot = shot(robot);
            if (!ringed(robot, shot, focusedJob, ring, true)) {
                missing.add(theme + " the focused job of the sidebar");
            }
            if (ringed(robot, shot, otherJob, ring, true)) {
                missing.add(theme + " the job without the focus is ringed too");
            }
        }

        // a job's key table: the focused row
        robot.interact(() -> console.toggleTheme());
        robot.interact(() -> console.showJob("daily"));
        waitUntil(() -> robot.lookup("#key-table .table-row-cell").queryAll().stream()
                .anyMatch(r -> ((TableRow<?>) r).getItem() != null));
        Node table = robot.lookup("#key-table").query();
        robot.interact(() -> {
            @SuppressWarnings("unchecked")
            javafx.scene.control.TableView<Object> t = (javafx.scene.control.TableView<Object>) table;
            t.getSelectionModel().clearAndSelect(0);
            t.getFocusModel().focus(0);
        });
        WritableImage before = shot(robot);
        Node row = robot.lookup("#key-table .table-row-cell").queryAll().stream()
                .filter(r -> ((TableRow<?>) r).getIndex() == 0).findFirst().orElseThrow();
        boolean ringedBefore = ringed(robot, before, row, Palette.named("-kl-focus", false), true);
        robot.interact(table::requestFocus);
        keyboardFocus(robot, table);
        // the page reloads its keys every few seconds and may lay its rows out anew: the row is looked up again
        // until it shows the ring (a busy machine lays out late), for up to 10 s
        boolean ringedAfter = false;
        for (long end = System.nanoTime() + 10_000_000_000L; !ringedAfter && System.nanoTime() < end; ) {
            Node now = robot.lookup("#key-table .table-row-cell").queryAll().stream()
                    .filter(r -> ((TableRow<?>) r).getIndex() == 0).findFirst().orElse(row);
            ringedAfter = ringed(robot, shot(robot), now, Palette.named("-kl-focus", false), true);
            if (!ringedAfter) {
                WaitForAsyncUtils.sleep(200, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        }
        if (ringedBefore) {
            missing.add("light the key table's row is ringed before the table has the focus");
        }
        if (!ringedAfter) {
            missing.add("light the focused row of the key table");
        }
        assertThat(missing).as("controls without a visible focus ring").isEmpty();
    }

    /** A control without the focus has no ring; with the focus from the keyboard it has one. */
    private void check(FxRobot robot, Node n, Color ring, boolean inside, String what, List<String> missing) {
        robot.interact(() -> n.getScene().getRoot().requestFocus());
        WaitForAsyncUtils.waitForFxEvents();
        if (ringed(robot, shot(robot), n, ring, inside)) {
            missing.add(what + " is ringed without the focus");
            return;
        }
        robot.interact(n::requestFocus);
        keyboardFocus(robot, n);
        if (!ringed(robot, shot(robot), n, ring, inside)) {
            missing.add(what);
        }
    }

    /** Gives {@code n} the focus as Tab does (the focus the operator sees): back one and on one. */
    private static void keyboardFocus(FxRobot robot, Node n) {
        robot.press(KeyCode.SHIFT).press(KeyCode.TAB).release(KeyCode.TAB).release(KeyCode.SHIFT);
        WaitForAsyncUtils.waitForFxEvents();
        for (int i = 0; i < 6 && !fxValue(robot, () -> n.getScene().getFocusOwner() == n); i++) {
            robot.push(KeyCode.TAB);
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertThat(fxValue(robot, () -> n.getScene().getFocusOwner() == n && n.isFocusVisible()))
                .as("Tab reached %s", n).isTrue();
    }

    private WritableImage shot(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        return fxValue(robot, () -> stage.getScene().snapshot(null));
    }

    /**
     * Whether a band two pixels wide along each of the four sides of {@code n} (just outside it, leaving a pixel
     * of gap, or just inside it) has the ring colour at the middle of the side.
     */
    private static boolean ringed(FxRobot robot, WritableImage shot, Node n, Color ring, boolean inside) {
        Bounds b = fxValue(robot, () -> n.localToScene(n.getLayoutBounds()));
        PixelReader px = shot.getPixelReader();
        int minX = (int) Math.round(b.getMinX());
        int maxX = (int) Math.round(b.getMaxX());
        int minY = (int) Math.round(b.getMinY());
        int maxY = (int) Math.round(b.getMaxY());
        int midX = (minX + maxX) / 2;
        int midY = (minY + maxY) / 2;
        int[][] bands = inside
                ? new int[][] {{minX, midY, 1, 0}, {maxX - 1, midY, -1, 0}, {midX, minY, 0, 1}, {midX, maxY - 1, 0, -1}}
                : new int[][] {{minX - 2, midY, -1, 0}, {maxX + 1, midY, 1, 0}, {midX, minY - 2, 0, -1},
                    {midX, maxY + 1, 0, 1}};
        for (int[] s : bands) {
            boolean side = false;
            for (int step = 0; step < 2 && !side; step++) {
                int x = s[0] + step * s[2];
                int y = s[1] + step * s[3];
                if (x >= 0 && y >= 0 && x < shot.getWidth() && y < shot.getHeight()) {
                    side = close(px.getColor(x, y), ring);
                }
            }
            if (!side) {
                return false;
            }
        }
        return true;
    }

    private static boolean close(Color a, Color b) {
        return Math.abs(a.getRed() - b.getRed()) < 0.12 && Math.abs(a.getGreen() - b.getGreen()) < 0.12
                && Math.abs(a.getBlue() - b.getBlue()) < 0.12;
    }
}
