package io.keyline.cli;

import io.keyline.core.Engine;
import io.keyline.core.RunRequest;
import io.keyline.core.RunTrace;
import io.keyline.core.operations.Timeline;
import io.keyline.core.operations.Words;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.store.h2.H2Database;
import io.keyline.testing.FaultServer;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.text.Said;
import io.keyline.text.Text;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The messages a key's events carry read in the operator's language where a person reads them (the timeline of the
 * command line and of the console), and so does a key's own message (status, Confirm, Attention); in English where
 * a machine reads them ({@code --json}, the stored text): the state keeps each message's words (a bundle key and its
 * arguments) beside its English text, in the state's file.
 */
class EventWordsTest {

    private static final String KEY = "2026-11-29";

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void aRunsEventsAndTheOperatorsActionsReadInChineseOrEnglishAfterTheStateFile(@TempDir Path tmp)
            throws Exception {
        Workbench wb = new Workbench(tmp);
        failingJob(wb);
        assertThat(wb.cli("run", "no", "--key", KEY).exit()).isEqualTo(2);
        Workbench.Result retry = wb.cli("retry", "no", KEY, "--from-step", "work");
        assertThat(retry.exit()).as(retry.toString()).isZero();
        // the key's own message (status, Confirm, Attention) keeps its words too
        Text.use(Text.CHINESE);
        Workbench.Result status = wb.cli("status");
        assertThat(status.out()).as(status.toString()).contains("已重新启用，从步骤 work 开始").doesNotContain("re-armed");
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            assertThat(Words.keyMessage(ws.operations().key("no", KEY).orElseThrow()))
                    .startsWith("已重新启用，从步骤 work 开始（work 重新运行");
        }
        Text.use(Text.ENGLISH);
        Workbench.Result skip = wb.cli("skip", "no", KEY, "--note", "not today");
        assertThat(skip.exit()).as(skip.toString()).isZero();

        // the state's file keeps the English text as before, and the words beside it
        Map<String, String[]> stored = stored(wb);
        assertThat(stored.get("KEY_FAILED")[0]).isEqualTo("work failed: exit 65: bad input");
        assertThat(stored.get("KEY_FAILED")[1])
                .isEqualTo("{\"key\":\"core.event.stepFailed\",\"args\":[\"work\",{\"key\":\"core.exec.exitWhy\","
                        + "\"args\":[65,\"bad input\"]}]}");
        assertThat(stored.get("RETRIED")[0]).isEqualTo("re-armed from step work (work run again, their outputs "
                + "discarded; an unsafe step goes through its probe)");
        assertThat(stored.get("RETRIED")[1]).contains("\"key\":\"core.event.retriedFromRewind\"");
        assertThat(stored.get("SKIPPED")).containsExactly("skipped", "{\"key\":\"core.event.skipped\",\"args\":[]}");
        String[] key = storedKey(wb);
        assertThat(key[0]).startsWith("skipped by ");
        assertThat(key[1]).startsWith("{\"key\":\"core.event.skippedBy\",\"args\":[");

