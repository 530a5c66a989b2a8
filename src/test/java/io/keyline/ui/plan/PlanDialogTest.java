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
    final AtomicInteger changed = new AtomicInteger();

    @Start
    void start(Stage stage) throws IOException {
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
        assertThat(chip.getText()).isEqualTo("Needs review");
        assertThat(chip.getStyleClass()).contains("state-needs-review").doesNotContain("state-needs-confirmation");
    }
}
