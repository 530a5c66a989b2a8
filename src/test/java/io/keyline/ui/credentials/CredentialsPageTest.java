package io.keyline.ui.credentials;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.domain.KeyState;
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
        waitUntil(() -> robot.lookup(".credentials-table .button").match((Button b) -> Text.t("ui.credential.test")
                .equals(b.getText()) && !b.isDisabled()).tryQuery().isPresent());
        robot.clickOn(robot.lookup(".credentials-table .button").match((Button b) -> Text.t("ui.credential.test")
                .equals(b.getText())).queryButton());

        String held = "until daily-article is reviewed";
        waitUntil(() -> statuses(robot).stream().anyMatch(l -> l.getText().contains(held)));
        Label status = statuses(robot).stream().filter(l -> l.getText().contains(held)).findFirst().orElseThrow();
        assertThat(fx.state("daily-article", "2026-11-29")).as("resumed").isEqualTo(KeyState.PENDING);
        Color fill = fxValue(robot, () -> (Color) status.getTextFill());
        assertThat(fill).as("'%s' is a wait", status.getText()).isNotEqualTo(Palette.named("-kl-ok"))
                .isEqualTo(Palette.of(KeyState.NEEDS_CONFIRMATION));
    }

    /**
     * Test on a cookie login whose cookies are for another host sends nothing, and the row says so in the words
     * {@code keyline credentials test} uses: the host it holds no cookie for and the hosts its cookies are for,
     * never a value; not that the site rejected it (no site saw it).
     */
    @Test
    void aTestOfALoginWithNoCookieForTheJobsHostSaysNothingWasSent(FxRobot robot) throws Exception {
        fx = new ConsoleFixture(tmp);
        fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", true,
                "\"credential\": \"sandbox-cookie\","), fx.site.base());
        // exported from a browser on http://localhost: the job sends to 127.0.0.1
        assertThat(fx.wb.cliWithInput("# Netscape HTTP Cookie File\nlocalhost\tFALSE\t/\tFALSE\t0\tsession\tV4lue9\n",
                "credentials", "set", "sandbox-cookie").exit()).isZero();
        open(robot);
        robot.clickOn(robot.lookup(".credentials-table .button").match((Button b) -> Text.t("ui.credential.test")
                .equals(b.getText())).queryButton());

        String testing = Text.t("ui.credentials.testResult", Text.t("ui.credentials.testing"));
        waitUntil(() -> statuses(robot).stream().anyMatch(l -> l.getText().startsWith(
                Text.t("ui.credentials.testResult", "").strip())) && statuses(robot).stream()
                .noneMatch(l -> l.getText().equals(testing)));
        List<String> shown = fxValue(robot, () -> statuses(robot).stream().map(Label::getText).toList());
        assertThat(shown).as("the row's status after Test")
                .anyMatch(t -> t.contains("nothing was sent: credential sandbox-cookie holds no cookie for 127.0.0.1")
                        && t.contains("Host=localhost"))
                .noneMatch(t -> t.contains("V4lue9") || t.contains(Text.t("ui.credentials.verdict.REJECTED")));
        assertThat(fx.site.gets() + fx.site.posts()).as("nothing went out").isZero();
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
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                assertThat(fxValue(robot, () -> lastUsed(robot).stream().map(Label::getText).toList()))
                        .as("the Last used cell of a credential never used, in %s", language).containsExactly(notUsed);
                Label cell = lastUsed(robot).get(0);
                assertThat(fxValue(robot, () -> cell.lookup(".text") instanceof javafx.scene.text.Text t
                        ? t.getText() : null)).as("last used in %s, read whole", language).isEqualTo(notUsed);
            } finally {
                Text.use(Text.ENGLISH);
                fx.close();
                fx = null;
            }
        }
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
        waitUntil(() -> robot.lookup(".credentials-table .button").match((Button b) -> Text.t("ui.credential.test")
                .equals(b.getText()) && !b.isDisabled()).tryQuery().isPresent());
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
