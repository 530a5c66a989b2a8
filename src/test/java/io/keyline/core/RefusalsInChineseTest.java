package io.keyline.core;

import io.keyline.core.operations.LoginCheck;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Said;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the core refuses and why, a credential test's verdict, why keys wait for a review and which keys are caught
 * up are said in Chinese under zh-CN, and in the same English as before under English; machine output (the
 * English of a refusal, the detail a stop records) stays English in both.
 */
class RefusalsInChineseTest {

    /** Daily at 08:00 UTC from 2026-11-27, an unsafe step: on the workbench's 2026-11-29 09:00 three keys are due. */
    private static final String DAILY = """
            { "name": "daily", "key": { "type": "date", "zone": "UTC", "start": "2026-11-27" },
              "schedule": "0 8 * * *",
              "steps": [
                { "id": "write", "kind": "command", "effect": "none", "command": ["true"] },
                { "id": "publish", "kind": "command", "effect": "unsafe", "command": ["sh", "-c", "true"] } ] }
            """;

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void refusalsOfTheCommandLineSpeakChineseAndStayEnglishInEnglish(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", DAILY, null);

        // before any run: the plan of the due keys says which were missed and why they wait
        Text.use(Text.CHINESE);
        Result plan = wb.cli("plan", "daily", "--due");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("补跑：错过了 2026-11-27 08:00 的定时运行",
                "publish：命令 sh -c true").doesNotContain("catch-up", "new job", "command sh");
        Text.use(Text.ENGLISH);
        assertThat(wb.cli("plan", "daily", "--due").out()).contains("(catch-up: missed tick 2026-11-27 08:00)",
                "new job: review its plan", "publish: command sh -c true");

        Text.use(Text.CHINESE);
        Result due = wb.cli("run", "--due");
        assertThat(due.out()).as(due.toString()).contains("daily 2026-11-27：补跑：错过了 2026-11-27 08:00 的定时运行")
                .doesNotContain("catch-up");
        Result review = wb.cli("confirm", "daily", "2026-11-29");
        assertThat(review.exit()).as(review.toString()).isEqualTo(1);
        assertThat(review.err()).contains("daily 2026-11-29 等待的是作业 daily 的审核，不是单个任务项的确认",
                "keyline approve daily").doesNotContain("waits for");
        Result never = wb.cli("rearm", "daily", "2026-12-20", "--note", "再来一次");
        assertThat(never.err()).as(never.toString())
                .contains("作业 daily 的任务项 2026-12-20 从未运行过：没有可以操作的内容").doesNotContain("has never run");
        Result notNow = wb.cli("rearm", "daily", "2026-11-29", "--note", "再来一次");
        assertThat(notNow.err()).as(notNow.toString())
                .contains("无法重新执行 daily 2026-11-29：它的状态是“待确认”（只能重新执行状态为“已完成”的任务项）");
        Result noPlan = wb.cli("apply", "0123456789abcdef");
        assertThat(noPlan.err()).as(noPlan.toString()).contains("这个状态中没有计划 0123456789abcdef")
                .doesNotContain("in this state");
        Result ahead = wb.cli("run", "daily", "--key", "2026-12-05");
        assertThat(ahead.err()).as(ahead.toString())
                .contains("2026-12-05 还没到期：daily 的当前任务项是 2026-11-29（UTC 时区）。什么都没有运行。")
                .doesNotContain("not yet due");

        Text.use(Text.ENGLISH);
        assertThat(wb.cli("confirm", "daily", "2026-11-29").err()).contains("daily 2026-11-29 waits for the review "
                + "of job daily, not for a confirmation of one key: review its plan (keyline plan daily, then keyline "
                + "apply PLAN_ID) or approve the job (keyline approve daily)");
        assertThat(wb.cli("rearm", "daily", "2026-12-20", "--note", "again").err())
                .contains("key 2026-12-20 of job daily has never run: nothing to act on");
        assertThat(wb.cli("rearm", "daily", "2026-11-29", "--note", "again").err())
                .contains("cannot rearm daily 2026-11-29: it is NEEDS_CONFIRMATION (rearm applies to DONE)");
        assertThat(wb.cli("apply", "0123456789abcdef").err()).contains("no plan 0123456789abcdef in this state "
                + "(plans are made by 'keyline plan JOB' or the console's Plan)");
        assertThat(wb.cli("run", "daily", "--key", "2026-12-05").err()).contains("2026-12-05 is not yet due: the "
                + "current key of daily is 2026-11-29 (UTC). Nothing ran. To run it ahead of schedule, add --ahead");
    }

