package io.keyline.ui.timeline;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.text.Text;
import io.keyline.ui.NoNavigation;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import io.keyline.ui.confirm.ConfirmPane;
import io.keyline.ui.confirm.ConfirmViewModel;
import io.keyline.ui.plan.PlanDialog;
import io.keyline.ui.plan.PlanViewModel;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Labeled;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * In Chinese, a key's timeline (waiting for a confirmation, then done), the Confirm pane (before and after
 * Confirm and run), the Plan dialog and the Retry dialog show none of their English messages: no visible label, button or
 * text reads as an English message of the timeline's, Confirm's, Retry's or Plan's part of the ui bundle
 * that reads differently in Chinese, or holds a piece of one of two words or more. What the core says (the
 * key's message, its events, the plan's actions) is still English and not checked here.
 */
@ExtendWith(ApplicationExtension.class)
class ChineseTimelineConfirmPlanTest {

    /** The parts of the ui bundle these screens take their words from. */
    static final List<String> PREFIXES = List.of("ui.timeline.", "ui.confirm.", "ui.retry.", "ui.plan.");

    @TempDir
    static Path tmp;
    Stage stage;
    TimelineConfirmFixture fx;

    @Start
    void start(Stage s) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        stage = s;
    }

    @BeforeEach
    void chinese() {
        Text.use(Text.CHINESE);
    }

    @AfterEach
    void tearDown() throws Exception {
        Text.use(Text.ENGLISH);
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void theTimelineConfirmAndPlanSpeakChinese(FxRobot robot) throws Exception {
        List<Message> english = englishMessages();
        assertThat(english).as("English messages of these screens").hasSizeGreaterThan(100);

        fx = new TimelineConfirmFixture(tmp.resolve("zh"));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, true));
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        // the timeline of the waiting key
        TimelineViewModel timeline = new TimelineViewModel(fx.services(), Threads.javafx());
        TimelineView view = fx(() -> {
            TimelineView v = new TimelineView(timeline, new NoNavigation());
            show(v);
            timeline.load("daily", KEY);
            return v;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> timeline.eventCountProperty().get()) > 0);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> waiting = fx(() -> shown(view));
        assertThat(waiting).as("the timeline's texts").contains("刷新", "时间", "发生了什么", "步骤", "消息");
        assertThat(waiting).anyMatch(t -> t.endsWith("个事件"));
        assertThat(english(waiting, english)).as("English on the timeline").isEmpty();

        // the Confirm pane: why it waits, what will be sent; then what happened
        ConfirmViewModel confirm = new ConfirmViewModel(fx.services(), Threads.javafx());
        ConfirmPane pane = fx(() -> {
            ConfirmPane p = new ConfirmPane(confirm, () -> { });
            show(p);
            confirm.load("daily", KEY);
            return p;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> confirm.canConfirmProperty().get()));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> before = fx(() -> shown(pane));
        assertThat(before).as("the Confirm pane's texts").contains("确认 publish", "等待原因", "将要发送的内容", "备注",
                "确认并运行", "标记为已完成…", "取消——不发送任何内容");
        assertThat(english(before, english)).as("English in the Confirm pane").isEmpty();

        assertThat(fx(() -> confirm.confirmAndRun("核实过:文章还没有发布"))).isTrue();
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> confirm.outcomeProperty().get()) != null);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> after = fx(() -> shown(pane));
        assertThat(after).as("the Confirm pane's texts after it ran").contains("发生了什么", "结果", "关闭",
                "已发送一次:步骤成功,任务项已完成。");
        assertThat(after).anyMatch(t -> t.startsWith("网站答复 HTTP 201:"));
        assertThat(after).anyMatch(t -> t.startsWith("检查在 ") && t.contains("结果还不存在"));
        assertThat(english(after, english)).as("English in the Confirm pane after it ran").isEmpty();

        // the timeline of the done key
        fx(() -> {
            show(view);
            timeline.reload();
            return null;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> timeline.stateProperty().get())
                == KeyState.DONE);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> done = fx(() -> shown(view));
        assertThat(done).anyMatch(t -> t.startsWith("完成于 "));
        assertThat(english(done, english)).as("English on the done key's timeline").isEmpty();

        // the Plan dialog of the job
        PlanViewModel plan = new PlanViewModel(fx.services(), Threads.javafx());
        PlanDialog dialog = fx(() -> {
            PlanDialog d = new PlanDialog(plan, () -> { });
            show(d.root());
            plan.loadJobs();
            plan.choice().jobProperty().set("daily");
            plan.plan();
            return d;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> plan.rows().size()) > 0);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> planned = fx(() -> shown(dialog.root()));
        assertThat(planned).as("the Plan dialog's texts").contains("计划 daily", "今天", "范围", "到期", "提前运行",
                "计划", "任务项", "状态", "计划的操作", "所选任务项的请求", "应用", "关闭");
        assertThat(english(planned, english)).as("English in the Plan dialog").isEmpty();

        // the Retry dialog of a failed key whose next step is the unsafe POST
        String failed = "2026-11-28";
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.run("daily", failed).state()).isEqualTo(KeyState.FAILED);
        List<io.keyline.core.operations.RetryAndSend.Send> sends = fx.services().operations().retryAndSend()
                .preview(fx.def("daily"), List.of(failed));
        assertThat(sends).hasSize(1);
        Stage retry = fx(() -> io.keyline.ui.confirm.RetryDialog.show(stage, "daily", sends, shown -> { }));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> retrying = fx(() -> shown(retry.getScene().getRoot()));
        assertThat(retry.getTitle()).isEqualTo("Keyline · 重试 · daily · " + failed);
        assertThat(retrying).as("the Retry dialog's texts").contains("重试 daily · " + failed, "publish 要发送的内容",
                "重试并发送", "取消——不发送任何内容");
        assertThat(english(retrying, english)).as("English in the Retry dialog").isEmpty();
        fx(() -> {
            retry.close();
            return null;
        });
    }

    private void show(Parent root) {
        Scene scene = root.getScene();
        if (scene == null) {
            scene = new Scene(root, 1100, 750);
            scene.getStylesheets().addAll(Theme.STYLESHEETS);
        }
        stage.setScene(scene);
        stage.show();
    }

    /** The texts of {@code texts} that show an English message: "text ⊃ message". */
    private static List<String> english(List<String> texts, List<Message> messages) {
        List<String> found = new ArrayList<>();
        for (String t : texts) {
            for (Message m : messages) {
                if (m.shownIn(t)) {
                    found.add(t + " ⊃ " + m.english());
                }
            }
        }
        return found;
    }

    /**
     * An English message of these screens (one wording of it, for a message that counts): it is shown in a text
     * that reads as the whole message (its arguments anything), or that holds one of its pieces of two words or
     * more (the words between its arguments). A single English word inside a longer text is not counted: the
     * core's English sentences (the key's message, its events) share words such as "Step" and "probe".
     */
    record Message(String english, Pattern whole, List<Pattern> pieces) {
        boolean shownIn(String text) {
            return whole.matcher(text).matches() || pieces.stream().anyMatch(p -> p.matcher(text).find());
        }
    }

    /** The English messages of these screens that read differently in Chinese, in each of their wordings. */
    static List<Message> englishMessages() throws IOException {
        Properties en = load("ui.properties");
        Properties zh = load("ui_zh_CN.properties");
        List<Message> out = new ArrayList<>();
        for (String key : en.stringPropertyNames()) {
            String e = en.getProperty(key);
            if (PREFIXES.stream().noneMatch(key::startsWith) || e.equals(zh.getProperty(key))) {
                continue;
            }
            for (String wording : wordings(e.replace("''", "'"))) {
                String[] parts = wording.split("\\{(?:[^{}]|\\{[^{}]*\\})*\\}", -1);
                StringBuilder whole = new StringBuilder();
                List<Pattern> pieces = new ArrayList<>();
                for (int i = 0; i < parts.length; i++) {
                    whole.append(i == 0 ? "" : "(?s).*").append(Pattern.quote(parts[i]));
                    String p = parts[i].strip();
                    boolean words = p.matches("(?s).*\\p{L}\\s+\\p{L}.*");
                    if (words && p.codePoints().filter(Character::isLetter).count() > 3) {
                        pieces.add(Pattern.compile("(?<![\\p{L}\\p{N}_-])" + Pattern.quote(p) + "(?![\\p{L}\\p{N}_-])"));
                    }
                }
                if (wording.replaceAll("\\{(?:[^{}]|\\{[^{}]*\\})*\\}", "").codePoints()
                        .filter(Character::isLetter).count() > 3) {
                    out.add(new Message(wording, Pattern.compile(whole.toString()), pieces));
                }
            }
        }
        return out;
    }

    /** A message with its count's choice spelled out: one wording per choice ("1 event", "{0} events"). */
    static List<String> wordings(String message) {
        java.util.regex.Matcher m = Pattern.compile("\\{\\d+,choice,").matcher(message);
        if (!m.find()) {
            return List.of(message);
        }
        int depth = 0;
        int end = m.start();
        for (; end < message.length(); end++) {
            char c = message.charAt(end);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0) {
                break;
            }
        }
        List<String> out = new ArrayList<>();
        String inner = message.substring(m.end(), end);
        int from = 0;
        depth = 0;
        for (int i = 0; i <= inner.length(); i++) {
            char c = i < inner.length() ? inner.charAt(i) : '|';
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (c == '|' && depth == 0) {
                String choice = inner.substring(from, i).replaceFirst("^[^#<]*[#<]", "");
                out.addAll(wordings(message.substring(0, m.start()) + choice + message.substring(end + 1)));
                from = i + 1;
            }
        }
        return out;
    }

    private static Properties load(String name) throws IOException {
        Properties p = new Properties();
        try (InputStream in = ChineseTimelineConfirmPlanTest.class.getResourceAsStream("/io/keyline/text/" + name)) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return p;
    }

    /** The texts of the visible labels, buttons and text nodes under {@code n}. */
    static List<String> shown(Node n) {
        List<String> out = new ArrayList<>();
        collect(n, out);
        return out;
    }

    private static void collect(Node n, List<String> out) {
        // a run's summary ("09:00:00 · 0 ms · 5 events") is the core's sentence, still English
        if (!n.isVisible() || n.getStyleClass().contains("timeline-run-summary")) {
            return;
        }
        if (n instanceof Labeled l && l.getText() != null && !l.getText().isBlank()) {
            out.add(l.getText());
        } else if (n instanceof javafx.scene.text.Text t && t.getText() != null && !t.getText().isBlank()) {
            out.add(t.getText());
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                collect(c, out);
            }
        }
    }

    static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }

}
