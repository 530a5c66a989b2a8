package io.keyline.ui.job;

import io.keyline.acceptance.Jobs;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyState;
import io.keyline.testing.Fx;
import io.keyline.ui.ConsoleFixture;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
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
import java.util.concurrent.TimeUnit;

import static io.keyline.testing.Fx.fxValue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key's menu is of the key as it is now: one opened before a reload that changed the key's state closes with the
 * reload, and a move chosen from it (a click that came before the menu closed) is refused, with a notice that says
 * so, when the key is no longer in the state the menu was made for.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewStaleMenuTest {

    private static final String KEY = "2026-11-27";

    @TempDir
    Path tmp;
    final JobPage page = new JobPage();
    ConsoleFixture fx;

    @Start
    void start(Stage s) {
        page.start(s);
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        page.close(robot);
    }

    @Test
    void aMenuOpenedBeforeTheKeyChangedClosesAndItsMoveIsRefused(FxRobot robot) throws Exception {
        fx = page.open(tmp);
        fx.wb.job("daily", Jobs.command("daily", "none", "true", "PT10S"), fx.site.base());
        page.seed(KEY, KeyState.FAILED, r -> r.withStep("work", 1).withFailure(FailureClass.FATAL, "exit 64"));
        JobViewModel vm = page.show(robot, 1);

        ContextMenu menu = Fx.rightClick(robot, JobPage.row(robot, k -> true));
        assertThat(Fx.shownItems(robot, menu)).as("the failed key's menu").contains("Retry");
        MenuItem retry = fxValue(robot, () -> menu.getItems().stream().filter(i -> "Retry".equals(i.getText()))
                .findFirst().orElseThrow());

        // meanwhile someone skips the key (another console, the command line), and the page reloads
        assertThat(fx.wb.cli("skip", "daily", KEY, "--note", "not needed").exit()).isZero();
        robot.interact(vm::reload);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> vm.rows().size() == 1
                && vm.rows().get(0).state() == KeyState.SKIPPED);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fxValue(robot, menu::isShowing)).as("the menu of the failed key, once the key is skipped")
                .isFalse();

        // a click on its Retry that came before it closed
        robot.interact(retry::fire);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !vm.noticeProperty().get().isEmpty()
                && !vm.busyProperty().get());
        Thread.sleep(500);
        assertThat(fx.state("daily", KEY)).as("the skipped key after the stale menu's Retry")
                .isEqualTo(KeyState.SKIPPED);
        assertThat(fxValue(robot, () -> vm.noticeProperty().get())).as("what the page says")
                .contains(KEY).contains("Skipped").contains("Failed");
    }
}
