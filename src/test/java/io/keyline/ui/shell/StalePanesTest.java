package io.keyline.ui.shell;

import atlantafx.base.theme.PrimerLight;
import io.keyline.acceptance.Jobs;
import io.keyline.domain.KeyState;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import io.keyline.ui.plan.PlanDialog;
import io.keyline.ui.plan.PlanViewModel;
import io.keyline.ui.MainWindowTest;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Panes that used to keep saying what was true before: Plan's request pane after Apply, and an open job
 * page after its job file changed on disk (the console re-reads the state every few seconds).
 */
class StalePanesTest extends MainWindowTest {

    static final String TODAY = "2026-11-29";

    @Start
    void start(Stage stage) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
    }

    @Test
    void theRequestPaneSaysWhatTheKeyCameToAfterApply(FxRobot robot) throws Exception {
        fixture("plan");
        fx.publishJob("p", null);
        PlanViewModel vm = new PlanViewModel(fx.services, Threads.javafx());
        robot.interact(() -> {
            Scene scene = new Scene(new PlanDialog(vm, () -> { }).root(), 1080, 700);
            scene.getStylesheets().setAll(Theme.STYLESHEETS);
            stage.setScene(scene);
            stage.show();
            vm.loadJobs();
            vm.choice().jobProperty().set("p");
        });
        Button plan = robot.lookup("Plan").queryButton();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !plan.isDisabled());
        robot.clickOn(plan);
        TableView<?> table = robot.lookup(".plan-keys").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> table.getItems().size() == 1);
        WaitForAsyncUtils.waitForFxEvents();
        TextArea detail = robot.lookup(".plan-detail").queryAs(TextArea.class);
        assertThat(detail.getText()).startsWith(TODAY + "  Pending").contains("does not exist yet");

        robot.clickOn(robot.lookup("Apply").queryButton());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx.state("p", TODAY) == KeyState.DONE
                && detail.getText().startsWith("After Apply"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.site.posts()).isEqualTo(1);
        String id = fx.ws.store().steps("p", List.of(TODAY)).get(TODAY).get("publish").outputs().get("id");
        String firstLines = detail.getText().substring(0, detail.getText().indexOf("What the plan showed"));
        assertThat(firstLines).startsWith("After Apply: done at ").contains("publish: HTTP 201").contains("id=" + id)
                .doesNotContain("does not exist yet").doesNotContain("Pending");
    }

    @Test
    void anOpenJobPageShowsItsEditedJobFile(FxRobot robot) throws Exception {
        fixture("job");
        fx.publishJob("daily", null);
        showQuiet(robot, 1280, 860);
        robot.interact(() -> console.showJob("daily"));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> subtitle(robot).contains("write and publish"));

        // the file changes on disk while its page is open: the page shows the new one within a few seconds
        Path file = fx.wb.jobs.resolve("daily.json");
        String edited = Jobs.publish("daily", "unsafe", true, null)
                .replace("write and publish the daily article", "posts the morning article")
                .replace("BASE", fx.site.base());
        Files.writeString(file, edited);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> subtitle(robot).contains("posts the morning article"));
        assertThat(subtitle(robot)).doesNotContain("write and publish");
    }

    private static String subtitle(FxRobot robot) {
        return robot.lookup("#job-view .page-subtitle").queryAs(Label.class).getText();
    }
}
