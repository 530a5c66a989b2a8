package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.MainWindowTest;
import javafx.scene.Node;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;

import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retry of a key whose next step is an unsafe POST shows exactly what will be sent (method, URL, masked
 * headers, body, hash) before anything is sent, from Attention, the job page and the timeline, in the real
 * main window (headless) against a real state and a loopback site that counts the POSTs. A retry whose next
 * step is safe runs at once.
 */
class RetryShowsWhatItSendsTest extends MainWindowTest {

    static final String KEY = "2026-11-29";
    static final String SECRET = "s3cr3t-session-value";

    TestSite site;

    /** daily: write, then an unsafe POST with a cookie; its POST got a 404, so the key failed. */
    private void failedKey() throws Exception {
        fixture("retry");
        site = fx.site;
        fx.publishJob("daily", "site-cookie");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "sid=" + SECRET,
                null), "tester");
        site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        assertThat(fx.state("daily", KEY)).isEqualTo(KeyState.FAILED);
    }

    private void open(FxRobot robot) {
        showQuiet(robot, 1280, 860);
    }

    /** The Retry dialog is open and shows the POST, masked; nothing was sent. */
    private void showsThePost(FxRobot robot, long posts) throws Exception {
        waitUntil(() -> robot.lookup("#retry-and-send").tryQuery().isPresent());
        String payload = robot.lookup(".retry-payload").queryTextInputControl().getText();
        assertThat(payload).startsWith("POST " + site.base() + "/api/articles")
                .contains("Idempotency-Key: daily:" + KEY + ":publish")
                .contains("Cookie: ***")
                .contains("article for " + KEY)
                .contains("sha256 ")
                .doesNotContain(SECRET);
        assertThat(robot.lookup(".confirm-hash").queryLabeled().getText()).startsWith("Payload hash ");
        assertThat(robot.lookup("#retry-explain").queryLabeled().getText()).contains("publish");
        assertThat(site.posts() - posts).as("nothing is sent while it is shown").isZero();
        assertThat(fx.state("daily", KEY)).isEqualTo(KeyState.FAILED);
    }

    @Test
    void retryInAttentionShowsThePostAndSendsItOnlyFromThere(FxRobot robot) throws Exception {
        failedKey();
        long posts = site.posts();
        open(robot);
        waitUntil(() -> robot.lookup("#action-daily-" + KEY).tryQuery().isPresent());
        assertThat(robot.lookup("#action-daily-" + KEY).queryButton().getText()).isEqualTo("Retry");

        robot.clickOn("#action-daily-" + KEY);
        showsThePost(robot, posts);
        // Cancel sends nothing and re-arms nothing
        robot.clickOn("#retry-cancel");
        WaitForAsyncUtils.waitForFxEvents();
        Thread.sleep(300);
        assertThat(site.posts() - posts).isZero();
        assertThat(fx.state("daily", KEY)).isEqualTo(KeyState.FAILED);

        robot.clickOn("#action-daily-" + KEY);
        showsThePost(robot, posts);
        robot.doubleClickOn("#retry-and-send");
        waitUntil(() -> fx.state("daily", KEY) == KeyState.DONE);
        assertThat(site.posts() - posts).as("one POST, once it was shown and sent").isEqualTo(1);
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void retryOnTheJobPageAndInTheTimelineShowsThePostFirst(FxRobot robot) throws Exception {
        failedKey();
        long posts = site.posts();
        open(robot);
        robot.interact(() -> console.showJob("daily"));
        waitUntil(() -> robot.lookup("#key-table").queryAs(TableView.class).getItems().size() == 1);
        Node row = robot.lookup("#key-table .table-row-cell").queryAll().stream()
                .filter(n -> ((javafx.scene.control.TableRow<?>) n).getItem() != null).findFirst().orElseThrow();
        // the row's menu, as a right click opens it: its Retry item
        io.keyline.testing.Fx.choose(robot, io.keyline.testing.Fx.rightClick(robot, row), "Retry");
        showsThePost(robot, posts);
        robot.clickOn("#retry-cancel");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(site.posts() - posts).isZero();

        robot.interact(() -> console.showTimeline("daily", KEY));
        waitUntil(() -> robot.lookup(".timeline-header .button").queryAll().stream()
                .anyMatch(n -> n.isVisible() && "Retry".equals(((javafx.scene.control.Button) n).getText())));
        Node timelineRetry = robot.lookup(".timeline-header .button").queryAll().stream()
                .filter(n -> n.isVisible() && "Retry".equals(((javafx.scene.control.Button) n).getText()))
                .findFirst().orElseThrow();
        robot.clickOn(timelineRetry);
        showsThePost(robot, posts);
        robot.clickOn("#retry-and-send");
        waitUntil(() -> fx.state("daily", KEY) == KeyState.DONE);
        assertThat(site.posts() - posts).isEqualTo(1);
    }

    /** The decision says the retried key's next step is safe (a local command): nothing to show, it runs. */
    @Test
    void aRetryWhoseNextStepIsSafeRunsAtOnce(FxRobot robot) throws Exception {
        fixture("retry");
        site = fx.site;
        fx.wb.job("local", Jobs.command("local", "none", "test -f ready || exit 65", "PT10S"), site.base());
        assertThat(fx.wb.cli("run", "local", "--key", KEY).exit()).isEqualTo(2);
        Files.writeString(fx.wb.jobs.resolve("ready"), "yes");
        open(robot);
        waitUntil(() -> robot.lookup("#action-local-" + KEY).tryQuery().isPresent());

        robot.clickOn("#action-local-" + KEY);
        waitUntil(() -> fx.state("local", KEY) == KeyState.DONE);
        assertThat(robot.lookup("#retry-and-send").tryQuery()).isEmpty();
        assertThat(site.posts()).isZero();
    }
}
