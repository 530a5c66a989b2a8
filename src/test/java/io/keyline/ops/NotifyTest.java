package io.keyline.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.Jobs;
import io.keyline.core.json.Json;
import io.keyline.testing.FaultServer;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Hooks hear once per key and attention state, redacted; a failing hook changes nothing. */
class NotifyTest extends SiteTestBase {

    static final String SECRET = "tok3n-Sup3rS3cret-0042";

    FaultServer hookServer;
    final AtomicInteger hookStatus = new AtomicInteger(200);

    @BeforeEach
    void startHookServer() throws IOException {
        hookServer = new FaultServer(r -> new FaultServer.Reply.Respond(hookStatus.get(),
                Map.of("Content-Type", "application/json"), "{\"ok\":true}"));
    }

    @AfterEach
    void stopHookServer() throws IOException {
        hookServer.close();
    }

    /** publish (POST to the test site) and a command job that prints its token to stderr and fails. */
    void jobs(Workbench w) throws IOException {
        w.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        w.job("cmd", """
            {
              "name": "cmd",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "steps": [ { "id": "upload", "kind": "command", "effect": "none", "credential": "api-token",
                           "command": ["sh", "-c", "echo \\"upload refused for token $KEYLINE_CREDENTIAL\\" >&2; exit 65"] } ]
            }
            """, null);
        Result set = w.cliWithInput(SECRET + "\n", "credentials", "set", "api-token", "--type", "bearer");
        assertThat(set.exit()).as(set.toString()).isZero();
    }

    void notifyJson(Workbench w, String commandHook, String webhookFormat) throws IOException {
        Files.writeString(w.jobs.resolve("notify.json"), """
            {
              "hooks": [
                { "name": "log", "on": ["attention", "run"], "command": %s, "timeout": "PT5S" },
                { "on": ["attention"], "webhook": "%s/hook/T000/B000/xoxb-webhook-token", "format": "%s" }
              ]
            }
            """.formatted(commandHook, hookServer.base(), webhookFormat));
    }

    static final String LOGGING_HOOK = """
        ["sh", "-c", "cat >> events.jsonl; printf '%s|%s|%s\\\\n' \\"$1\\" \\"$2\\" \\"$KEYLINE_NOTIFY_STATE\\" >> args.txt", "hook", "{job} {key}", "{state}"]""";

    /** Four keys of pub, one per attention state, one of them FAILED only after its retries. */
    List<Result> runEverything(Workbench w) {
        site.failPosts(Fault.STATUS_404,                                         // 25: FAILED at once
                Fault.STATUS_429, Fault.STATUS_429, Fault.STATUS_429,            // 26: retried twice, then FAILED
                Fault.STATUS_500_AFTER_ACTING,                                   // 27: NEEDS_CONFIRMATION
                Fault.STATUS_401);                                               // 28: NEEDS_CREDENTIAL
        List<Result> out = new ArrayList<>();
        out.add(w.cli("run", "--yes", "pub", "--from", "2026-11-25", "--to", "2026-11-28"));
        out.add(w.cli("run", "cmd", "--key", "2026-11-29"));
        return out;
    }

    List<JsonNode> events() throws IOException {
        Path f = wb.jobs.resolve("events.jsonl");
        List<JsonNode> out = new ArrayList<>();
        if (Files.exists(f)) {
            for (String l : Files.readAllLines(f)) {
                if (!l.isBlank()) {
                    out.add(Json.read(l, JsonNode.class));
                }
            }
        }
        return out;
    }