    @Test
    void aRefusalIsSaidWhenShownAndKeepsItsEnglishForMachines() {
        Text.use(Text.CHINESE);
        OperatorException e = OperatorException.of("core.refused.changedMeanwhile", "daily", "2026-11-29");
        assertThat(e.getMessage()).isEqualTo("任务项 daily 2026-11-29 在你操作的同时有了变化（另一个进程正在处理它）：请重新查看后再试");
        assertThat(e.english()).isEqualTo("key daily 2026-11-29 changed while you acted (another process is working "
                + "on it): look again and retry");
        Text.use(Text.ENGLISH);
        assertThat(e.getMessage()).isEqualTo(e.english());
        // a message that is already words (another exception's) is shown as it is
        assertThat(new OperatorException("wrong master key").getMessage()).isEqualTo("wrong master key");
    }

    @Test
    void aCredentialTestSaysItsVerdictInChinese() {
        List<CredentialTester.Result> accepted = List.of(
                new CredentialTester.Result("daily", "publish", CredentialTester.Verdict.ACCEPTED, Said.plain("HTTP 200")),
                new CredentialTester.Result("np", "publish", CredentialTester.Asked.STEP,
                        CredentialTester.Verdict.NOT_TESTED, Said.of("core.tester.unsafeNoProbe")));
        List<CredentialTester.Result> rejected = List.of(new CredentialTester.Result("daily", "publish",
                CredentialTester.Verdict.REJECTED, Said.plain("HTTP 401")));

        Text.use(Text.CHINESE);
        assertThat(CredentialTester.summary("shop", accepted)).isEqualTo("已接受：1 个答复满足了成功条件，没有一个显示登录被拒绝。");
        assertThat(CredentialTester.summary("shop", rejected)).isEqualTo("被拒绝：1 个答复中有 1 个显示登录被拒绝：请更新它。");
        assertThat(CredentialTester.summary("shop", List.of())).startsWith("无法确定：使用 shop 的请求中没有");
        assertThat(LoginCheck.line(accepted.get(0))).isEqualTo("daily/publish 的检查：已接受（HTTP 200）");
        assertThat(LoginCheck.line(accepted.get(1))).isEqualTo("np/publish 的请求：未测试（这是不安全的请求，而且没有 HTTP 检查）");

        Text.use(Text.ENGLISH);
        assertThat(CredentialTester.summary("shop", accepted))
                .isEqualTo("Accepted: 1 answer met its success condition and none showed a rejected login.");
        assertThat(CredentialTester.summary("shop", rejected))
                .isEqualTo("Rejected: 1 of 1 answer showed a rejected login: renew it.");
        assertThat(LoginCheck.line(accepted.get(0))).isEqualTo("daily/publish probe: accepted (HTTP 200)");
        assertThat(LoginCheck.line(accepted.get(1))).isEqualTo("np/publish request: not tested (an unsafe request without an "
                + "http probe)");
    }

    @Test
    void whyAJobWaitsForReviewAndACatchUpAreSaidWhereShownAndStayEnglishWhereStored() {
        Targets.DueKey missed = new Targets.DueKey("2026-11-27",
                ZonedDateTime.of(2026, 11, 27, 8, 0, 0, 0, ZoneOffset.UTC), true);
        Text.use(Text.CHINESE);
        assertThat(Review.Need.NEW_JOB.said().text()).isEqualTo("新作业：请审核它的计划");
        // the detail of the engine's stop, which a key's record keeps, is English in every language
        assertThat(Review.Need.NEW_JOB.words()).isEqualTo("new job: review its plan");
        assertThat(Review.Need.said(Review.Need.CHANGED.words()).text()).isEqualTo("审核之后有不安全的步骤改变了：请再次审核它的计划");
        assertThat(missed.note().text()).isEqualTo("补跑：错过了 2026-11-27 08:00 的定时运行");
        assertThat(missed.note().english()).isEqualTo("catch-up: missed tick 2026-11-27 08:00");
        Text.use(Text.ENGLISH);
        assertThat(Review.Need.CHANGED.said().text())
                .isEqualTo("an unsafe step changed since its review: review its plan again");
    }
}