        Text.use(Text.CHINESE);
        Workbench.Result zh = wb.cli("timeline", "no", KEY);
        assertThat(zh.exit()).as(zh.toString()).isZero();
        assertThat(zh.out()).contains("已开始", "work 失败：退出码 65：bad input",
                "已重新启用，从步骤 work 开始（work 重新运行，之前的输出被丢弃；不安全步骤会先经过检查）", "已跳过");
        assertThat(zh.out()).doesNotContain("started", "failed:", "re-armed", "skipped");
        // machine output keeps the English words in every language
        Workbench.Result json = wb.cli("timeline", "no", KEY, "--json");
        assertThat(json.out()).contains("\"work failed: exit 65: bad input\"", "\"re-armed from step work (work run",
                "\"skipped\"").doesNotContain("已跳过", "失败");
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            assertThat(consoleMessages(ws)).contains("work 失败：退出码 65：bad input", "已跳过")
                    .anySatisfy(m -> assertThat(m).startsWith("已重新启用，从步骤 work 开始"));
        }

        assertThat(wb.cli("status").out()).contains("已由 ").contains(" 跳过");
        Workbench.Result statusJson = wb.cli("status", "--json");
        assertThat(statusJson.out()).contains("\"skipped by ").doesNotContain("跳过");

        Text.use(Text.ENGLISH);
        Workbench.Result en = wb.cli("timeline", "no", KEY);
        assertThat(en.out()).contains("work failed: exit 65: bad input", "re-armed from step work (work run again",
                "skipped").doesNotContain("失败", "已");
    }

    @Test
    void anEventAndAKeyStoredBeforeTheyKeptTheirWordsShowTheirText(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        failingJob(wb);
        assertThat(wb.cli("run", "no", "--key", KEY).exit()).isEqualTo(2);
        // as a state written by an older Keyline has it: the English text, no words
        try (H2Database db = H2Database.open(wb.state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE key_event SET message_said = NULL")).isGreaterThan(1);
        }
        assertThat(wb.cli("retry", "no", KEY, "--from-step", "work").exit()).isZero();
        try (H2Database db = H2Database.open(wb.state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE key_event SET message_said = NULL WHERE event_type = 'RETRIED'"))
                    .isOne();
            assertThat(st.executeUpdate("UPDATE key_state SET message_said = NULL")).isOne();
        }
        Text.use(Text.CHINESE);
        Workbench.Result zh = wb.cli("timeline", "no", KEY);
        assertThat(zh.exit()).as(zh.toString()).isZero();
        assertThat(zh.out()).contains("work failed: exit 65: bad input", "re-armed from step work (work run again");
        assertThat(wb.cli("status").out()).contains("re-armed from step work");
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            assertThat(ws.operations().key("no", KEY).orElseThrow().said()).isNull();
            assertThat(Words.keyMessage(ws.operations().key("no", KEY).orElseThrow()))
                    .startsWith("re-armed from step work (work run again");
            List<KeyEvent> events = ws.operations().events("no", KEY);
            assertThat(events).isNotEmpty().allSatisfy(e -> assertThat(e.said()).isNull());
            assertThat(consoleMessages(ws)).contains("work failed: exit 65: bad input");
        }
    }

    @Test
    void aStopBySignalIsRecordedInEnglishAndReadInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Path started = tmp.resolve("started");
        Path go = tmp.resolve("go");
        wb.job("two", """
                {
                  "name": "two",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "one", "kind": "command", "effect": "none",
                      "command": ["sh", "-c", "touch '%s'; while [ ! -f '%s' ]; do sleep 0.02; done"] },
                    { "id": "two", "kind": "command", "effect": "none", "command": ["true"] } ]
                }
                """.formatted(started, go), null);
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            JobDefinition job = ws.catalog().job("two").orElseThrow();
            Engine engine = ws.engine(RunTrace.NONE);
            Thread run = new Thread(() -> engine.run(job, List.of(KEY), RunRequest.plain(false, "--key")));
            run.start();
            // the first step is running: the process is told to stop, then the step ends
            for (int i = 0; i < 6000 && !Files.exists(started); i++) {
                Thread.sleep(10);
            }
            assertThat(started).exists();
            engine.stopStarting(Said.of("core.event.stoppedBy", "SIGTERM"));
            Files.createFile(go);
            run.join(60_000);
            assertThat(run.isAlive()).isFalse();

            KeyEvent yielded = ws.operations().events("two", KEY).stream()
                    .filter(e -> e.type() == EventType.YIELDED).findFirst().orElseThrow();
            assertThat(yielded.message()).isEqualTo("stopped by SIGTERM; stopped before step two");
            Text.use(Text.CHINESE);
            assertThat(Words.eventMessage(yielded)).isEqualTo("被 SIGTERM 停止；在步骤 two 之前停下");
            Text.use(Text.ENGLISH);
            assertThat(Words.eventMessage(yielded)).isEqualTo("stopped by SIGTERM; stopped before step two");
        }
    }

    @Test
    void whatKeylineSaysOfARequestThatGotNoAnswerReadsInChinese(@TempDir Path tmp) throws Exception {
        try (TestSite site = new TestSite()) {
            site.failPosts(TestSite.Fault.HANG_BEFORE_ACTING);
            Workbench wb = new Workbench(tmp);
            wb.job("post", """
                    {
                      "name": "post",
                      "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "publish", "kind": "http", "effect": "unsafe", "timeout": "PT1S",
                                   "request": { "method": "POST", "url": "BASE/api/articles", "body": "a {key}" } } ]
                    }
                    """, site.base());
            Workbench.Result run = wb.cli("run", "post", "--key", KEY);
            assertThat(run.exit()).as(run.toString()).isNotZero();
            assertThat(site.posts()).isOne();

            String english = "no answer within 1s (timeout; the request may have been sent)";
            String chinese = "1s 内没有答复（超时；请求可能已经发出）";
            assertThat(storedKey(wb)[0]).contains(english);
            assertThat(wb.cli("timeline", "post", KEY, "--json").out()).contains(english).doesNotContain(chinese);
            Text.use(Text.CHINESE);
            Workbench.Result zh = wb.cli("timeline", "post", KEY);
            assertThat(zh.out()).as(zh.toString()).contains(chinese);
            // the evidence's detail too: it records the English of the words its event keeps
            assertThat(zh.out()).containsPattern("详情：\\s+" + java.util.regex.Pattern.quote(chinese))
                    .doesNotContain("no answer");
            assertThat(wb.cli("status").out()).contains(chinese);
            try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
                assertThat(Words.keyMessage(ws.operations().key("post", KEY).orElseThrow())).contains(chinese)
                        .doesNotContain("no answer");
                JobDefinition post = ws.catalog().job("post").orElseThrow();
                // Attention's evidence line and Confirm's evidence, where the operator decides whether to send again
                var items = ws.operations().attention(List.of(post), Map.of(), wb.clock.instant());
                assertThat(items).hasSize(1);
                assertThat(items.get(0).evidence()).contains(chinese).doesNotContain("no answer");
                String confirm = ws.operations().confirmAndRun().preview(post, KEY).evidenceText();
                assertThat(confirm).contains(chinese).doesNotContain("no answer");
                Text.use(Text.ENGLISH);
                assertThat(ws.operations().confirmAndRun().preview(post, KEY).evidenceText()).contains(english);
                Text.use(Text.CHINESE);
            }
            Text.use(Text.ENGLISH);
            assertThat(wb.cli("timeline", "post", KEY).out()).contains(english);
        }
    }

    @Test
    void theHopsAndTheLocationOfARedirectReadInChineseInEveryEvidencePane(@TempDir Path tmp) throws Exception {
        String elsewhere = "http://elsewhere.invalid/report";
        try (FaultServer site = new FaultServer(r -> r.path().equals("/api/report")
                ? new FaultServer.Reply.Respond(302, Map.of("Location", "/api/report/v2"), "")
                : new FaultServer.Reply.Respond(302, Map.of("Location", elsewhere), ""))) {
            Workbench wb = new Workbench(tmp);
            wb.job("get", """
                    {
                      "name": "get",
                      "key": { "type": "date", "zone": "UTC" },
                      "retry": { "maxAttempts": 1 },
                      "steps": [ { "id": "report", "kind": "http", "effect": "none", "followRedirects": "same-origin",
                                   "request": { "method": "GET", "url": "BASE/api/report" } } ]
                    }
                    """, site.base());
            Workbench.Result run = wb.cli("run", "get", "--key", KEY);
            assertThat(run.exit()).as(run.toString()).isEqualTo(2);

            // the evidence records the same English as before, and machine output keeps it
            String hops = "hops: GET " + site.base() + "/api/report -> 302; GET " + site.base() + "/api/report/v2 -> 302";
            String english = hops + "\\nLocation: " + elsewhere;
            assertThat(wb.cli("timeline", "get", KEY, "--json").out()).contains(english);
            String chineseHops = "重定向经过：GET " + site.base() + "/api/report -> 302; GET " + site.base()
                    + "/api/report/v2 -> 302";
            String chineseLocation = "重定向到：" + elsewhere;

            Text.use(Text.CHINESE);
            Workbench.Result zh = wb.cli("timeline", "get", KEY);
            assertThat(zh.out()).as(zh.toString()).contains(chineseHops, chineseLocation)
                    .doesNotContain("hops:", "Location:");
            try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
                // the console's timeline detail, and Confirm's evidence as it shows a recorded failure
                Timeline.EventRow failed = ws.operations().timeline(Optional.empty(), "get", KEY).rows().stream()
                        .filter(r -> r instanceof Timeline.EventRow e && e.evidence() != null)
                        .map(Timeline.EventRow.class::cast).findFirst().orElseThrow();
                assertThat(failed.evidenceText()).contains(chineseHops, chineseLocation)
                        .doesNotContain("hops:", "Location:");
                var preview = new io.keyline.core.operations.ConfirmAndRun.Preview(
                        ws.operations().key("get", KEY).orElseThrow(), null,
                        io.keyline.core.operations.ConfirmAndRun.Reason.OUTCOME_UNKNOWN, failed.evidence(),
                        failed.words(), "", false, null, null, null);
                assertThat(preview.evidenceText()).contains(chineseHops, chineseLocation)
                        .doesNotContain("hops:", "Location:");
                Text.use(Text.ENGLISH);
                assertThat(failed.evidenceText()).contains(hops + "\\nLocation: " + elsewhere);
            }
            Text.use(Text.ENGLISH);
            assertThat(wb.cli("timeline", "get", KEY).out()).contains(hops, "Location: " + elsewhere);
        }
    }

    @Test
    void aProbeThatGaveNoAnswerIsSaidInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("slow", """
                {
                  "name": "slow",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "publish", "kind": "command", "effect": "unsafe", "command": ["true"],
                               "probe": { "kind": "command", "command": ["sh", "-c", "sleep 5"], "timeout": "PT1S" } } ]
                }
                """, null);
        Workbench.Result run = wb.cli("run", "slow", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isNotZero();
        assertThat(wb.cli("timeline", "slow", KEY).out()).contains("probe timed out");
        Text.use(Text.CHINESE);
        Workbench.Result zh = wb.cli("timeline", "slow", KEY);
        assertThat(zh.out()).as(zh.toString()).contains("检查超时；检查没有明确答复，步骤不运行");
        assertThat(zh.out().lines().filter(l -> !l.strip().startsWith("详情：")))
                .noneMatch(l -> l.contains("probe timed out"));
        assertThat(wb.cli("status").out()).contains("检查超时");
    }

    @Test
    void whatAStepAndAProbeSayOfTheSitesAnswerReadsInChineseInAttentionTheTimelineAndConfirm(@TempDir Path tmp)
            throws Exception {
        try (FaultServer site = new FaultServer(r -> r.method().equals("POST")
                ? new FaultServer.Reply.Respond(r.path().equals("/api/strict") ? 200 : 502, Map.of(), "maintenance")
                : new FaultServer.Reply.Respond(200, Map.of(), "[]"))) {
            Workbench wb = new Workbench(tmp);
            wb.job("post", """
                    {
                      "name": "post",
                      "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "publish", "kind": "http", "effect": "unsafe",
                                   "request": { "method": "POST", "url": "BASE/api/articles", "body": "a {key}" },
                                   "probe": { "kind": "http", "url": "BASE/api/articles?date={key}",
                                              "presentWhen": { "bodyContains": "{key}" } } } ]
                    }
                    """, site.base());
            wb.job("strict", """
                    {
                      "name": "strict",
                      "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "publish", "kind": "http", "effect": "unsafe",
                                   "request": { "method": "POST", "url": "BASE/api/strict", "body": "a {key}" },
                                   "response": { "successWhen": { "bodyContains": "created" } } } ]
                    }
                    """, site.base());
            assertThat(wb.cli("run", "post", "--key", KEY).exit()).isNotZero();
            assertThat(wb.cli("run", "strict", "--key", KEY).exit()).isNotZero();

            // recorded in English: the probe's answer as before, the unmet success rule in plain words
            String absent = "probe: the body does not contain \"" + KEY + "\" (absent)";
            String unmet = "HTTP 200 but the answer does not show success (the body does not contain \"created\"): "
                    + "maintenance";
            assertThat(wb.cli("timeline", "post", KEY, "--json").out()).contains(absent.replace("\"", "\\\""));

            String zhAbsent = "不存在：结果还没有产生（检查读到的是 正文不包含 \"" + KEY + "\"）";
            String zhUnmet = "HTTP 200，但答复没有表明成功（正文不包含 \"created\"）：maintenance";
            Text.use(Text.CHINESE);
            // the command line's timeline shows each event as recorded: the probe's answer as the probe gave it
            assertThat(wb.cli("timeline", "post", KEY).out()).contains("检查：正文不包含 \"" + KEY + "\"（不存在）")
                    .doesNotContain("the body");
            assertThat(wb.cli("timeline", "strict", KEY).out()).contains(zhUnmet).doesNotContain("the body");
            try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
                JobDefinition post = ws.catalog().job("post").orElseThrow();
                JobDefinition strict = ws.catalog().job("strict").orElseThrow();
                // Attention's reason line
                var items = ws.operations().attention(List.of(post, strict), Map.of(), wb.clock.instant());
                assertThat(items).extracting(i -> i.reason()).anySatisfy(r -> assertThat(r).contains(zhAbsent))
                        .anySatisfy(r -> assertThat(r).contains(zhUnmet)).noneMatch(r -> r.contains("the body"));
                // the timeline's messages
                assertThat(messages(ws, "post")).anySatisfy(m -> assertThat(m).contains(zhAbsent))
                        .noneMatch(m -> m.contains("the body"));
                // the site took the unsafe request (a 2xx): what it did may be there, said in Chinese too
                assertThat(messages(ws, "strict")).contains("publish 失败：" + zhUnmet
                        + "；网站接受了这个请求（HTTP 200）：publish 可能已经做成了：再次发送之前先查看它的结果是否已经在那里");
                // Confirm: the probe's latest answer
                var preview = ws.operations().confirmAndRun().preview(post, KEY);
                assertThat(preview.probeAnswer()).startsWith("最近一次检查的答复：" + zhAbsent);
            }
            Text.use(Text.ENGLISH);
            try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
                var preview = ws.operations().confirmAndRun().preview(ws.catalog().job("post").orElseThrow(), KEY);
                assertThat(preview.probeAnswer()).startsWith("Latest probe answer: absent: the effect is not there yet "
                        + "(the probe checked the body does not contain \"" + KEY + "\")");
            }
            assertThat(wb.cli("status", "--json").out()).contains(unmet.replace("\"", "\\\""));
        }
    }

    /** What the console's timeline says for each event of a key of {@code job}, in the language in use. */
    private static List<String> messages(Workspace ws, String job) {
        List<String> out = new ArrayList<>();
        for (Timeline.Row r : ws.operations().timeline(Optional.empty(), job, KEY).rows()) {
            if (r instanceof Timeline.EventRow e) {
                out.add(e.message());
            }
        }
        return out;
    }

    /** What the console's timeline says for each event of the key, in the language in use. */
    private static List<String> consoleMessages(Workspace ws) {
        List<String> out = new ArrayList<>();
        for (Timeline.Row r : ws.operations().timeline(Optional.empty(), "no", KEY).rows()) {
            if (r instanceof Timeline.EventRow e) {
                out.add(e.message());
            }
        }
        return out;
    }

    /** Event type → its stored English text and its stored words (the last event of each type). */
    private static Map<String, String[]> stored(Workbench wb) throws Exception {
        Map<String, String[]> out = new LinkedHashMap<>();
        try (H2Database db = H2Database.open(wb.state); Connection c = db.adminConnection();
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT event_type, message, message_said FROM key_event ORDER BY id")) {
            while (rs.next()) {
                out.put(rs.getString(1), new String[] {rs.getString(2), rs.getString(3)});
            }
        }
        return out;
    }

    /** The key's stored English message and its stored words. */
    private static String[] storedKey(Workbench wb) throws Exception {
        try (H2Database db = H2Database.open(wb.state); Connection c = db.adminConnection();
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT message, message_said FROM key_state")) {
            assertThat(rs.next()).isTrue();
            return new String[] {rs.getString(1), rs.getString(2)};
        }
    }

    private static void failingJob(Workbench wb) throws Exception {
        wb.job("no", """
                {
                  "name": "no",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "echo bad input >&2; exit 65"] } ]
                }
                """, null);
    }
}