    @Test
    void commandHookAndWebhookHearOncePerKeyAndAttentionState() throws IOException {
        jobs(wb);
        notifyJson(wb, LOGGING_HOOK, "slack");
        List<Result> runs = runEverything(wb);
        assertThat(runs.get(0).exit()).as(runs.get(0).toString()).isEqualTo(2);
        assertThat(runs.get(1).exit()).as(runs.get(1).toString()).isEqualTo(2);
        assertThat(site.posts()).as("26 was retried").isEqualTo(6);

        List<JsonNode> attention = events().stream().filter(e -> e.get("event").asText().equals("attention")).toList();
        assertThat(attention.stream().map(e -> e.get("job").asText() + " " + e.get("key").asText() + " "
                + e.get("state").asText()).toList()).containsExactlyInAnyOrder(
                "pub 2026-11-25 FAILED", "pub 2026-11-26 FAILED", "pub 2026-11-27 NEEDS_CONFIRMATION",
                "pub 2026-11-28 NEEDS_CREDENTIAL", "cmd 2026-11-29 FAILED");
        JsonNode retried = attention.stream().filter(e -> e.get("key").asText().equals("2026-11-26")).findFirst()
                .orElseThrow();
        assertThat(retried.get("reason").asText()).contains("after 3 attempts");
        assertThat(retried.get("evidence").get("status").asInt()).isEqualTo(429);
        assertThat(retried.get("hint").asText()).isEqualTo("keyline timeline pub 2026-11-26");
        for (String f : List.of("event", "job", "key", "state", "reason", "evidence", "hint", "message")) {
            assertThat(retried.has(f)).as(f).isTrue();
        }
        List<JsonNode> runEvents = events().stream().filter(e -> e.get("event").asText().equals("run")).toList();
        assertThat(runEvents).hasSize(2);
        assertThat(runEvents.get(0).get("exit").asInt()).isEqualTo(2);
        // the arguments got the values, each as one argument
        assertThat(Files.readAllLines(wb.jobs.resolve("args.txt"))).contains("pub 2026-11-27|NEEDS_CONFIRMATION|NEEDS_CONFIRMATION");

        List<FaultServer.Request> posts = hookServer.received();
        assertThat(posts).hasSize(5);
        assertThat(posts).allSatisfy(r -> {
            assertThat(r.method()).isEqualTo("POST");
            assertThat(Json.read(r.bodyText(), JsonNode.class).get("text").asText()).startsWith("Keyline: ");
        });

        // redacted: the token the command printed is in no event, no webhook body, no run log line
        String everything = Files.readString(wb.jobs.resolve("events.jsonl"))
                + String.join("\n", posts.stream().map(FaultServer.Request::bodyText).toList())
                + Files.readString(wb.state.resolve("logs/runs.jsonl"));
        assertThat(everything).contains("upload refused for token").doesNotContain(SECRET).doesNotContain("Sup3rS3cret");
        assertThat(everything).doesNotContain("xoxb-webhook-token");

        // later runs, other processes: nothing is announced twice
        wb.clock.advance(java.time.Duration.ofHours(1));
        assertThat(wb.cli("run", "--yes", "pub", "--from", "2026-11-25", "--to", "2026-11-28").exit()).isEqualTo(2);
        assertThat(wb.cli("run", "cmd", "--key", "2026-11-29").exit()).isEqualTo(2);
        assertThat(events().stream().filter(e -> e.get("event").asText().equals("attention"))).hasSize(5);
        assertThat(hookServer.received()).hasSize(5);

        // a key that leaves and enters an attention state again is announced again (a new entry)
        site.failPosts(Fault.STATUS_404);
        assertThat(wb.cli("retry", "pub", "2026-11-25").exit()).isZero();
        assertThat(wb.cli("run", "pub", "--key", "2026-11-25").exit()).isEqualTo(2);
        assertThat(events().stream().filter(e -> e.get("event").asText().equals("attention"))).hasSize(6);
    }

    @Test
    void hooksAddedLaterAnnounceTheKeysThatStillWaitNotThoseResolvedSince() throws IOException {
        jobs(wb);
        List<Result> runs = runEverything(wb);
        assertThat(runs.get(0).exit()).as(runs.get(0).toString()).isEqualTo(2);
        // resolved before anyone had a hook: done by hand, skipped, confirmed away
        assertThat(wb.cli("mark-done", "pub", "2026-11-25", "--note", "published by hand").exit()).isZero();
        assertThat(wb.cli("skip", "cmd", "2026-11-29", "--note", "not this day").exit()).isZero();
        wb.clock.advance(java.time.Duration.ofHours(1));

        notifyJson(wb, LOGGING_HOOK, "slack");
        Result test = wb.cli("run", "cmd", "--key", "2026-11-29");
        assertThat(test.exit()).as(test.toString()).isZero();

        assertThat(events().stream().filter(e -> e.get("event").asText().equals("attention"))
                .map(e -> e.get("job").asText() + " " + e.get("key").asText() + " " + e.get("state").asText())
                .toList()).as("a key that is DONE or SKIPPED now waits for nobody").containsExactlyInAnyOrder(
                "pub 2026-11-26 FAILED", "pub 2026-11-27 NEEDS_CONFIRMATION", "pub 2026-11-28 NEEDS_CREDENTIAL");
    }

    /** status --json without the times (the clock moves while hooks are retried). */
    static String states(Workbench w) {
        JsonNode all = Json.read(w.cli("status", "--json").out(), JsonNode.class);
        all.forEach(n -> ((com.fasterxml.jackson.databind.node.ObjectNode) n).remove(List.of("updatedAt", "nextAttemptAt",
                "waitingSince", "waitingSeconds")));
        return all.toString();
    }

