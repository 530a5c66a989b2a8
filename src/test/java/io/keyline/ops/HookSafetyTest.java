package io.keyline.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Notification hooks against hostile parties on loopback: a site whose error body carries chat
 * markup (mentions, a disguised link), a webhook that echoes its own token in its error answer, a
 * webhook that trickles its answer, a command hook that ignores SIGTERM and leaves a grandchild in
 * its own session holding the pipes.
 */
class HookSafetyTest {

    /** What a hostile site puts in an error body, for a team chat. */
    static final String MARKUP = "<!channel> <!here> <@U024BE7LH> <https://evil.example/login|Log in again> "
            + "<at user_id=\"all\">all</at> **bold** [click](https://evil.example/x)";

    @TempDir
    Path tmp;

    Workbench wb;
    FaultServer site;
    FaultServer hooks;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        site = new FaultServer(r -> new Reply.Respond(422, Map.of("Content-Type", "text/plain"), MARKUP));
        hooks = new FaultServer(r -> Reply.status(200, "{\"ok\": true, \"errcode\": 0, \"code\": 0}"));
        wb.job("pub", """
                {
                  "name": "pub",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [ { "id": "publish", "kind": "http", "effect": "idempotent",
                               "request": { "method": "POST", "url": "BASE/api/articles", "body": "x" } } ]
                }
                """, site.base());
    }

    @AfterEach
    void tearDown() throws IOException {
        site.close();
        hooks.close();
    }

    void notifyJson(String hooksJson) throws IOException {
        Files.writeString(wb.jobs.resolve("notify.json"), "{ \"hooks\": [\n" + hooksJson + "\n] }\n");
    }

    String webhook(String path, String format, String extra) {
        return "{ \"on\": [\"attention\"], \"webhook\": \"" + hooks.base() + path + "\", \"format\": \"" + format + "\""
                + (extra == null ? "" : ", " + extra) + " }";
    }

    JsonNode bodyOf(String pathPrefix) {
        FaultServer.Request r = hooks.received().stream().filter(x -> x.path().startsWith(pathPrefix)).findFirst()
                .orElseThrow(() -> new AssertionError("nothing posted to " + pathPrefix + ": " + hooks.received()));
        return Json.read(r.bodyText(), JsonNode.class);
    }

    /** Every text value in a JSON tree. */
    static List<String> texts(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n.isTextual()) {
            out.add(n.asText());
        }
        n.forEach(c -> out.addAll(texts(c)));
        return out;
    }

    @Test
    void chatMarkupFromAServerReachesTheTeamAsTextNeverAsAMentionOrALink() throws IOException {
        notifyJson(String.join(",\n", webhook("/slack/T1/B1/tok", "slack", null), webhook("/feishu/hook/tok", "feishu",
                null), webhook("/ding/robot/send?access_token=t0k3n", "dingtalk", null),
                webhook("/wecom/send?key=k3y", "wecom", null)));
        Result run = wb.cli("run", "pub", "--key", "2026-11-02");
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);

        JsonNode slack = bodyOf("/slack/");
        String text = slack.get("text").asText();
        assertThat(text).as("the server's words are there").contains("Log in again", "evil.example");
        assertThat(text).as("escaped as Slack asks: &, <, >").contains("&lt;!channel&gt;", "&lt;@U024BE7LH&gt;")
                .doesNotContain("<!channel>", "<!here>", "<@U", "<https://", "<at ");
        assertThat(texts(slack)).noneMatch(t -> t.contains("<!") || t.contains("<@") || t.contains("<http"));

        JsonNode feishu = bodyOf("/feishu/");
        assertThat(texts(feishu)).anyMatch(t -> t.contains("evil.example"));
        assertThat(feishu.findValues("tag").stream().map(JsonNode::asText)).as("no mention element").doesNotContain("at");
        if (feishu.path("msg_type").asText().equals("text")) {
            assertThat(feishu.at("/content/text").asText()).as("a Feishu text message reads <at> tags")
                    .doesNotContain("<at ");
        }

        JsonNode ding = bodyOf("/ding/");
        assertThat(ding.path("msgtype").asText()).as("a text message: no markdown, no link").isEqualTo("text");
        assertThat(ding.at("/at/isAtAll").asBoolean(false)).isFalse();
        assertThat(ding.at("/text/content").asText()).contains("evil.example");

        JsonNode wecom = bodyOf("/wecom/");
        assertThat(wecom.path("msgtype").asText()).isEqualTo("text");
        assertThat(wecom.at("/text/mentioned_list").isMissingNode() || wecom.at("/text/mentioned_list").isEmpty()).isTrue();
        assertThat(wecom.at("/text/content").asText()).contains("evil.example");
    }

    @Test
    void aWebhookThatEchoesItsTokenHasItMaskedEverywhere() throws Exception {
        // the hook answers 403 with what it was called with: path, query, and the signature Keyline added
        hooks.handler(r -> new Reply.Respond(403, Map.of("Content-Type", "text/plain"),
                "invalid token: " + r.path() + "?" + r.query()));
        notifyJson(String.join(",\n",
                webhook("/services/T0AB12CD3/B0EF45GH6/xoxbPathT0kenSecret42?access_token=AccessT0kenValue99&sign=S1gnV4lue77",
                        "slack", null),
                webhook("/robot/send?access_token=DingT0kenValue55", "dingtalk", "\"secret\": \"SECsigningSecret123\"")));
        Result run = wb.cli("run", "pub", "--key", "2026-11-02");
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        Result test = wb.cli("notify", "test");
        assertThat(test.exit()).isEqualTo(1);
        String shown = run.out() + run.err() + test.out() + test.err()
                + Files.readString(wb.state.resolve("logs/runs.jsonl"));
        assertThat(shown).as("the failures are reported, naming the host").contains("HTTP 403", "127.0.0.1");
        for (String token : List.of("xoxbPathT0kenSecret42", "AccessT0kenValue99", "S1gnV4lue77", "T0AB12CD3",
                "B0EF45GH6", "DingT0kenValue55", "SECsigningSecret123")) {
            assertThat(shown).as(token).doesNotContain(token);
        }
        // the sign Keyline computed for the signed robot is a query secret too
        String sign = hooks.received().stream().filter(r -> r.path().equals("/robot/send")).findFirst().orElseThrow()
                .queryParam("sign");
        assertThat(sign).isNotBlank();
        assertThat(shown).doesNotContain(sign).doesNotContain(java.net.URLEncoder.encode(sign,
                java.nio.charset.StandardCharsets.UTF_8));
        // and the outbox in the state does not keep it either
        StringBuilder dump = new StringBuilder();
        try (var db = io.keyline.store.h2.H2Database.open(wb.state); var c = db.adminConnection();
             var rs = c.createStatement().executeQuery("SCRIPT")) {
            while (rs.next()) {
                dump.append(rs.getString(1)).append('\n');
            }
        }
        assertThat(dump).contains("HTTP 403").doesNotContain("xoxbPathT0kenSecret42").doesNotContain("DingT0kenValue55");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aTricklingWebhookCannotHoldARunPastItsTimeout() throws IOException {
        hooks.handler(r -> new Reply.Trickle(200, Map.of("Content-Type", "application/json"), 40, 1000));
        notifyJson(webhook("/trickle", "json", "\"timeout\": \"PT1S\""));
        long started = System.nanoTime();
        Result run = wb.cli("run", "pub", "--key", "2026-11-02");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        // the stated bound: no call starts after 15 s, and each ends by its timeout (1 s) and a few seconds' grace
        assertThat(seconds).as("the run ended within its notification budget; " + run).isLessThan(25);
        assertThat(Files.readString(wb.state.resolve("logs/runs.jsonl"))).contains("timed out after 1 s");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aCommandHookThatIgnoresSigtermIsKilledWithWhatItLeftBehind() throws Exception {
        notifyJson("""
                { "on": ["attention"], "timeout": "PT1S",
                  "command": ["sh", "-c", "trap '' TERM; (setsid sh -c 'echo $$ > hook-child.pid; trap \\"\\" TERM; exec sleep 40' &); sleep 40"] }""");
        long started = System.nanoTime();
        Result run = wb.cli("run", "pub", "--key", "2026-11-02");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        assertThat(seconds).as("the run ended within its notification budget; " + run).isLessThan(25);
        assertThat(Files.readString(wb.state.resolve("logs/runs.jsonl"))).contains("timed out after 1 s");
        long pid = Long.parseLong(Files.readString(wb.jobs.resolve("hook-child.pid")).strip());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        assertThat(alive).as("the hook's grandchild in its own session was ended").isFalse();
    }
}
