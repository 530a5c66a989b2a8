package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.testing.TestSite.Fault;
import io.keyline.text.Text;
import io.keyline.ui.MainWindowTest;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.Pane;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import org.assertj.core.api.SoftAssertions;

/**
 * The console's "Needs attention" note says in one short line how many keys wait and for what, with its Show
 * button; the Attention card keeps the whole reason (for a key held for its job's review, the paragraph about
 * Plan…). Each kind of wait in turn, seen in the real main window in English and in Chinese.
 */
class AttentionNoteTest extends MainWindowTest {

    private void open(FxRobot robot, Locale language) throws Exception {
        Text.use(language);
        fixture("note");
        fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false, null), fx.site.base());
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        fx.wb.job("login", Jobs.publish("login", "unsafe", false, "\"credential\": \"site-cookie\","),
                fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie", "--login-url",
                "https://sandbox.example/login").exit()).isZero();
        show(robot, 1024, 680);
        waitUntil(() -> !console.model().loadingProperty().get() && console.model().lastRefreshProperty().get() != null);
    }

    private void seedReview(String job, String key) {
        Instant now = fx.wb.clock.instant();
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh(job, key, now));
        fx.ws.store().apply(fresh, fresh.withState(KeyState.NEEDS_CONFIRMATION).withStep("publish", 1)
                        .withWaitReason(WaitReason.REVIEW),
                null, new KeyEvent(0, job, key, now, "seed", EventType.WAITING_FOR_CONFIRMATION, "publish", 1,
                        KeyState.NEEDS_CONFIRMATION, null, "seeded", null, null, null)
                        .withWaitReason(WaitReason.REVIEW));
    }

    /** Refreshes as the 3-second ticker does, and reads the newest note: title, text and buttons, then closes it. */
    private List<String> newestNote(FxRobot robot) throws Exception {
        robot.interact(() -> console.refresh());
        waitUntil(() -> robot.lookup(".toast").tryQuery().isPresent());
        List<String> note = fxValue(robot, () -> {
            Pane row = (Pane) robot.lookup("#toasts").queryAs(Pane.class).getChildren().get(0);
            List<String> parts = new ArrayList<>();
            for (Node n : row.getChildren()) {
                parts.add(n instanceof Button b ? "[" + b.getText() + "]" : ((Label) n).getText());
            }
            return parts;
        });
        robot.interact(() -> robot.lookup("#toasts").queryAs(Pane.class).getChildren().clear());
        return note;
    }

    @Test
    void eachNoteIsOneShortLineInEnglishAndChinese(FxRobot robot) throws Exception {
        // every kind is checked (and told) even when one note is wrong
        SoftAssertions soft = new SoftAssertions();
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            boolean zh = language == Text.CHINESE;
            open(robot, language);
            String title = zh ? "需要处理" : "Needs attention";
            String show = zh ? "[查看]" : "[Show]";

            for (String key : List.of("2026-11-25", "2026-11-26", "2026-11-27")) {
                seedReview("daily-article", key);
            }
            soft.assertThat(newestNote(robot)).as("keys held for the review in %s", language).containsExactly(title,
                    zh ? "daily-article 的 3 个任务项待审核" : "3 keys of daily-article wait for the review",
                    show, "[×]");

            fx.site.failPosts(Fault.STATUS_502);
            assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-29").exit()).isEqualTo(4);
            soft.assertThat(newestNote(robot)).as("a confirmation in %s", language).containsExactly(title,
                    zh ? "daily 2026-11-29 待确认" : "daily 2026-11-29 waits for confirmation", show, "[×]");

            fx.site.failPosts(Fault.STATUS_404);
            assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isEqualTo(2);
            soft.assertThat(newestNote(robot)).as("a failure in %s", language).containsExactly(title,
                    zh ? "daily 2026-11-28 失败" : "daily 2026-11-28 failed", show, "[×]");

            fx.site.requireCookie("session=v2");
            assertThat(fx.wb.cli("run", "login", "--key", "2026-11-29").exit()).isEqualTo(4);
            soft.assertThat(newestNote(robot)).as("a login in %s", language).containsExactly(title,
                    zh ? "1 个任务项等待 site-cookie 重新登录" : "1 key waits for a new login to site-cookie", show, "[×]");

            // the Attention card still says the whole reason
            assertThat(fxValue(robot, () -> robot.lookup("#inbox-list .reason").queryAll().stream()
                    .map(n -> ((Label) n).getText()).toList()))
                    .anyMatch(r -> r.contains(zh ? "还没有人审核过 daily-article" : "Nobody has reviewed the unsafe steps of daily-article"));
            closeMainWindow(robot);
        }
        soft.assertAll();
    }

    /** The note's Show opens Attention on the item the note is about (to look at), not on the list's first item. */
    @Test
    void showHighlightsTheItemTheNoteIsAbout(FxRobot robot) throws Exception {
        open(robot, Text.ENGLISH);
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isEqualTo(2);
        newestNote(robot);
        robot.interact(() -> console.showJob("daily"));
        for (String key : List.of("2026-11-25", "2026-11-26")) {
            seedReview("daily-article", key);
        }
        robot.interact(() -> console.refresh());
        waitUntil(() -> robot.lookup(".toast .button").tryQuery().isPresent());
        Button showButton = fxValue(robot, () -> robot.lookup(".toast .button").queryAll().stream()
                .map(n -> (Button) n).filter(b -> "Show".equals(b.getText())).findFirst().orElseThrow());
        robot.interact(showButton::fire);
        javafx.scene.control.ListView<?> list = robot.lookup("#inbox-list")
                .queryAs(javafx.scene.control.ListView.class);
        waitUntil(() -> fxValue(robot, () -> list.getSelectionModel().getSelectedItem() != null));
        io.keyline.core.operations.Attention.Item shown = fxValue(robot,
                () -> (io.keyline.core.operations.Attention.Item) list.getSelectionModel().getSelectedItem());
        assertThat(shown.kind()).as("the highlighted item, %s", shown.title())
                .isEqualTo(io.keyline.core.operations.Attention.Kind.REVIEW);
        assertThat(fxValue(robot, () -> list.getItems().indexOf(shown))).as("not the list's first item").isPositive();
    }
}