    @Test
    void failingHooksChangeNeitherExitCodesNorStates() throws IOException {
        Workbench quiet = new Workbench(tmp.resolve("quiet"));
        jobs(quiet);
        List<Result> without = runEverything(quiet);
        String statesWithout = states(quiet);

        jobs(wb);
        hookStatus.set(500);
        notifyJson(wb, "[\"sh\", \"-c\", \"echo hook broke >&2; exit 3\"]", "wecom");
        List<Result> with = runEverything(wb);
        for (int i = 0; i < with.size(); i++) {
            assertThat(with.get(i).exit()).as(with.get(i).toString()).isEqualTo(without.get(i).exit());
        }
        assertThat(states(wb)).isEqualTo(statesWithout);
        assertThat(with.get(0).err()).contains("failed (attempt 1): exit 3: hook broke")
                .contains("failed (attempt 1): HTTP 500").doesNotContain("T000/B000");
        List<JsonNode> notifyLines = RunLogTest.log(wb.state.resolve("logs/runs.jsonl")).stream()
                .filter(l -> l.get("type").asText().equals("notify")).toList();
        assertThat(notifyLines).isNotEmpty().allSatisfy(l -> assertThat(l.get("result").asText()).isEqualTo("failed"));
        // retried with backoff within the run's budget, then left for later runs
        assertThat(notifyLines.stream().filter(l -> l.get("attempt").asInt() == 2)).isNotEmpty();
        assertThat(notifyLines.stream().mapToInt(l -> l.get("attempt").asInt()).max().orElse(0)).isLessThan(8);
    }

    @Test
    void aWecomRobotThatAnswersWithAnErrorCodeFailed() throws IOException {
        jobs(wb);
        hookServer.handler(r -> new FaultServer.Reply.Respond(200, Map.of("Content-Type", "application/json"),
                "{\"errcode\":93000,\"errmsg\":\"invalid webhook url\"}"));
        notifyJson(wb, "[\"true\"]", "wecom");
        Result r = wb.cli("run", "cmd", "--key", "2026-11-29");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("HTTP 200 with errcode 93000");
        JsonNode body = Json.read(hookServer.received().get(0).bodyText(), JsonNode.class);
        assertThat(body.get("msgtype").asText()).isEqualTo("text");
        assertThat(body.get("text").get("content").asText()).contains("cmd 2026-11-29 FAILED");
    }

    @Test
    void notifyTestSendsASampleToEveryHook() throws IOException {
        notifyJson(wb, LOGGING_HOOK, "feishu");
        Result r = wb.cli("notify", "test");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("hook 1 \"log\" (command sh): sent").contains("hook 2 (webhook http://127.0.0.1:")
                .doesNotContain("xoxb");
        assertThat(events()).hasSize(1);
        assertThat(events().get(0).get("event").asText()).isEqualTo("test");
        JsonNode body = Json.read(hookServer.received().get(0).bodyText(), JsonNode.class);
        assertThat(body.get("msg_type").asText()).as("a rich-text post: its text element is never read as markup")
                .isEqualTo("post");
        assertThat(body.at("/content/post/zh_cn/content/0/0/tag").asText()).isEqualTo("text");
        assertThat(body.at("/content/post/zh_cn/content/0/0/text").asText()).contains("test notification");
        assertThat(Files.exists(wb.state)).as("notify test needs no state").isFalse();

        hookStatus.set(503);
        Result failed = wb.cli("notify", "test");
        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.out()).contains("FAILED: HTTP 503");

        Result send = wb.cli("notify", "send", "--event", "run", "keyline.service failed");
        assertThat(send.exit()).isZero(); // only the command hook listens to run
        assertThat(events().get(events().size() - 1).get("reason").asText()).isEqualTo("keyline.service failed");
    }

    @Test
    void anInvalidNotifyFileIsReportedWithPositionsAndIsNoJob() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        Files.writeString(wb.jobs.resolve("notify.json"), """
            {
              "hooks": [
                { "on": ["attention", "atention"], "command": ["sh", "-c", "notify-send {message}"] },
                { "on": ["run"], "webhook": "ftp://example.org/x", "format": "teams" }
              ]
            }
            """);
        Result jobs = wb.cli("jobs");
        assertThat(jobs.exit()).as(jobs.toString()).isZero();
        assertThat(jobs.out()).doesNotContain("notify.json");

        Result t = wb.cli("notify", "test");
        assertThat(t.exit()).isEqualTo(1);
        String notify = wb.jobs.resolve("notify.json").toString();
        assertThat(t.err()).contains(notify + ":3:27: hooks[0].on: unknown event \"atention\"")
                .contains(notify + ":3:77: hooks[0].command[2]: {message} carries text from outside")
                .contains("$KEYLINE_MESSAGE")
                .contains(notify + ":4:33: hooks[1].webhook must be an http(s) URL")
                .contains(notify + ":4:66: hooks[1].format \"teams\" is not one of");

        site.failPosts(Fault.STATUS_404);
        Result run = wb.cli("run", "pub", "--key", "2026-11-29");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("notify.json is invalid; no notification is sent");
    }
}
