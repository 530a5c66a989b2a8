package io.keyline.ui.timeline;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.text.Text;
import io.keyline.ui.EnglishMessages;
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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * In Chinese, a key's timeline (waiting for a confirmation, then done), the Confirm pane (before and after
 * Confirm and run), the Plan dialog (today, then a range whose keys run, wait, failed, are done or not yet due) and
 * the Retry dialog show none of their English messages: no visible label, button, text or text area reads as an
 * English message of the timeline's, Confirm's, Retry's or Plan's part of the ui bundle or of the core's bundle
 * (the events, run summaries, evidence, plan actions, probe answers and the Confirm preview are the core's words)
 * that reads differently in Chinese, or holds a piece of one of two words or more. What the engine stored (a key's
 * message, a server's answer) is data, shown as it is.
 */
@ExtendWith(ApplicationExtension.class)
class ChineseTimelineConfirmPlanTest {

    /** The parts of the bundles these screens take their words from. */
    static final List<String> PREFIXES = List.of("ui.timeline.", "ui.confirm.", "ui.retry.", "ui.plan.", "core.",
            "common.");

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
        List<EnglishMessages.Message> english = EnglishMessages.of(PREFIXES);
        assertThat(english).as("English messages of these screens").hasSizeGreaterThan(300);

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
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> timeline.headerProperty().get().events()) > 0);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> waiting = fx(() -> shown(view));
        assertThat(waiting).as("the timeline's texts").contains("刷新", "时间", "事件", "步骤", "消息");
        assertThat(waiting).anyMatch(t -> t.endsWith("个事件"));
        assertThat(english(waiting, english)).as("English on the timeline").isEmpty();
        // the core's words: the run's title and summary, the events, the key's details, the failure's evidence
        assertThat(waiting).anyMatch(t -> t.startsWith("运行 ")).anyMatch(t -> t.matches(".* · \\d+ 个事件.*"))
                .contains("步骤开始", "步骤失败", "等待确认").anyMatch(t -> t.startsWith("步骤 publish · 已尝试 1 次"))
                .anyMatch(t -> t.startsWith("请求："))
                // the wait's evidence is the probe's, asked after attempt 1: not a second attempt
                .anyMatch(t -> t.startsWith("检查：") && t.contains("在第 1 次尝试之后询问"));

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
        // the core's preview: why it waits, the probe's latest answer, what will be sent, the failure's evidence
        assertThat(before).contains("上次尝试的结果未知：请求可能已经到达网站。")
                .anyMatch(t -> t.startsWith("最近一次检查的答复：不存在：结果还没有产生"))
                .anyMatch(t -> t.startsWith("正文     ") && t.contains("字节，来自文件 out/" + KEY + ".md"))
                .anyMatch(t -> t.startsWith("响应：") && t.contains("HTTP 502"));

        assertThat(fx(() -> confirm.confirmAndRun("核实过：文章还没有发布"))).isTrue();
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> confirm.outcomeProperty().get()) != null);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> after = fx(() -> shown(pane));
        assertThat(after).as("the Confirm pane's texts after it ran").contains("发生了什么", "结果", "关闭",
                "已发送一次：步骤成功，任务项已完成。");
        assertThat(after).anyMatch(t -> t.startsWith("网站答复 HTTP 201："));
        assertThat(after).anyMatch(t -> t.startsWith("检查在 ") && t.contains("结果还不存在"));
        assertThat(english(after, english)).as("English in the Confirm pane after it ran").isEmpty();

        // the timeline of the done key
        fx(() -> {
            show(view);
            timeline.reload();
            return null;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS,
                () -> fx(() -> timeline.headerProperty().get().record().state()) == KeyState.DONE);
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

        // a plan of a range whose keys run, wait for a confirmation, failed, are done, or are not yet due
        String waits = "2026-11-27";
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", waits).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        fx(() -> {
            show(dialog.root());
            plan.choice().targetProperty().set(io.keyline.ui.plan.PlanChoice.Target.RANGE);
            plan.choice().fromProperty().set("2026-11-25");
            plan.choice().toProperty().set("2026-11-30");
            plan.plan();
            return null;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> plan.rows().size()) == 6);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> actions = fx(() -> plan.rows().stream().map(PlanViewModel::actionText).toList());
        List<String> ranged = new ArrayList<>(fx(() -> shown(dialog.root())));
        ranged.addAll(actions);
        for (int i = 0; i < 6; i++) {
            int row = i;
            ranged.addAll(fx(() -> {
                plan.selectedProperty().set(plan.rows().get(row));
                return plan.detailProperty().get().lines().filter(l -> !l.isBlank()).toList();
            }));
        }
        assertThat(english(ranged, english)).as("English in the range's plan").isEmpty();
        assertThat(actions).as("the planned actions").containsExactly("运行 write → publish", "运行 write → publish",
                "需要确认：publish", "在 publish 失败：重试之后才会再次运行", "跳过（已完成）",
                "还没到期：2026-11-30 晚于当前任务项（勾选“提前运行”后重新计划即可包含它）");
        assertThat(ranged).as("the range's plan").anyMatch(t -> t.startsWith("6 个任务项 · 2 × 运行 write → publish"))
                .anyMatch(t -> t.startsWith("publish 的检查：不存在：结果还没有产生"))
                .anyMatch(t -> t.startsWith("  正文：文件 out/2026-11-25.md"))
                .contains("步骤：write → publish", "（没有 http 请求）");
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

    /** The texts of {@code texts} that show an English message. */
    private static List<String> english(List<String> texts, List<EnglishMessages.Message> messages) {
        return EnglishMessages.in(texts, messages);
    }

    /** The texts of the visible labels, buttons, text nodes and text areas under {@code n}, a line each. */
    static List<String> shown(Node n) {
        List<String> out = new ArrayList<>();
        collect(n, out);
        return out;
    }

    private static void collect(Node n, List<String> out) {
        if (!n.isVisible()) {
            return;
        }
        String text = n instanceof Labeled l ? l.getText() : n instanceof javafx.scene.text.Text t ? t.getText()
                : n instanceof javafx.scene.control.TextInputControl c ? c.getText() : null;
        if (text != null && !text.isBlank()) {
            // a text area's block (evidence, the request a step sends) line by line, as it reads
            out.addAll(n instanceof javafx.scene.control.TextInputControl ? text.lines()
                    .filter(l -> !l.isBlank()).toList() : List.of(text));
        }
        if (n instanceof javafx.scene.control.TextInputControl) {
            return; // its skin's text nodes hold the same text
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
