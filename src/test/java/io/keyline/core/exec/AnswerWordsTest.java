package io.keyline.core.exec;

import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.core.json.Json;
import io.keyline.core.operations.Words;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.text.Said;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a step or a probe says of the site's answer (a redirect it did not follow, the login page, an answer that
 * does not show success, a request still in progress, a value it expected, a success) and what the evidence says of
 * the credential's cookies: in the operator's language where a person reads it, in English where a machine keeps
 * it, the same English as before.
 */
class AnswerWordsTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    /** A job of one unsafe POST step with {@code fields} (request, response, probe, …) as written. */
    JobDefinition job(String fields) throws Exception {
        return job(tmp, fields);
    }

    /** {@link #job(String)} in {@code dir}. */
    static JobDefinition job(Path dir, String fields) throws Exception {
        Path file = dir.resolve("a.json");
        Files.writeString(file, """
                { "name": "a", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "page", "kind": "http", "effect": "unsafe", "timeout": "PT5S", %s } ] }
                """.formatted(fields));
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).isEmpty();
        return r.job();
    }

    static StepContext ctx(JobDefinition job, CredentialMaterial credential) {
        return new StepContext(job, job.steps().get(0), "2026-11-29", "run-1", 1, Map.of(), credential,
                UnaryOperator.identity());
    }

    /** The words in Chinese. */
    static String chinese(Said words) {
        Text.use(Text.CHINESE);
        try {
            return words.text();
        } finally {
            Text.use(Text.ENGLISH);
        }
    }

    /** What a person reads of the words in Chinese (a probe's answer in plain words). */
    static String read(Said words) {
        Text.use(Text.CHINESE);
        try {
            return Words.words(words);
        } finally {
            Text.use(Text.ENGLISH);
        }
    }

    /** A job of one unsafe command step whose command probe runs {@code script}. */
    JobDefinition commandProbed(String script) throws Exception {
        Path file = tmp.resolve("c.json");
        Files.writeString(file, """
                { "name": "c", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "send", "kind": "command", "effect": "unsafe", "command": ["true"],
                               "probe": { "kind": "command", "command": ["sh", "-c", %s] } } ] }
                """.formatted(Json.MAPPER.writeValueAsString(script)));
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).isEmpty();
        return r.job();
    }

    /** A shell line that prints {@code {"present": VALUE}} (the braces as octal escapes: a job file reads braces as placeholders). */
    static String answering(String value) {
        return "printf '\\173\"present\": " + value + "\\175\\n'";
    }

    @Test
    void whatACommandProbeAnswersReadsInChinese() throws Exception {
        CommandExecutor command = new CommandExecutor(CLOCK);
        ProbeOutcome present = command.probe(ctx(commandProbed(answering("true")), null));
        assertThat(present.answer()).isEqualTo(ProbeOutcome.Answer.PRESENT);
        assertThat(present.message()).isEqualTo("probe: {\"present\": true} (present)");
        assertThat(read(present.words())).isEqualTo("已存在：结果已经产生（检查读到的是 {\"present\": true}）");

        ProbeOutcome absent = command.probe(ctx(commandProbed(answering("false")), null));
        assertThat(absent.message()).isEqualTo("probe: {\"present\": false} (absent)");
        assertThat(read(absent.words())).isEqualTo("不存在：结果还没有产生（检查读到的是 {\"present\": false}）");

        ProbeOutcome failed = command.probe(ctx(commandProbed("exit 3"), null));
        assertThat(failed.answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
        assertThat(failed.message()).isEqualTo("probe: exit 3 is no answer (inconclusive)");
        assertThat(read(failed.words())).isEqualTo("没有明确答复（检查读到的是 退出码 3，不算答复）");

        ProbeOutcome garbled = command.probe(ctx(commandProbed("echo maybe"), null));
        assertThat(garbled.message()).isEqualTo("probe: exit 0 without {\"present\": true|false} on the last line "
                + "(got \"maybe\") is no answer (inconclusive)");
        assertThat(read(garbled.words())).isEqualTo(
                "没有明确答复（检查读到的是 退出码 0，但最后一行没有 {\"present\": true|false}（读到的是 \"maybe\"），不算答复）");

        ProbeOutcome silent = command.probe(ctx(commandProbed("true"), null));
        assertThat(silent.message()).isEqualTo("probe: exit 0 without {\"present\": true|false} on the last line "
                + "(got no output) is no answer (inconclusive)");
        assertThat(read(silent.words())).isEqualTo(
                "没有明确答复（检查读到的是 退出码 0，但最后一行没有 {\"present\": true|false}（没有输出），不算答复）");
        for (ProbeOutcome p : List.of(present, absent, failed, garbled, silent)) {
            assertThat(read(p.words())).doesNotContain("probe:", "is no answer", "without", "exit");
        }
    }

    @Test
    void whatAStepSaysOfTheSitesAnswerReadsInChinese() throws Exception {
        Reply[] reply = {null};
        try (FaultServer server = new FaultServer(r -> reply[0])) {
            String base = server.base();
            String origin = "http://" + URI.create(base).getHost() + ":" + server.port();
            HttpExecutor http = new HttpExecutor(CLOCK);
            String post = """
                    "request": { "method": "POST", "url": "%s/api/articles", "body": "x" }""".formatted(base);

            // a redirect that leaves the origin
            reply[0] = new Reply.Respond(302, Map.of("Location", "http://elsewhere.invalid/a"), "");
            StepOutcome away = http.execute(ctx(job("""
                    "followRedirects": "same-origin", "request": { "method": "GET", "url": "%s/api/a" }"""
                    .formatted(base)), null));
            assertThat(away.failure()).isEqualTo(FailureClass.FATAL);
            assertThat(away.message()).isEqualTo("HTTP 302 redirect to http://elsewhere.invalid/a (it leaves the origin "
                    + origin + ": never followed)");
            assertThat(chinese(away.words())).isEqualTo("HTTP 302：重定向到 http://elsewhere.invalid/a（它离开了来源 "
                    + origin + "：从不跟随）");

            // a redirect that is not followed
            reply[0] = new Reply.Respond(303, Map.of("Location", "/next"), "");
            StepOutcome kept = http.execute(ctx(job(post), null));
            assertThat(kept.message()).isEqualTo("HTTP 303 redirect to /next (redirects are not followed)");
            assertThat(chinese(kept.words())).isEqualTo("HTTP 303：重定向到 /next（不跟随重定向）");

            // the login page
            reply[0] = new Reply.Respond(302, Map.of("Location", "/login?next=a"), "");
            StepOutcome login = http.execute(ctx(job(post), null));
            assertThat(login.failure()).isEqualTo(FailureClass.AUTH);
            assertThat(login.message()).isEqualTo("HTTP 302 redirect to the login page /login?next=a");
            assertThat(chinese(login.words())).isEqualTo("HTTP 302：重定向到登录页 /login?next=a");

            // an answer that does not show success: said in plain words, without the job file's field
            String rules = ", \"response\": { \"successWhen\": { \"bodyContains\": \"created\" } }";
            reply[0] = new Reply.Respond(200, Map.of(), "try later\nsecond line");
            StepOutcome unmet = http.execute(ctx(job(post + rules), null));
            assertThat(unmet.failure()).isEqualTo(FailureClass.FATAL);
            assertThat(unmet.message()).isEqualTo("HTTP 200 but the answer does not show success "
                    + "(the body does not contain \"created\"): try later");
            assertThat(chinese(unmet.words())).isEqualTo("HTTP 200，但答复没有表明成功（正文不包含 \"created\"）：try later");
            reply[0] = new Reply.Respond(302, Map.of("Location", "/elsewhere"), "");
            StepOutcome unmetRedirect = http.execute(ctx(job(post + rules), null));
            assertThat(unmetRedirect.message()).isEqualTo("HTTP 302 redirect to /elsewhere (redirects are not followed)"
                    + " but the answer does not show success (the body does not contain \"created\")");
            assertThat(chinese(unmetRedirect.words())).isEqualTo("HTTP 302：重定向到 /elsewhere（不跟随重定向），"
                    + "但答复没有表明成功（正文不包含 \"created\"）");

            // a request the site still works on, as it says of the key; any other 409 is a conflict it refused
            reply[0] = new Reply.Respond(409, Map.of(), "busy with this idempotency key");
            StepOutcome busy = http.execute(ctx(job(post), null));
            assertThat(busy.failure()).isEqualTo(FailureClass.TRANSIENT_AFTER_SEND);
            assertThat(busy.message()).isEqualTo("request still in progress (HTTP 409): busy with this idempotency key");
            assertThat(chinese(busy.words())).isEqualTo("请求仍在处理中（HTTP 409）：busy with this idempotency key");
            reply[0] = new Reply.Respond(409, Map.of(), "busy");
            StepOutcome conflict = http.execute(ctx(job(post), null));
            assertThat(conflict.failure()).isEqualTo(FailureClass.FATAL);
            assertThat(conflict.message()).isEqualTo("HTTP 409 Conflict: busy");
            // a server out of space: nothing was stored, tried again later
            reply[0] = new Reply.Respond(507, Map.of(), "Insufficient space in /Archive");
            StepOutcome full = http.execute(ctx(job(post), null));
            assertThat(full.failure()).isEqualTo(FailureClass.RETRYABLE);
            assertThat(full.message()).isEqualTo("HTTP 507 Insufficient Storage: the server is out of space, nothing"
                    + " was stored: Insufficient space in /Archive");
            assertThat(chinese(full.words())).isEqualTo("HTTP 507 Insufficient Storage：服务器空间不足，什么也没有存储："
                    + "Insufficient space in /Archive");

            // a value the step expected in the answer
            String extract = ", \"extract\": { \"id\": { \"json\": \"/id\" } }";
            reply[0] = new Reply.Respond(201, Map.of(), "{\"other\": 1}");
            StepOutcome none = http.execute(ctx(job(post + extract), null));
            assertThat(none.failure()).isEqualTo(FailureClass.FATAL);
            assertThat(none.message()).isEqualTo("HTTP 201 but expected id in the answer, found none (json /id)");
            assertThat(chinese(none.words())).isEqualTo("HTTP 201，但答复中应有 id，没有找到（json /id）");

            // a redirect that shows success
            reply[0] = new Reply.Respond(302, Map.of("Location", "/api/articles/7"), "");
            StepOutcome moved = http.execute(ctx(job(post
                    + ", \"response\": { \"successWhen\": { \"status\": [302] } }"), null));
            assertThat(moved.succeeded()).isTrue();
            assertThat(moved.message()).isEqualTo("HTTP 302 to /api/articles/7");
            assertThat(chinese(moved.words())).isEqualTo("HTTP 302，重定向到 /api/articles/7");
        }
    }

    @Test
    void whatAProbeSaysOfTheSitesAnswerReadsInChinese() throws Exception {
        Reply[] reply = {null};
        try (FaultServer server = new FaultServer(r -> reply[0])) {
            String probe = """
                    "request": { "method": "POST", "url": "%s/api/articles", "body": "x" },
                    "probe": { "kind": "http", "url": "%s/api/articles?date={key}", "timeout": "PT5S",
                               "presentWhen": { "bodyContains": "{key}" }%%s }""".formatted(server.base(), server.base());
            HttpExecutor http = new HttpExecutor(CLOCK);
            StepContext plain = ctx(job(probe.formatted("")), null);

            reply[0] = new Reply.Respond(200, Map.of(), "[]");
            ProbeOutcome absent = http.probe(plain);
            assertThat(absent.answer()).isEqualTo(ProbeOutcome.Answer.ABSENT);
            assertThat(absent.message()).isEqualTo("probe: the body does not contain \"2026-11-29\" (absent)");
            assertThat(read(absent.words())).isEqualTo("不存在：结果还没有产生（检查读到的是 正文不包含 \"2026-11-29\"）");

            reply[0] = new Reply.Respond(404, Map.of(), "[]");
            ProbeOutcome gone = http.probe(plain);
            assertThat(gone.message()).isEqualTo("probe: the body does not contain \"2026-11-29\" (HTTP 404) (absent)");
            assertThat(read(gone.words())).isEqualTo("不存在：结果还没有产生（检查读到的是 正文不包含 \"2026-11-29\"（HTTP 404））");

            reply[0] = new Reply.Respond(200, Map.of(), "[\"2026-11-29\"]");
            ProbeOutcome present = http.probe(plain);
            assertThat(present.message()).isEqualTo("probe: the body contains \"2026-11-29\" (present)");
            assertThat(read(present.words())).isEqualTo("已存在：结果已经产生（检查读到的是 正文包含 \"2026-11-29\"）");

            reply[0] = new Reply.Respond(500, Map.of(), "oops");
            ProbeOutcome broken = http.probe(plain);
            assertThat(broken.answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            assertThat(broken.message()).isEqualTo("probe: HTTP 500 Internal Server Error is no answer (inconclusive)");
            assertThat(read(broken.words())).isEqualTo("没有明确答复（检查读到的是 HTTP 500 Internal Server Error，不算答复）");

            reply[0] = new Reply.Respond(302, Map.of("Location", "/moved"), "");
            ProbeOutcome moved = http.probe(plain);
            assertThat(moved.message())
                    .isEqualTo("probe: HTTP 302 redirect to /moved (redirects are not followed) is no answer (inconclusive)");
            assertThat(read(moved.words()))
                    .isEqualTo("没有明确答复（检查读到的是 HTTP 302：重定向到 /moved（不跟随重定向），不算答复）");

            StepContext strict = ctx(job(probe.formatted(
                    ", \"response\": { \"successWhen\": { \"bodyContains\": \"[\" } }")), null);
            reply[0] = new Reply.Respond(200, Map.of(), "maintenance");
            ProbeOutcome unmet = http.probe(strict);
            assertThat(unmet.answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            assertThat(unmet.message()).isEqualTo("probe: HTTP 200 but the answer does not show success "
                    + "(the body does not contain \"[\") (inconclusive)");
            assertThat(read(unmet.words()))
                    .isEqualTo("没有明确答复（检查读到的是 HTTP 200，但答复没有表明成功（正文不包含 \"[\"））");
            // a probe that reads the status itself names it once
            StepContext byStatus = ctx(job("""
                    "request": { "method": "POST", "url": "%s/api/articles", "body": "x" },
                    "probe": { "kind": "http", "url": "%s/t/{key}", "timeout": "PT5S",
                               "presentWhen": { "status": [301] } }""".formatted(server.base(), server.base())), null);
            reply[0] = new Reply.Respond(404, Map.of(), "");
            ProbeOutcome missing = http.probe(byStatus);
            assertThat(missing.answer()).isEqualTo(ProbeOutcome.Answer.ABSENT);
            assertThat(missing.message()).isEqualTo("probe: HTTP 404 (absent)");
            assertThat(Words.probe(missing.words())).isEqualTo("absent: the effect is not there yet (the probe checked HTTP 404)");
            assertThat(read(missing.words())).isEqualTo("不存在：结果还没有产生（检查读到的是 HTTP 404）");
            for (ProbeOutcome p : List.of(absent, gone, present, broken, moved, unmet)) {
                assertThat(read(p.words())).doesNotContain("probe:", "the body", "is no answer", "successWhen");
            }
        }
    }

    /** A credential the site refreshes, or whose refreshed cookies cannot be kept. */
    static final class Refreshed extends SiteRefreshTest.Recording {
        private final boolean fails;

        Refreshed(boolean fails) {
            this.fails = fails;
        }

        @Override
        public SiteChange refreshedBySite(URI uri, List<String> setCookies, Instant now) {
            if (fails) {
                throw new IllegalStateException("disk full");
            }
            return super.refreshedBySite(uri, setCookies, now);
        }
    }

    @Test
    void whatTheEvidenceSaysOfTheCredentialsCookiesReadsInChinese() throws Exception {
        try (FaultServer server = new FaultServer(r -> new Reply.Respond(302,
                Map.of("Set-Cookie", "DokuWiki=n3w; Path=/", "Location", "/next"), ""))) {
            JobDefinition job = job("""
                    "credential": "wiki", "request": { "method": "POST", "url": "%s/doku.php", "body": "x" },
                    "response": { "successWhen": { "status": [302] } }""".formatted(server.base()));
            HttpExecutor http = new HttpExecutor(CLOCK);

            StepOutcome refreshed = http.execute(ctx(job, new Refreshed(false)));
            assertThat(refreshed.succeeded()).isTrue();
            String english = "credential wiki refreshed by the site (fingerprint 11111111)\nLocation: /next";
            assertThat(refreshed.evidence().detail()).isEqualTo(english);
            Text.use(Text.CHINESE);
            assertThat(io.keyline.core.operations.EvidenceText.format(refreshed.evidence(), refreshed.words()))
                    .contains("凭据 wiki 已由网站更新（指纹 11111111）", "重定向到：/next");
            Text.use(Text.ENGLISH);

            StepOutcome notKept = http.execute(ctx(job, new Refreshed(true)));
            assertThat(notKept.succeeded()).isTrue();
            String problem = "the cookies the site set for credential wiki could not be kept: "
                    + "IllegalStateException: disk full";
            assertThat(notKept.message()).isEqualTo("HTTP 302 to /next; " + problem);
            assertThat(notKept.evidence().detail()).isEqualTo(problem + "\nLocation: /next");
            assertThat(chinese(notKept.words()))
                    .isEqualTo("HTTP 302，重定向到 /next；网站为凭据 wiki 设置的 Cookie 无法保存：IllegalStateException: disk full");
            Text.use(Text.CHINESE);
            assertThat(io.keyline.core.operations.EvidenceText.format(notKept.evidence(), notKept.words()))
                    .contains("网站为凭据 wiki 设置的 Cookie 无法保存：IllegalStateException: disk full", "重定向到：/next")
                    .doesNotContain("could not be kept", "Location:");
        }
    }
}
