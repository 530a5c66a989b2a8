package io.keyline.ui.credentials;

import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Threads;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance (c) of the console issue, through the real dialog: after a 401, pasting the renewed
 * cookie and pressing "Save and resume" resumes the parked key, which completes with one effect.
 */
@ExtendWith(ApplicationExtension.class)
class CredentialDialogTest {

    static final String TODAY = "2026-11-29";

    Path tmp;
    ConsoleFixture fx;
    Stage stage;
    CredentialDialog dialog;
    CredentialViewModel vm;
    final AtomicInteger changed = new AtomicInteger();
    final List<String> planned = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) throws IOException {
        javafx.application.Application.setUserAgentStylesheet(new atlantafx.base.theme.PrimerLight().getUserAgentStylesheet());
        tmp = Files.createTempDirectory("keyline-credential-dialog");
        fx = new ConsoleFixture(tmp);
        fx.publishJob("p", "site-cookie");
        fx.site.requireCookie("session=v2");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        JobDefinition job = fx.services.catalog().get().job("p").orElseThrow();
        fx.services.engine().run(job, List.of(TODAY)); // the stale cookie: 401, the key is parked
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);

        vm = new CredentialViewModel(fx.services, Threads.javafx());
        vm.open("site-cookie");
        dialog = new CredentialDialog(vm, changed::incrementAndGet);
        dialog.offerPlan(planned::add);
        this.stage = stage;
        Scene scene = new Scene(dialog.root(), 860, 680);
        // the console's own stylesheets, its colours first, as the dialog over the console has them
        scene.getStylesheets().setAll(io.keyline.ui.common.Theme.stylesheets());
        stage.setScene(scene);
        stage.show();
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
        try (var files = Files.walk(tmp)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void pastingTheRenewedCookieResumesTheParkedKeyWhichCompletesOnce(FxRobot robot) throws Exception {
        // reviewed: a save may run its keys
        fx.services.operations().actions().approve(fx.services.catalog().get().job("p").orElseThrow(), null);
        Button save = robot.lookup("Save and resume").queryButton();
        assertThat(save.isDisabled()).isTrue(); // nothing pasted yet

        robot.clickOn(".credential-input").write("Cookie: session=v2");
        WaitForAsyncUtils.waitForFxEvents();
        TableView<?> preview = robot.lookup(".credential-preview").queryAs(TableView.class);
        assertThat(preview.getItems()).hasSize(1);
        assertThat(save.isDisabled()).isFalse();

        robot.clickOn("Save and resume");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx.state("p", TODAY) == KeyState.DONE);
        Label message = robot.lookup(".credential-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> message.getText().contains("completed"));

        assertThat(message.getText()).isEqualTo("Saved. 1 parked key resumed, 1 of 1 completed.");
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);
        assertThat(fx.site.posts()).isEqualTo(1);
        assertThat(changed.get()).isPositive();
    }

    /**
     * A value the dialog's Test just found rejected: "Save and resume" stores nothing and sends nothing, the
     * dialog says why and offers "Save anyway", which stores it.
     */
    @Test
    void aValueTheTestJustRejectedIsSavedOnlyBySaveAnyway(FxRobot robot) throws Exception {
        String before = fx.services.credentials().info("site-cookie").orElseThrow().fingerprint();
        robot.clickOn("Run the resumed keys now"); // stored and resumed only: what is sent is counted below
        robot.clickOn(".credential-input").write("Cookie: session=wrong");
        WaitForAsyncUtils.waitForFxEvents();
        Button anyway = robot.lookup("#credential-save-anyway").queryButton();
        assertThat(anyway.isVisible()).isFalse();

        robot.clickOn("Test");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup(".label").queryAllAs(Label.class).stream()
                .anyMatch(l -> l.getText() != null && l.getText().startsWith("The pasted value (not saved yet): Rejected")));
        long gets = fx.site.gets();
        long posts = fx.site.posts();

        robot.clickOn("Save and resume");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, anyway::isVisible);
        Label error = robot.lookup(".error-text").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && l.getText().startsWith("Not saved")).findFirst().orElseThrow();
        assertThat(error.getText()).isEqualTo("Not saved: the site did not accept this value when it was just tested. "
                + "Log in again and use the new value, or choose Save anyway to store it all the same.");
        assertThat(error.isVisible()).isTrue();
        assertThat(fx.services.credentials().info("site-cookie").orElseThrow().fingerprint()).isEqualTo(before);
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        assertThat(fx.site.gets()).as("nothing sent").isEqualTo(gets);
        assertThat(fx.site.posts()).isEqualTo(posts);
        assertThat(changed.get()).isZero();

        robot.clickOn("#credential-save-anyway");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx.state("p", TODAY) == KeyState.PENDING);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.services.credentials().info("site-cookie").orElseThrow().fingerprint())
                .isEqualTo(CredentialParser.parse(CredentialType.COOKIE, "Cookie: session=wrong", null).fingerprint());
        assertThat(anyway.isVisible()).isFalse();
        assertThat(error.isVisible()).isFalse();
        assertThat(robot.lookup(".credential-message").queryAs(Label.class).getText())
                .isEqualTo("Saved. 1 parked key resumed, but the scheduler parks it again until p is reviewed: "
                        + "Plan… on the job's page, then apply the plan (or keyline approve p).");
        // saved, but the key waits for a person's review: the colour of a wait, not the green of a success
        Label saved = robot.lookup(".credential-message").queryAs(Label.class);
        assertThat(saved.getTextFill()).as(saved.getText()).isNotEqualTo(io.keyline.ui.common.Palette.named("-kl-ok"))
                .isEqualTo(io.keyline.ui.common.Palette.of(KeyState.NEEDS_CONFIRMATION));
        assertThat(fx.site.posts()).isEqualTo(posts);
        assertThat(changed.get()).isPositive();
    }

    @Test
    void aCookieLeftOutIsNamedUnderTheBox(FxRobot robot) {
        Label dropped = robot.lookup(".credential-dropped").queryAs(Label.class);
        assertThat(dropped.isVisible()).as("nothing pasted, nothing left out").isFalse();
        javafx.scene.control.TextArea input = robot.lookup(".credential-input").queryAs(javafx.scene.control.TextArea.class);
        robot.interact(() -> input.setText("Cookie: session=v2; nickname=\u5F20\u4E09"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(dropped.isVisible()).isTrue();
        assertThat(dropped.getText()).isEqualTo("Left out 1 cookie a request cannot carry (a character outside ASCII, a "
                + "control character or \";\" in the value): nickname. The others are saved.");
        assertThat(robot.lookup(".credential-preview").queryAs(TableView.class).getItems()).hasSize(1);
        assertThat(robot.lookup("Save and resume").queryButton().isDisabled()).isFalse();
    }

    @Test
    void theAcceptedFormatsAreNamedInPlainWords(FxRobot robot) {
        String shown = robot.lookup(".label").queryAllAs(Label.class).stream().filter(Label::isVisible)
                .map(Label::getText).filter(t -> t != null).reduce("", (a, b) -> a + "\n" + b);
        assertThat(shown).contains("Accepted for cookies").contains("cookies.txt file")
                .doesNotContain("Netscape").doesNotContain("tab-separated").doesNotContain("#HttpOnly_");
    }

    /**
     * "Saving…" and "running it…" are work under way: the line takes the success colour only once it says what
     * was saved and how the resumed keys ended.
     */
    @Test
    void theLineIsNotASuccessWhileTheSaveAndTheRunAreUnderWay(FxRobot robot) throws Exception {
        fx.services.operations().actions().approve(fx.services.catalog().get().job("p").orElseThrow(), null);
        fx.site.getDelayMillis(1500); // the probe before the send: the run takes a while
        robot.clickOn(".credential-input").write("Cookie: session=v2");
        WaitForAsyncUtils.waitForFxEvents();
        Label message = robot.lookup(".credential-message").queryAs(Label.class);

        robot.clickOn("Save and resume");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> message.getText().contains("running it"));
        assertThat(message.getTextFill()).as(message.getText()).isNotEqualTo(io.keyline.ui.common.Palette.named("-kl-ok"));

        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> message.getText().contains("completed"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(message.getTextFill()).as(message.getText()).isEqualTo(io.keyline.ui.common.Palette.named("-kl-ok"));
    }

    /**
     * A save whose resumed keys wait for their job's review says so, and the review is one click away: the
     * dialog offers the job's plan, and closes to show it.
     */
    @Test
    void aSaveWhoseKeysWaitForTheReviewOffersThePlanOfTheJob(FxRobot robot) throws Exception {
        assertThat(robot.lookup(".credential-plan").tryQuery()).as("nothing saved yet").isEmpty();
        Label waiting = robot.lookup("#credential-waiting-keys").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !waiting.getText().isEmpty());
        assertThat(waiting.getText()).as("said before the save, not only after it")
                .isEqualTo("1 key will resume: p " + TODAY + ", then wait for the review of p: nothing of p is sent "
                        + "until its plan is applied");

        robot.clickOn(".credential-input").write("Cookie: session=v2");
        robot.clickOn("Save and resume");
        Label message = robot.lookup(".credential-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> message.getText().contains("wait for the review") || message.getText().contains("waits for the review"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.site.posts()).as("the unreviewed job sent nothing").isZero();
        Button plan = robot.lookup(".credential-plan").queryButton();
        assertThat(plan.isVisible()).isTrue();
        assertThat(plan.getText()).isEqualTo("Plan p…");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, plan::isFocused); // the next step: Enter opens the plan
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(waiting.isVisible()).as("not 'no key waits' beside the keys that wait for the review: "
                + waiting.getText()).isFalse();

        robot.clickOn(plan);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(planned).containsExactly("p");
        assertThat(stage.isShowing()).as("the dialog closed for the plan").isFalse();
    }

    /**
     * The masked echo of what was pasted sits inside the paste box where the box's own text starts, not on its left
     * border (it touched the border).
     */
    @Test
    void theMaskedEchoStartsWhereTheBoxsTextStarts(FxRobot robot) {
        robot.clickOn(".credential-input").write("Cookie: session=v2");
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TextArea input = robot.lookup(".credential-input").queryAs(javafx.scene.control.TextArea.class);
        Label echo = robot.lookup("#credential-echo").queryAs(Label.class);
        assertThat(echo.getText()).isNotBlank().doesNotContain("v2");
        double[] x = io.keyline.testing.Fx.fxValue(robot, () -> {
            double box = input.localToScene(input.getLayoutBounds()).getMinX();
            javafx.scene.Node typed = input.lookupAll(".text").stream()
                    .filter(n -> n instanceof javafx.scene.text.Text t && t.getText() != null
                            && t.getText().contains("session")).findFirst().orElseThrow();
            javafx.scene.Node masked = echo.lookup(".text");
            double top = input.localToScene(input.getLayoutBounds()).getMinY();
            return new double[] {masked.localToScene(masked.getLayoutBounds()).getMinX() - box,
                    typed.localToScene(typed.getLayoutBounds()).getMinX() - box,
                    masked.localToScene(masked.getLayoutBounds()).getMinY() - top,
                    typed.localToScene(typed.getLayoutBounds()).getMinY() - top};
        });
        assertThat(x[0]).as("the echo's text from the box's left edge, where the box's own text starts at %s", x[1])
                .isCloseTo(x[1], org.assertj.core.data.Offset.offset(1.5));
        assertThat(x[2]).as("the echo's text from the box's top, where the box's own text starts at %s", x[3])
                .isCloseTo(x[3], org.assertj.core.data.Offset.offset(1.5));
    }

    /**
     * A pasted login whose cookies are for another host is refused with the console's own way out: the words of
     * {@code keyline credentials test} end with the command to type ({@code keyline credentials set …}); the
     * dialog names its own Log in… and its paste box instead, in English and in Chinese. Nothing is sent.
     */
    @Test
    void aLoginWithNoCookieForTheJobsHostIsRefusedWithTheDialogsOwnWayOut(FxRobot robot) throws Exception {
        long sent = fx.site.gets() + fx.site.posts();
        // exported from a browser on http://localhost: the job sends to 127.0.0.1
        robot.interact(() -> vm.input().textProperty().set(
                "# Netscape HTTP Cookie File\nlocalhost\tFALSE\t/\tFALSE\t0\tsession\tV4lue9\n"));
        robot.clickOn("Test");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> io.keyline.testing.Fx.fxValue(robot,
                () -> !vm.probes().lines().isEmpty()));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> shown = io.keyline.testing.Fx.fxValue(robot, () -> robot.lookup(".label")
                .queryAllAs(Label.class).stream().filter(l -> l.getScene() != null && l.isVisible())
                .map(Label::getText).filter(t -> t != null && t.contains("127.0.0.1")).toList());
        assertThat(shown).as("what the dialog says of the test").isNotEmpty()
                .allSatisfy(t -> assertThat(t).contains("Host=localhost").doesNotContain("keyline credentials", "V4lue9"))
                .anySatisfy(t -> assertThat(t).contains(io.keyline.text.Text.t("ui.credential.logIn")));
        List<io.keyline.core.CredentialTester.Result> lines = io.keyline.testing.Fx.fxValue(robot,
                () -> List.copyOf(vm.probes().lines()));
        assertThat(lines).as("the test's lines in Chinese").isNotEmpty().allSatisfy(r -> assertThat(
                r.message().in(io.keyline.text.Text.CHINESE)).contains("127.0.0.1")
                .contains(io.keyline.text.Text.in(io.keyline.text.Text.CHINESE, "ui.credential.logIn"))
                .doesNotContain("keyline credentials"));

        robot.clickOn("Save and resume");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> io.keyline.testing.Fx.fxValue(robot,
                () -> vm.errorProperty().get().startsWith("Not saved")));
        assertThat(io.keyline.testing.Fx.fxValue(robot, () -> vm.errorProperty().get())).as("the refusal")
                .contains("127.0.0.1", io.keyline.text.Text.t("ui.credential.logIn"))
                .doesNotContain("keyline credentials");
        assertThat(fx.site.gets() + fx.site.posts()).as("nothing went out").isEqualTo(sent);
    }
}
