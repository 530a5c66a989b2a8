package io.keyline.core.exec;

import io.keyline.core.exec.CredentialMaterial;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** The executor alone, timed with the wall clock: the step's timeout bounds the whole exchange, body included. */
class HttpExecutorTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    JobDefinition job(String base, String effect) throws IOException {
        Path file = tmp.resolve("t.json");
        Files.writeString(file, """
                { "name": "t", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "send", "kind": "http", "effect": "%s", "timeout": "PT1S",
                               "request": { "method": "POST", "url": "%s/api/articles", "body": "x" }%s } ] }
                """.formatted(effect, base, effect.equals("unsafe") ? """
                , "probe": { "kind": "http", "url": "%s/api/articles?date={key}", "timeout": "PT1S",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } }""".formatted(base) : ""));
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).isEmpty();
        return r.job();
    }

    /**
     * One quick exchange first, so that the measured one does not include the JVM's first use of the
     * HttpClient (class loading, its selector thread): the bound is on the exchange, not on a cold JVM.
     */
    void warmUp(HttpExecutor http) throws Exception {
        try (FaultServer quick = new FaultServer(r -> Reply.json("{\"total\": 1}"))) {
            JobDefinition warm = job(quick.base(), "unsafe");
            assertThat(http.probe(ctx(warm)).answer()).isEqualTo(ProbeOutcome.Answer.PRESENT);
            assertThat(http.execute(new StepContext(warm, warm.steps().get(0), "2026-11-29", "run-0", 1, Map.of(),
                    null, UnaryOperator.identity())).succeeded()).isTrue();
        }
    }

    static StepContext ctx(JobDefinition job) {
        return new StepContext(job, job.steps().get(0), "2026-11-29", "run-1", 1, Map.of(), null, UnaryOperator.identity());
    }

    /**
     * A server that answers with headers at once and then one body byte every 100 ms for 30 s, and
     * completes {@code closedAfterMs} when the client hangs up (a write fails).
     */
    static final class TricklingServer implements AutoCloseable {
        final ServerSocket server;
        final CompletableFuture<Long> closedAfterMs = new CompletableFuture<>();

        TricklingServer() throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread t = new Thread(this::serve, "trickling-server");
            t.setDaemon(true);
            t.start();
        }

        String base() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        private void serve() {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                byte[] buf = new byte[8192];
                int n = in.read(buf); // the request (small, one read)
                long start = System.nanoTime();
                OutputStream out = s.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                try {
                    for (int i = 0; i < 300 && n > 0; i++) {
                        Thread.sleep(100);
                        out.write(' ');
                        out.flush();
                    }
                } catch (IOException clientLeft) {
                    closedAfterMs.complete(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                }
            } catch (IOException | InterruptedException e) {
                closedAfterMs.completeExceptionally(e);
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void aTricklingBodyEndsTheStepWithinItsTimeoutAndTheConnectionIsDropped() throws Exception {
        try (TricklingServer server = new TricklingServer()) {
            HttpExecutor http = new HttpExecutor(CLOCK);
            warmUp(http);
            StepContext ctx = ctx(job(server.base(), "idempotent"));

            long started = System.nanoTime();
            StepOutcome out = http.execute(ctx);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertThat(out.failure()).isEqualTo(FailureClass.TRANSIENT_AFTER_SEND);
            assertThat(out.message()).contains("body did not arrive within 1s").contains("the request was sent");
            // timeout PT1S (plus a 200 ms grace), far from the 30 s body; the bound leaves room for a busy
            // machine's scheduling and GC, and still catches a timeout that is not the step's
            assertThat(ms).as("timeout PT1S, plus at most 4 s").isLessThan(5_000);
            // nobody keeps reading: the client hangs up, the server's next write fails
            long closed = server.closedAfterMs.get(10, TimeUnit.SECONDS);
            System.out.println("MEASURED trickling body: step ended after " + ms + " ms (timeout 1000 ms); "
                    + "the server saw the connection dropped " + closed + " ms after its headers");
            assertThat(closed).as("the connection is dropped soon after the timeout").isLessThan(6_000);
        }
    }

    @Test
    void aTricklingProbeIsInconclusiveWithinItsTimeout() throws Exception {
        try (TricklingServer server = new TricklingServer()) {
            HttpExecutor http = new HttpExecutor(CLOCK);
            warmUp(http);
            StepContext ctx = ctx(job(server.base(), "unsafe"));

            long started = System.nanoTime();
            ProbeOutcome p = http.probe(ctx);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertThat(p.answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            assertThat(ms).as("timeout PT1S, plus at most 4 s").isLessThan(5_000);
            System.out.println("MEASURED trickling body: probe ended after " + ms + " ms (timeout 1000 ms)");
        }
    }

    @Test
    void noAnswerAtAllEndsWithinTheTimeoutToo() throws Exception {
        try (FaultServer server = new FaultServer(r -> new Reply.Hang())) {
            HttpExecutor http = new HttpExecutor(CLOCK);
            warmUp(http);
            StepContext ctx = ctx(job(server.base(), "idempotent"));
            long started = System.nanoTime();
            StepOutcome out = http.execute(ctx);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(out.failure()).isEqualTo(FailureClass.TRANSIENT_AFTER_SEND);
            assertThat(ms).as("timeout PT1S, plus at most 4 s").isLessThan(5_000);
        }
    }

    @Test
    void aLargeBodyIsReadUpToItsLimitAndStillAnAnswer() throws Exception {
        String big = "{\"id\": 1, \"pad\": \"" + "x".repeat(3 * 1024 * 1024) + "\"}";
        try (FaultServer server = new FaultServer(r -> Reply.status(201, big))) {
            StepOutcome out = new HttpExecutor(CLOCK).execute(ctx(job(server.base(), "idempotent")));
            assertThat(out.succeeded()).as(out.message()).isTrue();
            assertThat(out.evidence().responseBody()).hasSize(HttpExecutor.EVIDENCE_BYTES);
        }
    }

    record Login(String loginUrl) implements CredentialMaterial {
        public String name() {
            return "c";
        }

        public String fingerprint() {
            return "00000000";
        }

        public Map<String, String> httpHeaders(URI uri, Instant now) {
            return Map.of();
        }

        public Map<String, String> environment(Instant now) {
            return Map.of();
        }

        public List<String> secretStrings() {
            return List.of();
        }
    }

    /** A credential stored before its value was checked: one cookie whose value a request header cannot carry. */
    record Unsendable() implements CredentialMaterial {
        public String name() {
            return "site";
        }

        public String fingerprint() {
            return "00000000";
        }

        public Map<String, String> httpHeaders(URI uri, Instant now) {
            return Map.of("Cookie", "sid=\u79D8\u5BC6\u503C12345");
        }

        public Map<String, String> environment(Instant now) {
            return Map.of();
        }

        public List<String> secretStrings() {
            return List.of(); // too plain for the redactor: the value itself must never reach a message
        }

        public String loginUrl() {
            return null;
        }
    }

    @Test
    void aStoredValueTheClientCannotSendIsNamedByItsCredentialNeverShown() throws Exception {
        try (FaultServer server = new FaultServer(r -> Reply.json("{}"))) {
            JobDefinition job = job(server.base(), "idempotent");
            StepOutcome out = new HttpExecutor(CLOCK).execute(new StepContext(job, job.steps().get(0), "2026-11-29",
                    "run-1", 1, Map.of(), new Unsendable(), UnaryOperator.identity()));
            assertThat(out.failure()).isEqualTo(FailureClass.FATAL);
            assertThat(out.message()).isEqualTo("credential site holds a value that a request header cannot carry "
                    + "(a character outside ASCII): renew it (keyline credentials set site)");
            assertThat(out.evidence().toString()).doesNotContain("\u79D8");
        }
    }

    @Test
    void aJsonRuleOnAnAnswerThatIsNoJsonSaysSo() throws Exception {
        try (FaultServer server = new FaultServer(r -> Reply.status(200, "<html><p>maintenance</p></html>"))) {
            Path file = tmp.resolve("x.json");
            Files.writeString(file, """
                    { "name": "x", "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "get", "kind": "http", "effect": "none", "timeout": "PT2S",
                                   "request": { "method": "GET", "url": "%s/api/item" },
                                   "extract": { "id": { "json": "/data/id" } } } ] }
                    """.formatted(server.base()));
            JobFileLoader.Result r = JobFileLoader.loadFile(file);
            assertThat(r.errors()).isEmpty();
            StepOutcome out = new HttpExecutor(CLOCK).execute(ctx(r.job()));
            assertThat(out.failure()).isEqualTo(FailureClass.FATAL);
            assertThat(out.message()).isEqualTo("HTTP 200 but expected id in the answer, found none (json /data/id:"
                    + " the body is not JSON)");
        }
    }

    /**
     * Without a {@code User-Agent} of the job's, a request names Keyline with the version of this build, Maven's
     * project version, in the form sites' policies ask for: name/version, a comment, the library and its version.
     */
    @Test
    void theUserAgentNamesThisBuildsVersion() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "<artifactId>keyline</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertThat(m.find()).isTrue();
        String version = m.group(1);
        try (FaultServer server = new FaultServer(r -> Reply.json("{}"))) {
            JobDefinition job = job(server.base(), "idempotent");
            StepOutcome out = new HttpExecutor(CLOCK).execute(ctx(job));
            assertThat(out.succeeded()).as(out.message()).isTrue();
            String sent = server.received().get(0).header("User-Agent");
            assertThat(sent).startsWith("Keyline/" + version + " (")
                    .matches("Keyline/\\S+ \\([^()]+\\) Java-http-client/\\S+")
                    .endsWith("Java-http-client/" + System.getProperty("java.version"));
            assertThat(HttpExecutor.USER_AGENT).isEqualTo(sent);
        }
    }

    @Test
    void aUserAgentTheJobSetsIsTheOneSent() throws Exception {
        try (FaultServer server = new FaultServer(r -> Reply.json("{}"))) {
            Path file = tmp.resolve("ua.json");
            Files.writeString(file, """
                    { "name": "ua", "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "get", "kind": "http", "effect": "none", "timeout": "PT2S",
                                   "request": { "method": "GET", "url": "%s/api/item",
                                                "headers": { "User-Agent": "reporter/2" } } } ] }
                    """.formatted(server.base()));
            JobFileLoader.Result r = JobFileLoader.loadFile(file);
            assertThat(r.errors()).isEmpty();
            StepOutcome out = new HttpExecutor(CLOCK).execute(ctx(r.job()));
            assertThat(out.succeeded()).as(out.message()).isTrue();
            assertThat(server.received().get(0).header("User-Agent")).isEqualTo("reporter/2");
        }
    }

    /**
     * A 403 is a rejected login unless the job's rules say what it is: a {@code retryWhen} or {@code refusedWhen} it
     * meets is read first, for a step and a probe alike, and an {@code authWhen} still comes before them. A 401 is
     * the login itself, whatever the rules say.
     */
    @Test
    void a403TheJobsRulesNameIsReadByThemAndA401NeverIs() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Reply> next = new java.util.concurrent.atomic.AtomicReference<>();
        try (FaultServer server = new FaultServer(r -> next.get())) {
            Path file = tmp.resolve("csrf.json");
            String rules = """
                    "response": { "authWhen": { "bodyContains": "not_logged_in" },
                                  "retryWhen": { "bodyContains": "BAD CSRF" },
                                  "refusedWhen": { "bodyContains": "blocked" } }""";
            Files.writeString(file, """
                    { "name": "csrf", "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "post", "kind": "http", "effect": "unsafe", "timeout": "PT2S",
                                   "request": { "method": "POST", "url": "%s/posts", "body": "x" }, %s,
                                   "probe": { "kind": "http", "url": "%s/t", "timeout": "PT2S",
                                              "presentWhen": { "status": [200] }, %s } } ] }
                    """.formatted(server.base(), rules, server.base(), rules));
            JobFileLoader.Result r = JobFileLoader.loadFile(file);
            assertThat(r.errors()).isEmpty();
            HttpExecutor http = new HttpExecutor(CLOCK);
            StepContext ctx = ctx(r.job());

            next.set(Reply.status(403, "[\"BAD CSRF\"]"));
            assertThat(http.execute(ctx).failure()).isEqualTo(FailureClass.RETRYABLE);
            assertThat(http.probe(ctx).answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            next.set(Reply.status(403, "blocked by policy"));
            StepOutcome refused = http.execute(ctx);
            assertThat(refused.failure()).isEqualTo(FailureClass.FATAL);
            assertThat(refused.refused()).isTrue();
            assertThat(http.probe(ctx).decided()).isEqualTo(io.keyline.domain.ProbeAnswer.REFUSED);
            next.set(Reply.status(403, "{\"error_type\": \"not_logged_in\", \"errors\": [\"BAD CSRF\"]}"));
            assertThat(http.execute(ctx).failure()).as("authWhen first").isEqualTo(FailureClass.AUTH);
            assertThat(http.probe(ctx).answer()).isEqualTo(ProbeOutcome.Answer.AUTH);
            next.set(Reply.status(403, "Forbidden"));
            assertThat(http.execute(ctx).failure()).as("a 403 no rule names").isEqualTo(FailureClass.AUTH);
            assertThat(http.probe(ctx).answer()).isEqualTo(ProbeOutcome.Answer.AUTH);
            next.set(Reply.status(401, "[\"BAD CSRF\"]"));
            assertThat(http.execute(ctx).failure()).as("a 401 is never retried").isEqualTo(FailureClass.AUTH);
            assertThat(http.probe(ctx).answer()).isEqualTo(ProbeOutcome.Answer.AUTH);
        }
    }

    /**
     * A probe the site answers "try later" carries the site's {@code Retry-After}, read as a step's is: a 429 or 503,
     * or an answer its {@code retryWhen} meets (MediaWiki's {@code maxlag} comes with {@code 200}). An answer that
     * names no wait, and a probe that answered, carry none.
     */
    @Test
    void aProbeAnsweredTryLaterCarriesTheSitesRetryAfter() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Reply> next = new java.util.concurrent.atomic.AtomicReference<>();
        try (FaultServer server = new FaultServer(r -> next.get())) {
            Path file = tmp.resolve("lag.json");
            Files.writeString(file, """
                    { "name": "lag", "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "save", "kind": "http", "effect": "unsafe", "timeout": "PT2S",
                                   "request": { "method": "POST", "url": "%s/api", "body": "x" },
                                   "probe": { "kind": "http", "url": "%s/api?maxlag=5", "timeout": "PT2S",
                                              "response": { "retryWhen": { "jsonPointer": "/error/code",
                                                                           "equals": "maxlag" } },
                                              "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } } } ] }
                    """.formatted(server.base(), server.base()));
            JobFileLoader.Result r = JobFileLoader.loadFile(file);
            assertThat(r.errors()).isEmpty();
            HttpExecutor http = new HttpExecutor(CLOCK, HostLimits.create());
            StepContext ctx = ctx(r.job());
            Map<String, String> json = Map.of("Content-Type", "application/json");

            next.set(new Reply.Respond(200, Map.of("Content-Type", "application/json", "Retry-After", "7"),
                    "{\"error\": {\"code\": \"maxlag\"}}"));
            ProbeOutcome lagged = http.probe(ctx);
            assertThat(lagged.answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            assertThat(lagged.askAgainAfter()).isEqualTo(java.time.Duration.ofSeconds(7));
            next.set(new Reply.Respond(500, Map.of(), "oops"));
            assertThat(http.probe(ctx).askAgainAfter()).as("a 500 that names no wait").isNull();
            next.set(new Reply.Respond(200, json, "{\"total\": 0}"));
            assertThat(http.probe(ctx).askAgainAfter()).isNull();
            next.set(new Reply.Respond(429, Map.of("Retry-After", "30"), "slow down"));
            ProbeOutcome limited = http.probe(ctx);
            assertThat(limited.answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            assertThat(limited.askAgainAfter()).isEqualTo(java.time.Duration.ofSeconds(30));
        }
    }

    /** A job that POSTs a release (unsafe) and probes for its tag, both on {@code server}. */
    private StepContext releaseJob(FaultServer server, String name) throws IOException {
        Path file = tmp.resolve(name + ".json");
        Files.writeString(file, """
                { "name": "%s", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "post", "kind": "http", "effect": "unsafe", "timeout": "PT2S",
                               "request": { "method": "POST", "url": "%s/releases", "body": "x" },
                               "probe": { "kind": "http", "url": "%s/releases/tags/t", "timeout": "PT2S",
                                          "presentWhen": { "status": [200] } } } ] }
                """.formatted(name, server.base(), server.base()));
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).isEmpty();
        return ctx(r.job());
    }

    /**
     * A spent rate limit is not a rejected login: GitHub answers it {@code 403} (or {@code 429}) with
     * {@code x-ratelimit-remaining: 0} and the reset in UTC epoch seconds, and a secondary limit {@code 403} with a
     * {@code retry-after}. The step is tried again, and the probe asked again, once the wait the site gave is over;
     * a {@code 403} with requests left and no {@code Retry-After} is still a rejected login, and a {@code 401} always.
     */
    @Test
    void aRateLimited403WaitsForTheResetInsteadOfParkingTheLogin() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Reply> next = new java.util.concurrent.atomic.AtomicReference<>();
        try (FaultServer server = new FaultServer(r -> next.get())) {
            StepContext ctx = releaseJob(server, "limits");
            String reset = Long.toString(CLOCK.instant().plusSeconds(240).getEpochSecond());
            String primary = "{\"message\":\"API rate limit exceeded for user ID 1.\"}";

            next.set(new Reply.Respond(403, Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset", reset), primary));
            StepOutcome step = new HttpExecutor(CLOCK, HostLimits.create()).execute(ctx);
            assertThat(step.failure()).as(step.message()).isEqualTo(FailureClass.RETRYABLE);
            assertThat(step.retryAfter()).isEqualTo(java.time.Duration.ofMinutes(4));
            ProbeOutcome probe = new HttpExecutor(CLOCK, HostLimits.create()).probe(ctx);
            assertThat(probe.answer()).as(probe.message()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            assertThat(probe.askAgainAfter()).isEqualTo(java.time.Duration.ofMinutes(4));

            next.set(new Reply.Respond(403, Map.of("retry-after", "60"),
                    "{\"message\":\"You have exceeded a secondary rate limit.\"}"));
            step = new HttpExecutor(CLOCK, HostLimits.create()).execute(ctx);
            assertThat(step.failure()).as(step.message()).isEqualTo(FailureClass.RETRYABLE);
            assertThat(step.retryAfter()).isEqualTo(java.time.Duration.ofMinutes(1));

            next.set(new Reply.Respond(403, Map.of("x-ratelimit-remaining", "4999", "x-ratelimit-reset", reset),
                    "{\"message\":\"Resource not accessible by personal access token\"}"));
            assertThat(new HttpExecutor(CLOCK, HostLimits.create()).execute(ctx).failure())
                    .as("a 403 with requests left is about the login").isEqualTo(FailureClass.AUTH);
            assertThat(new HttpExecutor(CLOCK, HostLimits.create()).probe(ctx).answer())
                    .isEqualTo(ProbeOutcome.Answer.AUTH);
            next.set(new Reply.Respond(401, Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset", reset),
                    "{\"message\":\"Bad credentials\"}"));
            assertThat(new HttpExecutor(CLOCK, HostLimits.create()).execute(ctx).failure())
                    .as("a 401 is never retried").isEqualTo(FailureClass.AUTH);
        }
    }

    /**
     * An API that indents its JSON (GitHub does) has {@code {} alone on the first line: the message says the site's
     * words all the same, for a rejected login, a refusal, and a rate limit a probe is told to wait for.
     */
    @Test
    void anIndentedJsonAnswerIsSaidByItsWordsNotByItsFirstBrace() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Reply> next = new java.util.concurrent.atomic.AtomicReference<>();
        try (FaultServer server = new FaultServer(r -> next.get())) {
            StepContext ctx = releaseJob(server, "indented");
            Map<String, String> json = Map.of("Content-Type", "application/json; charset=utf-8");

            next.set(new Reply.Respond(401, json, "{\n  \"message\": \"Bad credentials\",\n"
                    + "  \"documentation_url\": \"https://docs.github.com/rest\",\n  \"status\": \"401\"\n}"));
            assertThat(new HttpExecutor(CLOCK).execute(ctx).message())
                    .contains("HTTP 401 Unauthorized: {\"message\": \"Bad credentials\",");
            assertThat(new HttpExecutor(CLOCK).probe(ctx).message()).contains("\"message\": \"Bad credentials\"");
            next.set(new Reply.Respond(422, json, "{\n  \"message\": \"Validation Failed\",\n  \"errors\": [\n"
                    + "    {\n      \"resource\": \"Release\",\n      \"code\": \"already_exists\",\n"
                    + "      \"field\": \"tag_name\"\n    }\n  ]\n}"));
            assertThat(new HttpExecutor(CLOCK).execute(ctx).message()).contains("HTTP 422: {\"message\": "
                    + "\"Validation Failed\",\"errors\": [{\"resource\": \"Release\",\"code\": \"already_exists\",");
            Map<String, String> spent = new java.util.HashMap<>(json);
            spent.put("x-ratelimit-remaining", "0");
            spent.put("x-ratelimit-reset", Long.toString(CLOCK.instant().plusSeconds(60).getEpochSecond()));
            next.set(new Reply.Respond(403, spent, "{\n  \"message\": \"API rate limit exceeded for user ID 1.\"\n}"));
            assertThat(new HttpExecutor(CLOCK, HostLimits.create()).probe(ctx).message())
                    .contains("API rate limit exceeded");
            next.set(new Reply.Respond(500, Map.of(), "line one\nline two"));
            assertThat(new HttpExecutor(CLOCK).execute(ctx).message()).as("other answers: their first line")
                    .contains("line one").doesNotContain("line two");
        }
    }

    /**
     * A 500 that names its wait is waited for as a 503 is: the step carries the wait, and the host is paused for
     * every key of the job, so the next request is not sent before it ends. One that names none carries none.
     */
    @Test
    void aServerErrorWithRetryAfterCarriesTheWaitAndPausesTheHost() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Reply> next = new java.util.concurrent.atomic.AtomicReference<>();
        try (FaultServer server = new FaultServer(r -> next.get())) {
            Path file = tmp.resolve("get.json");
            Files.writeString(file, """
                    { "name": "get", "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "read", "kind": "http", "effect": "none", "timeout": "PT2S",
                                   "request": { "method": "GET", "url": "%s/api" } } ] }
                    """.formatted(server.base()));
            JobFileLoader.Result r = JobFileLoader.loadFile(file);
            assertThat(r.errors()).isEmpty();
            StepContext ctx = ctx(r.job());

            next.set(new Reply.Respond(500, Map.of(), "oops"));
            StepOutcome plain = new HttpExecutor(CLOCK, HostLimits.create()).execute(ctx);
            assertThat(plain.failure()).isEqualTo(FailureClass.TRANSIENT_AFTER_SEND);
            assertThat(plain.retryAfter()).as("a 500 that names no wait").isNull();

            HttpExecutor http = new HttpExecutor(CLOCK, HostLimits.create());
            next.set(new Reply.Respond(502, Map.of("Retry-After", "120"), "bad gateway"));
            StepOutcome busy = http.execute(ctx);
            assertThat(busy.failure()).isEqualTo(FailureClass.TRANSIENT_AFTER_SEND);
            assertThat(busy.retryAfter()).isEqualTo(java.time.Duration.ofSeconds(120));
            next.set(new Reply.Respond(200, Map.of(), "ok"));
            StepOutcome held = http.execute(ctx);
            assertThat(held.failure()).as("the host is paused: nothing is sent").isEqualTo(FailureClass.RETRYABLE);
            assertThat(held.retryAfter()).isEqualTo(java.time.Duration.ofSeconds(120));
            assertThat(server.received()).hasSize(2);
        }
    }

    @Test
    void whatCountsAsTheLoginPage() {
        URI from = URI.create("https://app.example.org/api/articles");
        Login sso = new Login("https://app.example.org/sso");
        assertThat(HttpExecutor.isLoginPage(from, "/login?next=/api", null)).isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "https://accounts.example.com/SignIn", null)).isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "/articles/7", null)).isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "/sso/authorize?c=1", null)).isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "/sso/authorize?c=1", sso)).isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "/sso", sso)).isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "/ssox", sso)).as("a path under it, not a prefix of a name").isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "http://app.example.org/sso/a", sso)).as("another scheme").isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "https://app.example.org:8443/sso/a", sso)).as("another port").isFalse();
        assertThat(HttpExecutor.isLoginPage(from, null, sso)).isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "::not a uri", sso)).isFalse();
    }

    /**
     * A probe of a GraphQL API asks by POST with its query in a JSON body: the body is sent, encoded as a step's
     * (a value stays one JSON string), as {@code application/json}, and without the step's {@code Idempotency-Key} (a
     * server that keeps answers by that key would give the step the probe's answer).
     */
    @Test
    void aPostProbeSendsItsJsonBody() throws Exception {
        try (FaultServer server = new FaultServer(r -> Reply.json("{\"data\": {\"publication\": {\"post\": null}}}"))) {
            Path file = tmp.resolve("gql.json");
            Files.writeString(file, """
                    { "name": "gql", "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "publish", "kind": "http", "effect": "unsafe", "timeout": "PT2S",
                                   "request": { "method": "POST", "url": "%s/", "json": { "query": "x" } },
                                   "probe": { "kind": "http", "method": "POST", "url": "%s/", "timeout": "PT2S",
                                              "json": { "query": "query P($s: String!) {{ post(slug: $s) {{ id }} }}",
                                                        "variables": { "s": "daily-{key}" } },
                                              "presentWhen": { "jsonPointer": "/data/publication/post/id",
                                                               "exists": true } } } ] }
                    """.formatted(server.base(), server.base()));
            JobFileLoader.Result r = JobFileLoader.loadFile(file);
            assertThat(r.errors()).isEmpty();
            HttpExecutor http = new HttpExecutor(CLOCK);

            ProbeOutcome p = http.probe(ctx(r.job()));

            assertThat(p.answer()).as(String.valueOf(p.words())).isEqualTo(ProbeOutcome.Answer.ABSENT);
            FaultServer.Request seen = server.received().get(0);
            assertThat(seen.method()).isEqualTo("POST");
            assertThat(seen.header("Content-Type")).isEqualTo("application/json");
            assertThat(seen.header("Idempotency-Key")).isNull();
            assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(seen.bodyText()))
                    .isEqualTo(new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                            "{\"query\": \"query P($s: String!) { post(slug: $s) { id } }\","
                                    + " \"variables\": {\"s\": \"daily-2026-11-29\"}}"));
            assertThat(p.evidence().request().bodyBytes()).isEqualTo(seen.body().length);
        }
    }
}
