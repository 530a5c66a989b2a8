package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.core.Engine;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.workers.WorkersViewModel;
import io.keyline.workspace.Workspace;
import javafx.scene.Scene;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.TableView;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's own process on the Workers page (it runs the scheduler: it is alive before it ran any key),
 * and the dark theme's popups (the "More" menu) without a white frame, in the real main window (headless).
 */
@ExtendWith(ApplicationExtension.class)
class WorkersAndPopupsTest {

    static final String KEY = "2026-11-29";

    @TempDir
    Path tmp;
    Stage stage;
    Workspace ws;
    Scheduler scheduler;
    TestSite site;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        robot.interact(() -> Window.getWindows().stream().filter(w -> w != stage).toList().forEach(Window::hide));
        if (scheduler != null) {
            scheduler.close();
        }
        if (ws != null) {
            ws.leases().close();
            ws.close();
        }
        if (site != null) {
            site.close();
        }
    }

    /** The console as its app wires it: its process is a console, its scheduler is started (first tick far off). */
    private ConsoleServices console(Workbench wb) {
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        ws.kind("console");
        Engine engine = ws.engine(RunTrace.NONE);
        scheduler = ws.scheduler(engine, Duration.ofDays(7)).picking(true);
        ConsoleServices services = ConsoleApp.services(ws, engine, wb.env(), scheduler);
        scheduler.start(Duration.ofHours(1), Duration.ofHours(1));
        return services;
    }

    private void show(FxRobot robot, ConsoleServices services, boolean dark) {
        robot.interact(() -> {
            Scene scene = ConsoleApp.scene(services, Threads.javafx());
            ConsoleView view = (ConsoleView) scene.getRoot();
            view.notifications(false);
            stage.setScene(scene);
            stage.setWidth(1280);
            stage.setHeight(860);
            stage.show();
            if (dark) {
                view.toggleTheme();
            }
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void theWorkersPageListsTheConsoleItselfAsAlive(FxRobot robot) throws Exception {
        Workbench wb = new Workbench(tmp);
        show(robot, console(wb), false);
        robot.clickOn("#nav-workers");
        @SuppressWarnings("unchecked")
        TableView<WorkersViewModel.Row> table = robot.lookup("#workers-table").queryAs(TableView.class);
        // no key has run: the console is registered because it runs the scheduler
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> {
            robot.interact(() -> robot.lookup("#nav-workers").queryButton().fire());
            return table.getItems().stream().anyMatch(WorkersViewModel.Row::alive);
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(table.getItems()).anySatisfy(r -> {
            assertThat(r.what()).startsWith("console · pid " + ProcessHandle.current().pid());
            assertThat(r.status()).isEqualTo("alive");
            assertThat(r.id()).isEqualTo(ws.leases().owner());
        });
        assertThat(robot.lookup("#workers-summary").queryLabeled().getText()).startsWith("1 alive process");
    }

    @Test
    void theDarkMoreMenuPaintsItsWholeWindowWithoutAWhiteFrame(FxRobot robot) throws Exception {
        Workbench wb = new Workbench(tmp);
        site = new TestSite();
        wb.job("daily", Jobs.publish("daily", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404);
        assertThat(wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        show(robot, console(wb), true);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#inbox-list .menu-button").tryQuery()
                .isPresent());
        robot.clickOn(robot.lookup("#inbox-list .menu-button").queryAs(javafx.scene.control.MenuButton.class));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Window.getWindows().stream()
                .anyMatch(w -> w instanceof ContextMenu && w.isShowing()));
        WaitForAsyncUtils.waitForFxEvents();
        ContextMenu menu = (ContextMenu) Window.getWindows().stream()
                .filter(w -> w instanceof ContextMenu && w.isShowing()).findFirst().orElseThrow();
        AtomicReference<WritableImage> shot = new AtomicReference<>();
        robot.interact(() -> shot.set(menu.getScene().snapshot(null)));
        PixelReader px = shot.get().getPixelReader();
        int w = (int) shot.get().getWidth();
        int h = (int) shot.get().getHeight();
        assertThat(w).isGreaterThan(20);
        // every edge of the popup's window is painted, in the dark theme's colours: nothing there for a desktop
        // without compositing to show as white
        for (int[] p : List.of(new int[] {0, 0}, new int[] {w - 1, 0}, new int[] {0, h - 1}, new int[] {w - 1, h - 1},
                new int[] {w / 2, 0}, new int[] {0, h / 2}, new int[] {w / 2, h - 1}, new int[] {w - 1, h / 2},
                new int[] {2, 2}, new int[] {w - 3, h - 3})) {
            Color c = px.getColor(p[0], p[1]);
            assertThat(c.getOpacity()).as("opacity at %d,%d", p[0], p[1]).isEqualTo(1.0);
            assertThat(c.getBrightness()).as("brightness at %d,%d", p[0], p[1]).isLessThan(0.5);
        }
        robot.interact(menu::hide);
    }
}
