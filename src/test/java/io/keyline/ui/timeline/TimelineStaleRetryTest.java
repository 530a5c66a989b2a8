package io.keyline.ui.timeline;

import atlantafx.base.theme.PrimerLight;
import io.keyline.acceptance.Jobs;
import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.testing.Fx;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.NoNavigation;
import io.keyline.ui.common.Threads;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.keyline.testing.Fx.fxValue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The timeline's Retry is of the key as the page showed it: when the key changed meanwhile (another console or the
 * command line skipped it, or retried and ran it to done) and the page was not reloaded yet, a click on the Retry it
 * still shows does nothing to the key, says why, and the page shows the key as it is now.
 */
@ExtendWith(ApplicationExtension.class)
class TimelineStaleRetryTest {

    private static final String KEY = "2026-11-27";

    @TempDir
    Path tmp;
    Stage stage;
    ConsoleFixture fx;
    TimelineViewModel vm;

    @Start
    void start(Stage s) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        stage = s;
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        Fx.hideOtherWindows(robot, stage);
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void aKeySkippedMeanwhileIsNotRetriedFromTheStalePage(FxRobot robot) throws Exception {
        showFailedKey(robot);

        assertThat(fx.wb.cli("skip", "daily", KEY, "--note", "not needed").exit()).isZero();
        clickRetry(robot);

        assertThat(fx.state("daily", KEY)).as("the skipped key after the stale page's Retry")
                .isEqualTo(KeyState.SKIPPED);
        assertThat(runs()).as("runs of the step").isEmpty();
        assertThat(fxValue(robot, () -> vm.errorProperty().get())).as("what the page says")
                .contains(KEY).contains("Skipped").contains("Failed");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fxValue(robot,
                () -> vm.headerProperty().get().record().state()) == KeyState.SKIPPED);
    }

    @Test
    void aKeyAnotherProcessRanToDoneIsNotRetriedFromTheStalePage(FxRobot robot) throws Exception {
        showFailedKey(robot);

        assertThat(fx.wb.cli("retry", "daily", KEY, "--run").exit()).isZero();
        assertThat(fx.state("daily", KEY)).isEqualTo(KeyState.DONE);
        assertThat(runs()).as("runs of the step by the other process").hasSize(1);
        clickRetry(robot);

        assertThat(fx.state("daily", KEY)).as("the done key after the stale page's Retry").isEqualTo(KeyState.DONE);
        assertThat(runs()).as("runs of the step after the stale page's Retry").hasSize(1);
        assertThat(fxValue(robot, () -> vm.errorProperty().get())).as("what the page says")
                .contains(KEY).contains("Done").contains("Failed");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fxValue(robot,
                () -> vm.headerProperty().get().record().state()) == KeyState.DONE);
        assertThat(fxValue(robot, () -> vm.errorProperty().get())).as("what the page says once it shows the key anew")
                .contains(KEY).contains("Done").contains("Failed");
    }

    /**
     * A retry from the timeline is noted as a retry from the console, as one from Attention or the job page is: in the
     * audited event and in the run log's operator line (it was noted as nothing).
     */
    @Test
    void aRetryFromTheTimelineIsNotedAsOneFromTheConsole(FxRobot robot) throws Exception {
        showFailedKey(robot);

        clickRetry(robot);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx.state("daily", KEY) == KeyState.DONE);

        String note = io.keyline.text.Text.t("ui.retry.note");
        assertThat(fx.ws.store().events("daily", KEY).stream().filter(e -> e.type() == EventType.RETRIED)
                .map(KeyEvent::note).toList()).as("the notes of the RETRIED events").containsExactly(note);
        List<String> operator = Files.readAllLines(fx.wb.state.resolve("logs/runs.jsonl")).stream()
                .filter(l -> l.contains("\"type\":\"operator\"")).toList();
        assertThat(operator).as("the run log's operator lines").hasSize(1);
        assertThat(operator.get(0)).contains("\"action\":\"retry\"").contains("\"note\":\"" + note + "\"");
    }

    /** A job whose step appends a line to runs.txt, and its key seeded FAILED, shown on the timeline page. */
    private void showFailedKey(FxRobot robot) throws Exception {
        fx = new ConsoleFixture(tmp);
        fx.wb.job("daily", Jobs.command("daily", "none", "echo ran >> runs.txt", "PT10S"), fx.site.base());
        Instant now = fx.wb.clock.instant();
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", KEY, now));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.FAILED).withStep("work", 1)
                        .withFailure(FailureClass.FATAL, "exit 64"), null,
                new KeyEvent(0, "daily", KEY, now, "seed", EventType.CLAIMED, null, 0, KeyState.FAILED, null,
                        "seeded", null, null, null));
        vm = new TimelineViewModel(fx.services, Threads.javafx());
        robot.interact(() -> {
            stage.setScene(new Scene(new TimelineView(vm, new NoNavigation()), 1100, 800));
            stage.show();
            vm.load("daily", KEY);
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fxValue(robot, () -> {
            KeyRecord r = vm.headerProperty().get().record();
            return r != null && r.state() == KeyState.FAILED;
        }));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Clicks the header's Retry, as the page still shows it, and waits until the page has said what came of it. */
    private void clickRetry(FxRobot robot) throws Exception {
        Fx.clickOn(robot, () -> {
            for (Node n : robot.lookup(".button").queryAll()) {
                if (n instanceof Button b && "Retry".equals(b.getText()) && b.isVisible()) {
                    return b;
                }
            }
            throw new AssertionError("no Retry button");
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fxValue(robot, () -> !vm.busyProperty().get()
                && (!vm.errorProperty().get().isEmpty() || !vm.noticeProperty().get().isEmpty())));
        Thread.sleep(500);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private List<String> runs() throws Exception {
        Path f = fx.wb.jobs.resolve("runs.txt");
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }
}
