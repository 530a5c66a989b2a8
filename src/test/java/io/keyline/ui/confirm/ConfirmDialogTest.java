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
import javafx.scene.control.TextArea;
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

    /**
     * At 1024×680 the dialog is 632 px high. What went wrong (attempt, request, headers, body) was cut to its
     * first two lines there, beside six lines of payload; now the evidence shows at least four and the payload
     * three, and the buttons stay in. (Headless, a Chinese line is as tall as an English one; in a real window
     * it is taller, which is why the payload's minimum is three lines, not four.)
     */
    @Test
    void onTheSmallestScreenTheUnknownOutcomeShowsItsEvidenceAndThePayloadBoth(FxRobot robot) throws Exception {
        // as in the demo: the POST got no answer within its second, and the site has since rejected the login
        fx = new TimelineConfirmFixture(tmp.resolve("small-screen"));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", "\"credential\": \"site-cookie\",", true));
        fx.setCookie("site-cookie", "session=s3cr3t");
        fx.site.failPosts(Fault.HANG_BEFORE_ACTING);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        fx.services().credentials().recordUse("site-cookie", java.time.Instant.now(), "rejected");
        ConfirmViewModel vm = new ConfirmViewModel(fx.services(), Threads.javafx());
        Stage[] dialog = new Stage[1];
        robot.interact(() -> {
            dialog[0] = ConfirmDialog.stage(owner, vm);
            dialog[0].setWidth(760);
            dialog[0].setHeight(632);
            dialog[0].show();
            vm.load("daily", KEY);
        });
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> vm.infoProperty().get() != null);
        WaitForAsyncUtils.waitForFxEvents();
        try {
            assertThat(vm.infoProperty().get().credentialWarning()).contains("site-cookie");
            Scene scene = dialog[0].getScene();
            TextArea evidence = (TextArea) scene.lookup(".confirm-evidence");
            TextArea payload = (TextArea) scene.lookup(".confirm-payload");
            assertThat(evidence.getText().lines().count()).as(evidence.getText()).isGreaterThan(4);
            assertThat(linesShown(evidence)).as("lines of the evidence shown").isGreaterThanOrEqualTo(4);
            assertThat(linesShown(payload)).as("lines of the payload shown").isGreaterThanOrEqualTo(3);
            Button confirm = (Button) scene.lookup("#confirm-and-run");
            assertThat(confirm.localToScene(confirm.getBoundsInLocal()).getMaxY()).as("the button's bottom")
                    .isLessThanOrEqualTo(scene.getHeight());
        } finally {
            robot.interact(dialog[0]::close);
        }
    }

    /** How many whole lines of its text a text area shows without scrolling. */
    private static int linesShown(TextArea area) {
        javafx.scene.control.ScrollPane scroll = (javafx.scene.control.ScrollPane) area.lookup(".scroll-pane");
        javafx.scene.text.Text line = new javafx.scene.text.Text("Ag");
        line.setFont(area.getFont());
        return (int) Math.floor(scroll.getViewportBounds().getHeight() / line.getLayoutBounds().getHeight());
    }

    private static Button confirmButton(FxRobot robot) {
        return robot.lookup("Confirm and run").queryButton();
    }

    private static String outcomeText(FxRobot robot) {
        // the outcome is added to the pane once there is one
        return robot.lookup(".confirm-outcome-text").tryQuery().map(n -> ((Label) n).getText()).orElse("");
    }
}
