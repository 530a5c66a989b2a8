package io.keyline.ui.credentials;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.domain.KeyState;
import io.keyline.testing.Fx;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Palette;
import io.keyline.ui.common.Threads;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.paint.Color;
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

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Credentials page in a real window, with a real state and a loopback site: what a row's status says is
 * coloured by what it means for the keys.
 */
@ExtendWith(ApplicationExtension.class)
class CredentialsPageTest {

    @TempDir
    Path tmp;
    Stage stage;
    ConsoleFixture fx;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    /**
     * A test that finds the login accepted resumes the keys parked on it; when their job was never reviewed the
     * scheduler parks them again until it is. That is a wait for a person, not a success: the status reads in the
     * colour of a wait, as the key's own chip does, not in the green of "done".
     */
    @Test
    void keysThatResumeOnlyToWaitForTheirJobsReviewAreShownWaitingNotGreen(FxRobot robot) throws Exception {
        fx = new ConsoleFixture(tmp);
        fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", true,
                "\"credential\": \"sandbox-cookie\","), fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit()).isZero();
        fx.site.requireCookie("session=v2");
        assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-28", "--to", "2026-11-29").exit())
                .isEqualTo(4);
        assertThat(fx.state("daily-article", "2026-11-29")).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        // the site takes the stored login again (its session came back): a test finds it accepted
        fx.site.requireCookie("session=v1");

        robot.interact(() -> {
            // the window takes the scene's size: a size set on the stage would stay with the next test class
            Scene scene = ConsoleApp.scene(fx.services, Threads.javafx());
            stage.setScene(scene);
            stage.sizeToScene();
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#nav-credentials");
        waitForTest(robot);
        // the page reloads its rows every few seconds: the button is looked up as it is clicked
        Fx.clickOn(robot, () -> testButton(robot));

        String held = "until daily-article is reviewed";
        waitUntil(() -> fxValue(robot, () -> statuses(robot).stream().anyMatch(l -> l.getText().contains(held))));
        assertThat(fx.state("daily-article", "2026-11-29")).as("resumed").isEqualTo(KeyState.PENDING);
        // the text and its colour read from the same label, in one look: a reload may replace the label
        List<Object> status = fxValue(robot, () -> statuses(robot).stream().filter(l -> l.getText().contains(held))
                .findFirst().map(l -> List.<Object>of(l.getText(), l.getTextFill())).orElseThrow());
        assertThat((Color) status.get(1)).as("'%s' is a wait", status.get(0)).isNotEqualTo(Palette.named("-kl-ok"))
                .isEqualTo(Palette.of(KeyState.NEEDS_CONFIRMATION));
    }

    /**
     * Test on a cookie login whose cookies are for another host sends nothing, and the row says so: the host it holds
     * no cookie for and the hosts its cookies are for, never a value; not that the site rejected it (no site saw it).
     * Its way out is the row's own Renew…, where {@code keyline credentials test} gives the command to type; in
     * English and in Chinese.
     */
    @Test
    void aTestOfALoginWithNoCookieForTheJobsHostSaysNothingWasSent(FxRobot robot) throws Exception {
        for (java.util.Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            Text.use(language);
            try {
                fx = new ConsoleFixture(tmp.resolve(language.toString()));
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", true,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                // exported from a browser on http://localhost: the job sends to 127.0.0.1
                assertThat(fx.wb.cliWithInput("# Netscape HTTP Cookie File\nlocalhost\tFALSE\t/\tFALSE\t0\tsession"
                        + "\tV4lue9\n", "credentials", "set", "sandbox-cookie").exit()).isZero();
                open(robot);
                Fx.clickOn(robot, () -> testButton(robot));

                String testing = Text.t("ui.credentials.testResult", Text.t("ui.credentials.testing"));
                waitUntil(() -> fxValue(robot, () -> statuses(robot).stream().anyMatch(l -> l.getText().startsWith(
                        Text.t("ui.credentials.testResult", "").strip())) && statuses(robot).stream()
                        .noneMatch(l -> l.getText().equals(testing))));
                List<String> shown = fxValue(robot, () -> statuses(robot).stream().map(Label::getText).toList());
                // the way out is the row's own Renew… (its Log in…, its paste box), not a command for a terminal
                assertThat(shown).as("the row's status after Test, in %s", language)
                        .anyMatch(t -> t.contains(language.equals(Text.CHINESE)
                                ? "什么都没有发送：凭据 sandbox-cookie 没有发往 127.0.0.1 的 Cookie"
                                : "nothing was sent: credential sandbox-cookie holds no cookie for 127.0.0.1")
                                && t.contains("Host=localhost") && t.contains(Text.t("ui.credentials.renew")))
                        .noneMatch(t -> t.contains("V4lue9") || t.contains(Text.t("ui.credentials.verdict.REJECTED"))
                                || t.contains("keyline credentials"));
                assertThat(fx.site.gets() + fx.site.posts()).as("nothing went out").isZero();
            } finally {
                Text.use(Text.ENGLISH);
                fx.close();
                fx = null;
            }
        }
    }

    /**
     * A credential whose value was never sent says so where it would say when it was last used, as
     * {@code credentials list} does ("not used yet"), in English and in Chinese, read whole in its column.
     */
    @Test
    void aCredentialNeverUsedSaysNotUsedYetInItsLastUsedCell(FxRobot robot) throws Exception {
        for (java.util.Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            Text.use(language);
            try {
                fx = new ConsoleFixture(tmp.resolve(language.toString()));
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", true,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit())
                        .isZero();
                open(robot);
                String notUsed = Text.t("cli.credentials.result.none");
                waitUntil(() -> fxValue(robot, () -> !lastUsed(robot).isEmpty()));
                assertThat(fxValue(robot, () -> lastUsed(robot).stream().map(Label::getText).toList()))
                        .as("the Last used cell of a credential never used, in %s", language).containsExactly(notUsed);
                // the cell's label and the text it draws read in one look: a reload may replace the cell's label
                assertThat(fxValue(robot, () -> lastUsed(robot).get(0).lookup(".text")
                        instanceof javafx.scene.text.Text t ? t.getText() : null))
                        .as("last used in %s, read whole", language).isEqualTo(notUsed);
            } finally {
                Text.use(Text.ENGLISH);
                fx.close();
                fx = null;
            }
        }
    }

    /**
     * The page reloads its rows every few seconds; a reload that finds nothing new leaves the row's buttons in
     * place. Rebuilt, a Test or Renew… the operator had pressed was gone from under the pointer by the release,
     * and the click did nothing.
     */
    @Test
    void aReloadThatFindsNothingNewKeepsTheRowsButtonsUnderThePointer(FxRobot robot) throws Exception {
        fx = new ConsoleFixture(tmp);
        fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", true,
                "\"credential\": \"sandbox-cookie\","), fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit()).isZero();
        open(robot);
        CredentialsViewModel page = fxValue(robot, () -> ((CredentialsView) stage.getScene().getRoot()
                .lookup(".credentials-page")).viewModel());
        for (int reload = 1; reload <= 3; reload++) {
            Button before = fxValue(robot, () -> testButton(robot));
            robot.interact(page::refresh);
            waitUntil(() -> fxValue(robot, () -> !page.loadingProperty().get()));
            Button after = fxValue(robot, () -> testButton(robot));
            assertThat(after).as("the Test button after reload %d", reload).isNotNull().isSameAs(before);
            assertThat(fxValue(robot, () -> before.getScene() != null)).as("still on the page").isTrue();
        }
    }

    /** The row's Test button as the page shows it now (call on the FX thread), or {@code null}. */
    private static Button testButton(FxRobot robot) {
        return robot.lookup(".credentials-table .button").match((Button b) -> Text.t("ui.credential.test")
                .equals(b.getText()) && b.getScene() != null).tryQuery().map(Button.class::cast).orElse(null);
    }

    private void open(FxRobot robot) throws Exception {
        robot.interact(() -> {
            Scene scene = ConsoleApp.scene(fx.services, Threads.javafx());
            stage.setScene(scene);
            stage.sizeToScene();
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#nav-credentials");
        waitForTest(robot);
    }

    /** Waits until the page shows an enabled Test button. */
    private static void waitForTest(FxRobot robot) throws Exception {
        waitUntil(() -> fxValue(robot, () -> {
            Button test = testButton(robot);
            return test != null && !test.isDisabled();
        }));
    }

    private static List<Label> lastUsed(FxRobot robot) {
        return robot.lookup(".credential-last-used .label").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && !l.getText().isBlank()).toList();
    }

    private static List<Label> statuses(FxRobot robot) {
        return robot.lookup(".credentials-table .label").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && !l.getText().isBlank()).toList();
    }
}
