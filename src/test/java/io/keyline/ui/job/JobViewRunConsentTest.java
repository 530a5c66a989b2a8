package io.keyline.ui.job;

import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import javafx.scene.Node;
import javafx.scene.control.Button;
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
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.keyline.testing.Fx.fxValue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Run selected" of several keys that would send an unsafe step asks first, as the command line does on a terminal:
 * nothing is posted until the dialog's Run is clicked; Cancel, Esc and Enter (its default button) post nothing; one
 * key runs at once.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewRunConsentTest {

    private static final List<String> KEYS = List.of("2026-11-25", "2026-11-26", "2026-11-27");

    @TempDir
    Path tmp;
    final JobPage page = new JobPage();
    ConsoleFixture fx;
    JobViewModel vm;

    @Start
    void start(Stage s) {
        page.start(s);
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        page.close(robot);
    }

    @Test
    void threeKeysThatWouldPostAskFirstAndOnlyRunSendsThem(FxRobot robot) throws Exception {
        open(robot, KEYS);

        // Cancel, Esc and Enter on the default button each leave every key unsent
        for (Runnable no : List.<Runnable>of(() -> robot.clickOn("#consent-cancel"), () -> robot.type(KeyCode.ESCAPE),
                () -> robot.type(KeyCode.ENTER))) {
            runSelected(robot, 3);
            awaitDialog(robot);
            assertThat(fx.site.posts()).as("posts while the dialog asks").isZero();
            assertThat(fxValue(robot, () -> ((javafx.scene.control.DialogPane) robot.lookup("#run-consent").query())
                    .getHeaderText())).as("what the dialog asks")
                    .isEqualTo("3 keys of daily (2026-11-25 .. 2026-11-27) would send publish");
            Button run = robot.lookup("#consent-run").queryButton();
            assertThat(run.getText()).isEqualTo("Run 3 keys");
            assertThat(fxValue(robot, run::isDefaultButton)).as("Run is the default button").isFalse();
            assertThat(fxValue(robot, () -> robot.lookup("#consent-cancel").queryButton().isFocused()))
                    .as("Cancel has the focus").isTrue();
            no.run();
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !dialogShown(robot) && !vm.busyProperty().get());
            Thread.sleep(300);
            assertThat(fx.site.posts()).as("posts after the dialog was refused").isZero();
            assertThat(KEYS).allSatisfy(k -> assertThat(fx.state("daily", k)).isEqualTo(KeyState.PENDING));
        }

        runSelected(robot, 3);
        awaitDialog(robot);
        robot.clickOn("#consent-run");
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> KEYS.stream()
                .allMatch(k -> fx.state("daily", k) == KeyState.DONE));
        assertThat(fx.site.posts()).as("posts once Run was clicked").isEqualTo(3);
        assertThat(fx.ws.store().jobControls().get("daily").reviewed())
                .as("the job's review, as a yes on the command line leaves it").isNotNull();
    }

    /**
     * The question is asked of what the run would do without asking the site: the dialog shows no probe's answer, so
     * nothing is sent (not even a probe's GET) before the operator says yes. A probe that would find a key done makes
     * the question count one key too many, never one too few.
     */
    @Test
    void askingSendsNothingToTheSite(FxRobot robot) throws Exception {
        open(robot, KEYS);
        runSelected(robot, 3);
        awaitDialog(robot);
        assertThat(fx.site.gets()).as("probes asked while the dialog asks").isZero();
        assertThat(fx.site.posts()).as("posts while the dialog asks").isZero();
        robot.clickOn("#consent-cancel");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !dialogShown(robot) && !vm.busyProperty().get());
        assertThat(fx.site.gets()).as("probes asked once the dialog was refused").isZero();
    }

    /**
     * A selected key later than the current one is neither counted by the question nor run: Run selected runs keys as
     * they are due, as keyline run does without --ahead (running ahead of schedule is the Plan dialog's explicit
     * choice), so the question and the run agree on what is sent.
     */
    @Test
    void aSelectedKeyNotYetDueIsNeitherCountedNorRun(FxRobot robot) throws Exception {
        List<String> keys = List.of("2026-11-28", "2026-11-29", "2026-11-30");
        open(robot, keys);
        runSelected(robot, 3);
        awaitDialog(robot);
        assertThat(fxValue(robot, () -> ((javafx.scene.control.DialogPane) robot.lookup("#run-consent").query())
                .getHeaderText())).as("what the dialog asks")
                .isEqualTo("2 keys of daily (2026-11-28 .. 2026-11-29) would send publish");
        robot.clickOn("#consent-run");
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> keys.subList(0, 2).stream()
                .allMatch(k -> fx.state("daily", k) == KeyState.DONE) && !vm.busyProperty().get());
        Thread.sleep(300);
        assertThat(fx.site.posts()).as("posts once Run was clicked").isEqualTo(2);
        assertThat(fx.site.effects("2026-11-30")).as("the key not yet due").isZero();
        assertThat(fx.state("daily", "2026-11-30")).isEqualTo(KeyState.PENDING);
        assertThat(fxValue(robot, () -> vm.noticeProperty().get())).as("what the page says after the run")
                .contains("2 done").contains("1 selected key was left (2026-11-30)").contains("not yet due");
    }

    /**
     * One selected key not yet due runs at once, without a question, and nothing runs: the notice says that it was
     * left and why, in Chinese too, instead of "Run finished:" and nothing after it.
     */
    @Test
    void aLoneKeyNotYetDueIsSaidToBeLeftInChinese(FxRobot robot) throws Exception {
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            open(robot, List.of("2026-11-30"));
            runSelected(robot, 1);
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !vm.busyProperty().get()
                    && !fxValue(robot, () -> vm.noticeProperty().get()).startsWith("正在运行"));
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fxValue(robot, () -> vm.noticeProperty().get())).as("what the page says after the run")
                    .contains("什么都没有运行").contains("选中的 1 个任务项被留下（2026-11-30）").contains("还没到期");
            assertThat(fx.site.posts()).isZero();
            assertThat(fx.state("daily", "2026-11-30")).isEqualTo(KeyState.PENDING);
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void oneKeyRunsAtOnce(FxRobot robot) throws Exception {
        open(robot, KEYS.subList(0, 1));
        runSelected(robot, 1);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx.state("daily", KEYS.get(0)) == KeyState.DONE);
        assertThat(fx.site.posts()).isEqualTo(1);
        assertThat(dialogShown(robot)).isFalse();
    }

    private void open(FxRobot robot, List<String> keys) throws Exception {
        fx = page.openPublishing(tmp);
        page.pending(keys);
        vm = page.show(robot, keys.size());
    }

    private void runSelected(FxRobot robot, int n) {
        TableView<?> table = robot.lookup("#key-table").queryTableView();
        robot.interact(() -> table.getSelectionModel().selectAll());
        assertThat(fxValue(robot, () -> table.getSelectionModel().getSelectedItems().size())).isEqualTo(n);
        robot.clickOn("#run-selected");
    }

    private void awaitDialog(FxRobot robot) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> dialogShown(robot));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no dialog asked; posts so far: " + fx.site.posts() + ", notice: "
                    + fxValue(robot, () -> vm.noticeProperty().get()), e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static boolean dialogShown(FxRobot robot) {
        Optional<Node> run = robot.lookup("#consent-run").tryQuery();
        return run.isPresent() && run.get().getScene() != null && run.get().getScene().getWindow() != null
                && run.get().getScene().getWindow().isShowing();
    }
}
