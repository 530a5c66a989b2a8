package io.keyline.ui.confirm;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.common.Threads;
import io.keyline.ui.timeline.TimelineConfirmFixture;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
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
import java.util.concurrent.atomic.AtomicInteger;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

/** The confirm dialog in a real (headless) window against a real state and a loopback site. */
@ExtendWith(ApplicationExtension.class)
class ConfirmDialogTest {

    @TempDir
    static Path tmp;
    Stage owner;
    TimelineConfirmFixture fx;

    @Start
    void start(Stage stage) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        owner = stage;
        stage.setScene(new Scene(new StackPane(new Label("Keyline")), 400, 300));
        stage.show();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void doubleClickOnConfirmAndRunSendsOneRequestAndShowsDone(FxRobot robot) throws Exception {
        fx = new TimelineConfirmFixture(tmp.resolve("double-click"));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, false));
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        long before = fx.site.posts();
        // widen the window in which a second click could sneak in
        fx.site.postDelayMillis(300);
        AtomicInteger changed = new AtomicInteger();

        robot.interact(() -> ConfirmDialog.show(owner, fx.services(), Threads.javafx(), "daily", KEY,
                changed::incrementAndGet));
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> !confirmButton(robot).isDisabled());
        assertThat(robot.lookup(".confirm-payload").queryTextInputControl().getText())
                .contains("POST " + fx.site.base() + "/api/articles")
                .contains("Idempotency-Key: daily:" + KEY + ":publish");

        robot.doubleClickOn(confirmButton(robot));

        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> outcomeText(robot).startsWith("The site answered"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(outcomeText(robot)).startsWith("The site answered HTTP 201: id = ");
        assertThat(robot.lookup(".confirm-outcome").query().isVisible()).isTrue();
        assertThat(fx.site.posts() - before).isEqualTo(1);
        assertThat(fx.site.effects(KEY)).isEqualTo(1);
        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.DONE);
        assertThat(changed).hasValue(1);
        assertThat(robot.lookup("Close").queryButton().isVisible()).isTrue();
        robot.clickOn("Close");
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static Button confirmButton(FxRobot robot) {
        return robot.lookup("Confirm and run").queryButton();
    }

    private static String outcomeText(FxRobot robot) {
        // the outcome is added to the pane once there is one
        return robot.lookup(".confirm-outcome-text").tryQuery().map(n -> ((Label) n).getText()).orElse("");
    }
}
