package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.MainWindowTest;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three morning uses through the real main window, against a real state folder and a real
 * loopback site: see a failed key and its evidence, confirm an unsafe step once, renew a cookie.
 */
class ConsoleEndToEndTest extends MainWindowTest {

    static final String KEY = "2026-11-29";

    TestSite site;

    private void open(FxRobot robot) {
        showQuiet(robot);
    }

    private void setUp(String job) throws Exception {
        site = fixture("e2e").site;
        fx.wb.job("daily", job, site.base());
    }

    /** Keys the inbox says wait for a person (its items of missing keys aside). */
    static int waiting(FxRobot robot) {
        ListView<?> inbox = robot.lookup("#inbox-list").queryAs(ListView.class);
        return inbox.getItems().stream().mapToInt(i -> ((io.keyline.core.operations.Attention.Item) i).waitingKeys())
                .sum();
    }

    private static void waitUntil(java.util.concurrent.Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, condition);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void aFailedKeyIsInTheInboxAndItsTimelineShowsTheEvidence(FxRobot robot) throws Exception {
        setUp(Jobs.publish("daily", "unsafe", false, null));
        site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        open(robot);

        waitUntil(() -> waiting(robot) == 1);
        Label badge = robot.lookup("#attention-badge").queryAs(Label.class);
        assertThat(badge.getText()).isEqualTo("1");
        assertThat(robot.lookup("#inbox-list .inbox-item .key").queryLabeled().getText()).contains("daily").contains(KEY);
        assertThat(robot.lookup("#inbox-list .evidence").queryLabeled().getText()).contains("HTTP 404");
        assertThat(robot.lookup("#action-daily-" + KEY).queryButton().getText()).isEqualTo("Retry");

        robot.doubleClickOn("#inbox-list .inbox-item .key");
        waitUntil(() -> robot.lookup(".evidence-text").tryQuery().isPresent()
                && !robot.lookup(".evidence-text").queryAs(TextArea.class).getText().isEmpty());
        String evidence = robot.lookup(".evidence-text").queryAs(TextArea.class).getText();
        assertThat(evidence).contains("404").contains("no such site").contains("POST");
    }

    @Test
    void confirmingAWaitingUnsafeStepSendsExactlyOneRequestEvenOnADoubleClick(FxRobot robot) throws Exception {
        setUp(Jobs.publish("daily", "unsafe", false, null));
        site.failPosts(Fault.STATUS_502);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        long before = site.posts();
        site.postDelayMillis(300);
        open(robot);
        waitUntil(() -> robot.lookup("#action-daily-" + KEY).tryQuery().isPresent());
        assertThat(robot.lookup("#action-daily-" + KEY).queryButton().getText()).isEqualTo("Confirm…");

        robot.clickOn("#action-daily-" + KEY);
        waitUntil(() -> robot.lookup("Confirm and run").tryQuery().isPresent()
                && !robot.lookup("Confirm and run").queryButton().isDisabled());
        Button confirm = robot.lookup("Confirm and run").queryButton();
        robot.doubleClickOn(confirm);

        waitUntil(() -> robot.lookup(".confirm-outcome-text").tryQuery().isPresent()
                && robot.lookup(".confirm-outcome-text").queryLabeled().getText()
                .startsWith("The site answered HTTP 201: id = "));
        assertThat(site.posts() - before).isEqualTo(1);
        assertThat(site.effects(KEY)).isEqualTo(1);
        waitUntil(() -> waiting(robot) == 0);
    }

    @Test
    void pastingARenewedCookieResumesTheParkedKeysAndTheyComplete(FxRobot robot) throws Exception {
        setUp(Jobs.publish("daily", "unsafe", true, "\"credential\": \"site-cookie\","));
        site.requireCookie("session=v2");
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie").exit()).isZero();
        assertThat(fx.wb.cli("run", "--yes", "daily", "--from", "2026-11-28", "--to", KEY).exit()).isEqualTo(4);
        assertThat(fx.wb.cli("approve", "daily").exit()).isZero(); // reviewed: the renewal may run its keys
        open(robot);
        // one item for the rejected cookie, listing both keys
        waitUntil(() -> waiting(robot) == 2);
        assertThat(robot.lookup("#credential-badge").query().isVisible()).isTrue();

        robot.clickOn("#action-credential-site-cookie");
        waitUntil(() -> robot.lookup(".credential-input").tryQuery().isPresent());
        robot.clickOn(".credential-input").write("Cookie: session=v2");
        waitUntil(() -> !robot.lookup("Save and resume").queryButton().isDisabled());
        robot.clickOn("Save and resume");

        waitUntil(() -> robot.lookup(".credential-message").queryLabeled().getText().contains("2 of 2 completed"));
        assertThat(robot.lookup(".credential-message").queryLabeled().getText()).contains("2 parked keys resumed");
        assertThat(site.effects("2026-11-28")).isEqualTo(1);
        assertThat(site.effects(KEY)).isEqualTo(1);
        waitUntil(() -> waiting(robot) == 0);
        assertThat(fx.wb.cli("status", "daily", "--json").out()).doesNotContain("NEEDS_CREDENTIAL");
    }
}
