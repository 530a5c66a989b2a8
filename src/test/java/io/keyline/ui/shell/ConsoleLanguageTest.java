package io.keyline.ui.shell;

import atlantafx.base.theme.PrimerLight;
import io.keyline.core.operations.Attention;
import io.keyline.testing.TestSite.Fault;
import io.keyline.text.Text;
import io.keyline.ui.common.Language;
import io.keyline.ui.MainWindowTest;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.keyline.ui.login.ChineseScreensTest.english;
import static io.keyline.ui.login.ChineseScreensTest.englishPieces;
import static io.keyline.ui.login.ChineseScreensTest.fx;
import static io.keyline.ui.login.ChineseScreensTest.shown;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main console in Simplified Chinese: the sidebar, the Attention page (two keys failed the same way, a key waits
 * for a login that was never set, days that never ran) and a paused job's page show none of the English sentences of
 * their bundle keys, nor of the core's (the items' titles, reasons, evidence and actions); and the sidebar's switch
 * turns the console's words to Chinese and back on the page in use, keeping the choice for the next start.
 */
class ConsoleLanguageTest extends MainWindowTest {

    static final String KEY = "2026-11-29";
    /** The keys of the console's own words. */
    static final Predicate<String> CONSOLE_KEYS = k -> k.startsWith("ui.console.") || k.startsWith("ui.nav.")
            || k.startsWith("ui.inbox.") || k.startsWith("ui.job.") || k.startsWith("ui.language.")
            || k.startsWith("ui.scheduler.") || k.startsWith("ui.workers.title") || k.startsWith("ui.credentials.title");

    Path settings;

    @Start
    void start(Stage stage) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
    }

    @BeforeEach
    void setUp() throws Exception {
        settings = tmp.resolve("settings").resolve("console.properties");
        System.setProperty("keyline.settings", settings.toString());
        fixture("console");
        fx.publishJob("daily", null);
        fx.publishJob("weekly", null);
        fx.site.failPosts(Fault.STATUS_404, Fault.STATUS_404, Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        fx.services.operations().actions().pause("weekly", "the site is moving", null);
    }

    @AfterEach
    void clearSettings() {
        System.clearProperty("keyline.settings");
    }

    private void open(FxRobot robot) throws Exception {
        showQuiet(robot, 1280, 860);
        waitForItems(robot);
    }

    private static void waitForItems(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> {
            ListView<?> list = robot.lookup("#inbox-list").queryAs(ListView.class);
            return list.getItems().stream().anyMatch(i -> ((Attention.Item) i).kind() == Attention.Kind.FAILED);
        }));
        WaitForAsyncUtils.waitForFxEvents();
    }

    private ConsoleView console() throws Exception {
        return fx(() -> (ConsoleView) stage.getScene().getRoot());
    }

    private static void waitForJob(FxRobot robot, String name) throws Exception {
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> {
            Node title = robot.lookup("#job-view .page-title").tryQuery().orElse(null);
            return title != null && name.equals(((Label) title).getText())
                    && robot.lookup("#paused-banner").tryQuery().map(Node::isVisible).orElse(false);
        }));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** The texts of the console that show one of the core's English messages (or a common one). */
    private static List<String> coreEnglish(List<String> texts) throws java.io.IOException {
        return io.keyline.ui.EnglishMessages.in(texts, io.keyline.ui.EnglishMessages.of(List.of("core.", "common.")));
    }

    @Test
    void theAttentionPageAndAJobPageSpeakChinese(FxRobot robot) throws Exception {
        List<String> english = englishPieces(CONSOLE_KEYS);
        assertThat(english).as("English pieces of the console's keys").hasSizeGreaterThan(20);
        // a second key of daily fails the same way; a key of another job waits for a login that was never set
        assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isEqualTo(2);
        fx.publishJob("members", "site-cookie");
        fx.wb.cli("run", "members", "--key", KEY);
        assertThat(fx.state("members", KEY)).isEqualTo(io.keyline.domain.KeyState.NEEDS_CREDENTIAL);
        Text.use(Text.CHINESE);
        open(robot);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> console().model().attention().stream()
                .anyMatch(i -> i.kind() == Attention.Kind.CREDENTIAL)));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> attention = fx(() -> shown(stage.getScene().getRoot()));
        assertThat(attention).as("the Attention page's texts").contains("待处理", "作业", "English", "中文");
        assertThat(coreEnglish(attention)).as("the core's English on the Attention page").isEmpty();
        // the core's words on the items: the group of failures, the login that was never set, the days never run
        assertThat(attention).contains("daily  ·  2 个任务项  ·  publish", "1 个任务项等待 site-cookie 重新登录",
                "凭据还没有设置。设置之后，这些任务项会继续运行。")
                .anyMatch(t -> t.startsWith("2 个任务项以同样的方式失败（请求被拒绝）："))
                .anyMatch(t -> t.matches("daily  ·  有 \\d+ 天从未运行"))
                .anyMatch(t -> t.startsWith("已等待 "));
        assertThat(english(attention, english)).as("English on the Attention page").isEmpty();

        robot.interact(() -> ((ConsoleView) stage.getScene().getRoot()).showJob("weekly"));
        waitForJob(robot, "weekly");
        List<String> job = fx(() -> shown(stage.getScene().getRoot()));
        assertThat(job).as("the job page's texts").contains("计划…", "恢复", "运行所选", "任务项", "状态")
                .anyMatch(t -> t.startsWith("已被 ") && t.contains("the site is moving"));
        assertThat(english(job, english)).as("English on a paused job's page").isEmpty();
        assertThat(coreEnglish(job)).as("the core's English on a paused job's page").isEmpty();
        // the pause sign is drawn, not a glyph a CJK font lacks
        assertThat(job).noneMatch(t -> t.contains("⏸"));
        assertThat(robot.lookup("#pause-icon").tryQuery()).isPresent();
    }

    /** In Chinese at 1024×680, the smallest window, the Attention page and a job's page keep their controls. */
    @Test
    void theChinesePagesFitTheSmallestWindow(FxRobot robot) throws Exception {
        Text.use(Text.CHINESE);
        open(robot);
        robot.interact(() -> {
            stage.setWidth(1024);
            stage.setHeight(680);
        });
        WaitForAsyncUtils.waitForFxEvents();
        java.util.Map<String, List<String>> problems = new java.util.LinkedHashMap<>();
        problems.put("Attention", ConsoleLayoutTest.problems(robot, stage));
        for (String job : List.of("weekly", "daily")) {
            robot.interact(() -> ((ConsoleView) stage.getScene().getRoot()).showJob(job));
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#job-view .page-title")
                    .tryQuery().map(t -> job.equals(((Label) t).getText())).orElse(false)
                    && (job.equals("weekly") ? robot.lookup("#paused-banner").query().isVisible()
                    : !robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().isEmpty())));
            Thread.sleep(300); // the page's layout settles (as in ConsoleLayoutTest)
            WaitForAsyncUtils.waitForFxEvents();
            problems.put("job " + job, ConsoleLayoutTest.problems(robot, stage));
        }
        problems.values().removeIf(List::isEmpty);
        assertThat(problems).as("controls off screen or cut without a tooltip at 1024x680 in Chinese").isEmpty();
    }

    @Test
    void theSwitchTurnsTheConsoleToChineseAndBackOnTheSamePage(FxRobot robot) throws Exception {
        Text.use(Text.ENGLISH);
        open(robot);
        robot.interact(() -> ((ConsoleView) stage.getScene().getRoot()).showJob("weekly"));
        waitForJob(robot, "weekly");
        assertThat(fx(() -> shown(stage.getScene().getRoot()))).contains("Attention", "JOBS");

        robot.clickOn("#language-zh");
        waitForJob(robot, "weekly");
        assertThat(Text.chinese()).isTrue();
        List<String> zh = fx(() -> shown(stage.getScene().getRoot()));
        assertThat(zh).as("the sidebar in Chinese").contains("待处理", "作业", "English", "中文")
                .doesNotContain("Attention", "JOBS");
        assertThat(english(zh, englishPieces(CONSOLE_KEYS))).as("English after the switch").isEmpty();
        assertThat(coreEnglish(zh)).as("the core's English after the switch").isEmpty();
        assertThat(fx(() -> stage.getScene().getFocusOwner().getId())).as("the switch keeps the focus")
                .isEqualTo("language-zh");
        // the sidebar's count of what waits is drawn as before the switch, not greyed out as if nothing waited
        Label badge = robot.lookup("#attention-badge").queryAs(Label.class);
        assertThat(fx(() -> Integer.parseInt(badge.getText()))).isPositive();
        assertThat(fx(() -> List.copyOf(badge.getStyleClass()))).as("the count's style after the switch")
                .doesNotContain("quiet");
        assertThat(Language.saved()).as("the choice is kept for the next start").isEqualTo(Text.CHINESE);
        assertThat(Language.atStart("en")).as("KEYLINE_LANG wins over the saved choice").isEqualTo(Text.ENGLISH);
        Text.use(Text.CHINESE);

        // back by keyboard: Shift+Tab from 中文 reaches English, Space chooses it
        robot.press(javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.TAB)
                .release(javafx.scene.input.KeyCode.TAB, javafx.scene.input.KeyCode.SHIFT);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> stage.getScene().getFocusOwner().getId())).isEqualTo("language-en");
        robot.type(javafx.scene.input.KeyCode.SPACE);
        waitForJob(robot, "weekly");
        assertThat(Text.chinese()).isFalse();
        assertThat(fx(() -> shown(stage.getScene().getRoot()))).contains("Attention", "JOBS").doesNotContain("待处理");
        assertThat(Language.saved()).isEqualTo(Text.ENGLISH);
        assertThat(console().model()).isNotNull();
    }

    /**
     * The console built in the other language lets the old one go: the models it listened to outlive it (a
     * console kept alive by them went on reacting to every reload, once per switch).
     */
    @Test
    void aSwitchLetsTheOldConsoleGo(FxRobot robot) throws Exception {
        Text.use(Text.ENGLISH);
        open(robot);
        java.lang.ref.WeakReference<ConsoleView> old = new java.lang.ref.WeakReference<>(console());
        console = null; // the test's own reference to the view it showed would keep it alive
        // by the console's own method: a robot's click is kept by the test library with the old console as target
        robot.interact(() -> old.get().switchLanguage(Text.CHINESE));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> console() != old.get()));
        waitForItems(robot);
        robot.interact(() -> ((ConsoleView) stage.getScene().getRoot()).refresh());
        waitForItems(robot);
        for (int i = 0; i < 50 && old.get() != null; i++) {
            System.gc();
            Thread.sleep(100);
        }
        assertThat(old.get()).as("the console before the switch, after garbage collection").isNull();
    }
}
