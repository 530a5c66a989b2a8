package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.FaultServer.Request;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.TlsServer;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.cookieHas;
import static io.keyline.acceptance.CredentialTesting.listRow;
import static io.keyline.acceptance.CredentialTesting.set;
import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every answer once misread, against the loopback test
 * site through the real command line — redirects to a login page or to another origin, errors dressed as
 * 200, probes that cannot answer, 503/429/409 with {@code Retry-After}, a TLS handshake that fails, a body
 * that trickles, and the cookie files of Playwright and wget.
 */
class SiteAnswersTest extends SiteTestBase {

    static final String KEY = "2026-11-29";

    Result run(String job) {
        return wb.cli("run", job, "--key", KEY);
    }

    JsonNode status(String job) {
        return CredentialTesting.status(wb, job, KEY);
    }

    String timelineJson(String job) {
        Result r = wb.cli("timeline", job, KEY, "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        return r.out();
    }

    // --- redirects -------------------------------------------------------------------------------

    @Test
    void aPostRedirectedToTheLoginPageWaitsForTheCredentialAndNothingIsDone() throws IOException {
        set(wb, CRED, "Cookie: session=Expired1234");
        site.failPosts(Fault.REDIRECT_TO_LOGIN);
        wb.job("p", Jobs.publish("p", "unsafe", false, USES_CRED), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        assertThat(st.get("message").asText()).contains("302").contains("/login");
        assertThat(site.effects(KEY)).isZero();
        assertThat(site.server().count("GET", "/login")).as("the redirect is not followed").isZero();
        assertThat(site.posts()).isEqualTo(1);
        assertThat(timelineJson("p")).contains("Location: /login?next=%2Fapi%2Farticles").doesNotContain("KEY_DONE");
        assertThat(listRow(wb, CRED)[6]).as("the credential is not 'accepted'").isEqualTo("rejected");
    }

    @Test
    void aProbeRedirectedToTheLoginPageWaitsForTheCredentialAndThePostIsNotSent() throws IOException {
        set(wb, CRED, "Cookie: session=Expired1234");
        site.failGets(Fault.REDIRECT_TO_LOGIN);
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(status("p").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.posts()).isZero();
        assertThat(site.server().count("GET", "/login")).isZero();
        assertThat(timelineJson("p")).contains("/login?next=").doesNotContain("STEP_RECONCILED")
                .doesNotContain("KEY_DONE");
    }

    @Test
    void aRedirectToTheCredentialsLoginUrlIsALoginAnyOtherRedirectIsFatal() throws IOException {
        site.server().handler(req -> new Reply.Respond(303, Map.of("Location", site.base() + "/sso/authorize?c=1"), ""));
        wb.job("p", Jobs.publish("p", "unsafe", false, USES_CRED), site.base());
        wb.job("q", Jobs.publish("q", "unsafe", false, "\"credential\": \"plain\","), site.base());
        Result setWithUrl = wb.cliWithInput("Cookie: session=Old12345", "credentials", "set", CRED, "--login-url",
                site.base() + "/sso");
        assertThat(setWithUrl.exit()).as(setWithUrl.toString()).isZero();
        set(wb, "plain", "Cookie: session=Old12345");

        Result login = run("p");
        assertThat(login.exit()).as(login.toString()).isEqualTo(4);
        assertThat(status("p").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(login.out()).contains("log in at " + site.base() + "/sso");
        assertThat(wb.cli("status").out()).contains("log in at " + site.base() + "/sso");
        assertThat(wb.cli("credentials", "list").out()).contains("log in at " + site.base() + "/sso");

        Result other = run("q");
        assertThat(other.exit()).as(other.toString()).isEqualTo(2);
        JsonNode q = status("q");
        assertThat(q.get("state").asText()).isEqualTo("FAILED");
        assertThat(q.get("class").asText()).isEqualTo("FATAL");
        assertThat(q.get("message").asText()).contains("303").contains("/sso/authorize?c=1");
        assertThat(site.server().count("GET", "/sso")).as("never followed").isZero();
    }

    @Test
    void theLoginUrlIsKeptWhenTheValueIsRenewedAndShownWhereKeysWait() throws IOException {
        site.requireCookie("session=Good1234");
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
        Result bad = wb.cliWithInput("session=x", "credentials", "set", CRED, "--login-url", "login.example.org");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(64);
        assertThat(bad.err()).contains("--login-url \"login.example.org\" must be an absolute http(s) URL");
        Result first = wb.cliWithInput("session=Stale1234", "credentials", "set", CRED, "--login-url",
                site.base() + "/login");
        assertThat(first.out()).contains("log in at " + site.base() + "/login");

        assertThat(run("p").exit()).isEqualTo(4);
        assertThat(status("p").get("loginUrl").asText()).isEqualTo(site.base() + "/login");
        assertThat(listRow(wb, CRED)[6]).isEqualTo("rejected");
        // the same (rejected) value again keeps its result and resumes nothing; a new value forgets it but keeps
        // the login URL
        Result same = wb.cliWithInput("session=Stale1234", "credentials", "set", CRED);
        assertThat(same.exit()).as(same.toString()).isEqualTo(4);
        assertThat(same.out()).contains("this is the value that was rejected at");
        assertThat(listRow(wb, CRED)[6]).isEqualTo("rejected");
        Result renewed = set(wb, CRED, "session=Good1234");
        assertThat(renewed.out()).contains("log in at " + site.base() + "/login");
        assertThat(listRow(wb, CRED)[6]).isEqualTo("not used yet");
        assertThat(run("p").exit()).isZero();
        assertThat(listRow(wb, CRED)[6]).isEqualTo("accepted");
    }

    @ParameterizedTest(name = "{0} with a {1} credential")
    @CsvSource({"302, cookie", "307, cookie", "302, bearer", "307, bearer"})
    void aRedirectToAnotherOriginSendsNothingThereAndThePostOnlyOnce(int code, String type) throws IOException {
        AtomicInteger hops = new AtomicInteger();
        try (FaultServer other = new FaultServer(req -> hops.incrementAndGet() < 3
                ? new Reply.Respond(307, Map.of("Location", "/api/articles?hop=" + hops.get()), "")
                : Reply.status(201, "{\"id\":1}"))) {
            String elsewhere = "http://localhost:" + other.port() + "/api/articles";
            site.server().handler(req -> new Reply.Respond(code, Map.of("Location", elsewhere), ""));
            wb.job("p", Jobs.publish("p", "unsafe", false, USES_CRED), site.base());
            if (type.equals("bearer")) {
                Result b = wb.cliWithInput("Bearer TokS3cretValue", "credentials", "set", CRED, "--type", "bearer");
                assertThat(b.exit()).as(b.toString()).isZero();
            } else {
                set(wb, CRED, "Cookie: session=CookS3cretValue");
            }

            Result r = run("p");

            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            JsonNode st = status("p");
            assertThat(st.get("state").asText()).isEqualTo("FAILED");
            assertThat(st.get("class").asText()).isEqualTo("FATAL");
            assertThat(other.received()).as("nothing, let alone a credential, reaches the other origin").isEmpty();
            assertThat(site.server().received()).hasSize(1);
            Request post = site.server().received().get(0);
            assertThat(post.method()).isEqualTo("POST");
            assertThat(post.header(type.equals("bearer") ? "Authorization" : "Cookie")).isNotNull();
            assertThat(timelineJson("p")).contains("Location: " + elsewhere);
        }
    }

    @Test
    void aGetStepFollowsSameOriginRedirectsWhenAskedAndRecordsEveryHop() throws IOException {
        AtomicInteger otherHits = new AtomicInteger();
        try (FaultServer other = new FaultServer(req -> {
            otherHits.incrementAndGet();
            return Reply.json("{}");
        })) {
            String[] last = {"/api/report/final"};
            site.server().handler(req -> switch (req.path()) {
                case "/api/report" -> new Reply.Respond(302, Map.of("Location", "/api/report/v2?date=" + req.queryParam("date")), "");
                case "/api/report/v2" -> new Reply.Respond(301, Map.of("Location", site.base() + last[0]), "");
                case "/api/report/final" -> Reply.json("{\"rows\": 3}");
                default -> Reply.status(404, "{}");
            });
            wb.job("g", """
                    {
                      "name": "g",
                      "key": { "type": "date", "zone": "UTC" },
                      "retry": { "maxAttempts": 1 },
                      "steps": [
                        { "id": "fetch", "kind": "http", "effect": "none", "credential": "site-cookie",
                          "followRedirects": "same-origin",
                          "request": { "method": "GET", "url": "BASE/api/report?date={key}" } }
                      ]
                    }
                    """, site.base());
            set(wb, CRED, "Cookie: session=Good1234");

            Result r = run("g");

            assertThat(r.exit()).as(r.toString()).isZero();
            List<Request> got = site.server().received();
            assertThat(got).extracting(Request::path)
                    .containsExactly("/api/report", "/api/report/v2", "/api/report/final");
            assertThat(got).allSatisfy(req -> assertThat(cookieHas(req.header("Cookie"), "session=Good1234")).isTrue());
            String tl = timelineJson("g");
            assertThat(tl).contains("GET " + site.base() + "/api/report?date=" + KEY + " -> 302")
                    .contains("GET " + site.base() + "/api/report/v2?date=" + KEY + " -> 301")
                    .contains("GET " + site.base() + "/api/report/final -> 200");

            // the same chain, but its last hop leaves the origin: not followed, nothing sent there
            last[0] = "/api/report/v3";
            String away = "http://localhost:" + other.port() + "/api/report/final";
            site.server().handler(req -> switch (req.path()) {
                case "/api/report" -> new Reply.Respond(302, Map.of("Location", "/api/report/v3"), "");
                case "/api/report/v3" -> new Reply.Respond(302, Map.of("Location", away), "");
                default -> Reply.status(404, "{}");
            });
            Result away2 = wb.cli("run", "g", "--key", "2026-11-28");
            assertThat(away2.exit()).as(away2.toString()).isEqualTo(2);
            assertThat(CredentialTesting.status(wb, "g", "2026-11-28").get("class").asText()).isEqualTo("FATAL");
            assertThat(otherHits.get()).isZero();
        }
    }

    @Test
    void aSameOriginRedirectToTheLoginPageIsNotFollowedEvenWhenRedirectsAre() throws IOException {
        site.server().handler(req -> switch (req.path()) {
            case "/api/report" -> new Reply.Respond(302, Map.of("Location", "/api/report/v2"), "");
            case "/api/report/v2" -> new Reply.Respond(302, Map.of("Location", "/account/login?next=/api/report"), "");
            case "/account/login" -> new Reply.Respond(200, Map.of("Content-Type", "text/html"), "<form>log in</form>");
            default -> Reply.status(404, "{}");
        });
        wb.job("g", """
                {
                  "name": "g",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "fetch", "kind": "http", "effect": "none", "credential": "site-cookie",
                      "followRedirects": "same-origin",
                      "request": { "method": "GET", "url": "BASE/api/report" } }
                  ]
                }
                """, site.base());
        set(wb, CRED, "Cookie: session=Expired1234");

        Result r = run("g");

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(status("g").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.server().received()).extracting(Request::path).containsExactly("/api/report", "/api/report/v2");
        assertThat(timelineJson("g")).contains("Location: /account/login?next=/api/report")
                .contains("GET " + site.base() + "/api/report -> 302");
    }

    // --- response rules ----------------------------------------------------------------------------

    static final String SUCCESS_WHEN = """
            "response": { "successWhen": { "jsonPointer": "/id", "exists": true } },
            """;
    static final String AUTH_WHEN = """
            "response": { "authWhen": { "jsonPointer": "/code", "in": [40001, 40014, 42001] } },
            """;

    @Test
    void status200WithAnErrorCodeFailsUnderSuccessWhen() throws IOException {
        site.failPosts(Fault.STATUS_200_ERRCODE);
        wb.job("p", Jobs.publish("p", "unsafe", false, SUCCESS_WHEN), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("class").asText()).isEqualTo("FATAL");
        assertThat(st.get("message").asText()).contains("the answer does not show success");
        assertThat(timelineJson("p")).contains("40001").contains("invalid token");
        // the next key, answered properly, meets successWhen
        assertThat(wb.cli("run", "p", "--key", "2026-11-28").exit()).isZero();
    }

    @Test
    void status200WithAnErrorCodeWaitsForTheCredentialUnderAuthWhen() throws IOException {
        site.failPosts(Fault.STATUS_200_ERRCODE);
        wb.job("p", Jobs.publish("p", "unsafe", false, AUTH_WHEN), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(status("p").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.effects(KEY)).isZero();
    }

    // --- probes ----------------------------------------------------------------------------------

    @Test
    void anHttpProbeWithoutPresentWhenIsALoadError() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", true, null).replaceAll(",\\s*\"presentWhen\": \\{[^}]*\\}", ""),
                site.base());
        assertThat(Files.readString(wb.jobs.resolve("p.json"))).doesNotContain("presentWhen");

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out() + r.err()).contains("p.json:").contains("missing required field \"presentWhen\"");
        assertThat(site.server().received()).isEmpty();
    }

    @Test
    void theString0IsNotTheNumber0TheProbeCannotDecideAndThePostIsNotSent() throws IOException {
        site.server().handler(req -> req.method().equals("GET") ? Reply.json("{\"total\": \"0\"}")
                : Reply.status(201, "{\"id\":1}"));
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("inconclusive").contains("string");
        assertThat(site.posts()).isZero();
        assertThat(timelineJson("p")).doesNotContain("STEP_RECONCILED");
    }

    /**
     * An attempt is a send of the step: a probe that could not tell before it spends none of them. Two asks the site
     * answered 503, then the probe answered absent, the post 503 once: the post still has its second attempt.
     */
    @Test
    void aProbeThatCannotTellBeforeTheSendSpendsNoAttemptOfTheStep() throws IOException {
        site.failGets(Fault.STATUS_503, Fault.STATUS_503);
        site.failPosts(Fault.STATUS_503);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isZero();
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("DONE");
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(site.posts()).as("the 503, then the post").isEqualTo(2);
        assertThat(timeline(wb, "p", KEY)).filteredOn(e -> e.get("type").asText().equals("STEP_SUCCEEDED")
                        && e.get("step").asText().equals("publish"))
                .singleElement().satisfies(e -> assertThat(e.get("attempt").asInt()).as("two sends, not four")
                        .isEqualTo(2));
        String tl = wb.cli("timeline", "p", KEY).out();
        assertThat(tl).contains("(ask 2 of 3)").contains("attempt 2 of 3");
    }

    @Test
    void aProbeThatNeverTellsFailsTheKeyAfterItsAsksWithNothingSent() throws IOException {
        site.failGets(Fault.STATUS_503, Fault.STATUS_503, Fault.STATUS_503);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("attempts").asInt()).as("nothing was sent").isZero();
        assertThat(st.get("message").asText()).contains("could not tell 3 times in a row").contains("inconclusive")
                .doesNotContain("after 3 attempts");
        assertThat(site.posts()).isZero();
        assertThat(site.gets()).isEqualTo(3);
    }

    static String commandProbeJob(String probeScript) {
        return """
                {
                  "name": "c",
                  "key": { "type": "date", "zone": "UTC" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "send", "kind": "command", "effect": "unsafe",
                      "command": ["sh", "-c", "echo sent >> sent-{key}.txt"],
                      "probe": { "kind": "command", "command": ["sh", "-c", %s] } }
                  ]
                }
                """.formatted(Jobs.quote(probeScript.replace("{", "{{").replace("}", "}}")));
    }

    @Test
    void aCommandProbeThatExits1IsInconclusiveAndTheUnsafeStepDoesNotRun() throws IOException {
        wb.job("c", commandProbeJob("echo 'cannot reach the site' >&2; exit 1"), null);

        Result r = run("c");

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(wb.jobs.resolve("sent-" + KEY + ".txt")).as("the unsafe step did not run").doesNotExist();
        assertThat(status("c").get("message").asText()).contains("inconclusive");
    }

    @Test
    void aCommandProbeAnswersPresentOrAbsentOnItsLastLine() throws IOException {
        wb.job("c", commandProbeJob("echo checking; echo '{\"present\": false}'"), null);
        assertThat(run("c").exit()).isZero();
        assertThat(wb.jobs.resolve("sent-" + KEY + ".txt")).hasContent("sent");

        wb.job("c", commandProbeJob("echo '{\"present\": true}'"), null);
        Result second = wb.cli("run", "c", "--key", "2026-11-28");
        assertThat(second.exit()).as(second.toString()).isZero();
        assertThat(wb.jobs.resolve("sent-2026-11-28.txt")).as("reconciled by the probe").doesNotExist();
        assertThat(wb.cli("timeline", "c", "2026-11-28").out()).contains("STEP_RECONCILED");

        wb.job("c", commandProbeJob("echo '{\"outcome\": \"auth\"}'"), null);
        assertThat(wb.cli("run", "c", "--key", "2026-11-27").exit()).isEqualTo(4);
        assertThat(CredentialTesting.status(wb, "c", "2026-11-27").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(wb.jobs.resolve("sent-2026-11-27.txt")).doesNotExist();
    }

    /**
     * Two steps: an unsafe POST whose probe takes the item's {@code id} and a {@code token} (marked secret) from an
     * answer that finds the item, and a GET that uses both.
     */
    static final String PROBE_OUTPUTS_JOB = """
        {
          "name": "po",
          "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
          "steps": [
            { "id": "pub", "kind": "http", "effect": "unsafe",
              "request": { "method": "POST", "url": "BASE/api/items", "body": "item {key}" },
              "probe": { "kind": "http", "url": "BASE/api/items?date={key}",
                         "presentWhen": { "jsonPointer": "/0/id", "exists": true },
                         "extract": { "id": { "json": "/0/id" },
                                      "token": { "json": "/0/token", "secret": true } } } },
            { "id": "use", "kind": "http", "effect": "idempotent",
              "request": { "method": "GET", "url": "BASE/api/items/{steps.pub.outputs.id}/check",
                           "headers": { "X-Item-Token": "{steps.pub.outputs.token}" } } }
          ]
        }
        """;

    /**
     * The item is there before the run: the POST is reconciled by its probe, and the values the probe took are its
     * outputs, which the next step sends. The token is marked secret: sent, and masked wherever the key is shown.
     */
    @Test
    void theValuesAProbeTookAreTheReconciledStepsOutputsAndASecretOneIsMasked() throws IOException {
        String token = "itemtoken-5f1c9a7e";
        List<Request> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        site.server().handler(req -> {
            seen.add(req);
            if (req.method().equals("GET") && req.path().equals("/api/items")) {
                return Reply.json("[{\"id\": 4711, \"token\": \"" + token + "\"}]");
            }
            return Reply.json("{\"ok\": true}");
        });
        wb.job("po", PROBE_OUTPUTS_JOB, site.base());

        Result r = wb.cli("run", "po", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(seen).noneMatch(q -> q.method().equals("POST"));
        assertThat(seen).as("the next step used the values the probe found").anyMatch(q -> q.method().equals("GET")
                && q.path().equals("/api/items/4711/check") && token.equals(q.header("X-Item-Token")));
        assertThat(timelineJson("po")).contains("STEP_RECONCILED");
        for (String shown : wb.shown("po", KEY, r)) {
            assertThat(shown).as("the secret output is masked").doesNotContain(token);
        }
    }

    /**
     * A probe whose {@code extract} reads an answer that says "absent" ({@code []}, 200) takes nothing from it: the
     * values are for a step it reconciles, so the answer stays "absent" and the POST is sent.
     */
    @Test
    void aProbeAnsweredAbsentNeedsNoneOfItsValues() throws IOException {
        List<Request> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        site.server().handler(req -> {
            seen.add(req);
            if (req.method().equals("GET") && req.path().equals("/api/items")) {
                return Reply.json("[]");
            }
            return req.method().equals("POST") ? Reply.status(201, "{\"id\": 4712, \"token\": \"t-4712-abcdef\"}")
                    : Reply.json("{\"ok\": true}");
        });
        wb.job("po", PROBE_OUTPUTS_JOB, site.base());

        Result r = wb.cli("run", "po", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(seen.stream().filter(q -> q.method().equals("POST")).count()).isEqualTo(1);
        assertThat(seen).anyMatch(q -> q.path().equals("/api/items/4712/check"));
    }

    // --- refusals: 503, 429, 409 -------------------------------------------------------------------

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {503, 429})
    void aRefusedUnsafePostWithAProbeIsPublishedExactlyOnceAfterRetryAfter(int code) throws IOException {
        site.retryAfterSeconds(30);
        site.failPosts(code == 503 ? Fault.STATUS_503 : Fault.STATUS_429);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status("p").get("state").asText()).isEqualTo("DONE");
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(site.posts()).isEqualTo(2);
        assertThat(site.gets()).as("the probe ran before the first send and before the resend").isEqualTo(2);
        assertThat(wb.sleeps).as("Retry-After 30 s, longer than the backoff of 2 s").containsExactly(Duration.ofSeconds(30));
    }

    /**
     * A safe step the site answers "unavailable, come back in 30 s" is sent again after the site's wait, whatever the
     * 5xx: a 503, and a 500 or 502 that names its wait too, as a probe's inconclusive answer is asked again.
     */
    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {500, 502, 503})
    void aSafeStepAnsweredWithRetryAfterIsSentAgainAfterTheSitesWait(int code) throws IOException {
        AtomicInteger posts = new AtomicInteger();
        site.server().handler(req -> posts.incrementAndGet() == 1
                ? new Reply.Respond(code, Map.of("Retry-After", "30", "Content-Type", "application/json"),
                        "{\"error\": \"maintenance\"}")
                : Reply.status(201, "{\"id\": 1}"));
        wb.job("p", Jobs.publish("p", "idempotent", false, null), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status("p").get("state").asText()).isEqualTo("DONE");
        assertThat(posts.get()).isEqualTo(2);
        assertThat(wb.sleeps).as("Retry-After 30 s, longer than the backoff of 2 s").containsExactly(Duration.ofSeconds(30));
        assertThat(timelineJson("p")).contains("(Retry-After 30s)");
    }

    @Test
    void anUnsafePostAnswered500WithRetryAfterWaitsThenItsProbeDecidesWithoutASecondPost() throws IOException {
        AtomicInteger posts = new AtomicInteger();
        AtomicInteger created = new AtomicInteger();
        site.server().handler(req -> {
            if (req.method().equals("POST")) {
                posts.incrementAndGet();
                created.set(1); // the site saved it, then failed to answer
                return new Reply.Respond(500, Map.of("Retry-After", "30", "Content-Type", "application/json"),
                        "{\"error\": \"oops after saving\"}");
            }
            return Reply.json("{\"total\": " + created.get() + "}");
        });
        wb.job("pub", Jobs.publish("pub", "unsafe", true, null), site.base());

        Result r = run("pub");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status("pub").get("state").asText()).isEqualTo("DONE");
        assertThat(posts.get()).as("never sent twice").isEqualTo(1);
        assertThat(wb.sleeps).as("it waited the Retry-After before asking the probe").containsExactly(Duration.ofSeconds(30));
        assertThat(timelineJson("pub")).contains("STEP_RECONCILED").contains("its probe decides after the wait");
    }

    @Test
    void conflict409WhileTheFirstRequestIsStillProcessedEndsDoneWithOneEffect() throws IOException {
        Map<String, String> byIdempotencyKey = new ConcurrentHashMap<>();
        AtomicInteger payments = new AtomicInteger();
        site.server().handler(req -> {
            String idem = req.header("Idempotency-Key");
            String state = byIdempotencyKey.get(idem);
            if (state == null) {
                byIdempotencyKey.put(idem, "processing");
                payments.incrementAndGet();
                return new Reply.Hang(); // still processing when the client gives up
            }
            if (state.equals("processing")) {
                byIdempotencyKey.put(idem, "{\"payment\": 1}"); // it finishes right after this answer
                return new Reply.Respond(409, Map.of("Retry-After", "1", "Content-Type", "application/json"),
                        "{\"error\": \"a request with this Idempotency-Key is being processed\"}");
            }
            return Reply.status(201, state);
        });
        wb.job("pay", Jobs.publish("pay", "idempotent", false, """
                "retry": { "maxAttempts": 4, "initialDelay": "PT0.5S", "multiplier": 1.0, "maxDelay": "PT1M",
                           "jitter": 0.0, "maxElapsed": "PT10M" },
                """), site.base());

        Result r = run("pay");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status("pay").get("state").asText()).isEqualTo("DONE");
        assertThat(payments.get()).isEqualTo(1);
        assertThat(site.server().received()).hasSize(3)
                .allSatisfy(req -> assertThat(req.header("Idempotency-Key")).isEqualTo("pay:" + KEY + ":publish"));
        assertThat(wb.sleeps).as("backoff after the timeout, then Retry-After: 1 (longer than the backoff)")
                .containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1));
        assertThat(timelineJson("pay")).contains("request still in progress (HTTP 409)");
    }

    @Test
    void conflict409OnAnUnsafeStepWaitsThenItsProbeDecidesWithoutASecondPost() throws IOException {
        AtomicInteger posts = new AtomicInteger();
        AtomicInteger created = new AtomicInteger();
        site.server().handler(req -> {
            if (req.method().equals("POST")) {
                posts.incrementAndGet();
                created.set(1); // the site goes on processing the first request and finishes it
                return new Reply.Respond(409, Map.of("Retry-After", "2", "Content-Type", "application/json"),
                        "{\"error\": \"a request with this Idempotency-Key is being processed\"}");
            }
            return Reply.json("{\"total\": " + created.get() + "}");
        });
        // the probe of an unsafe step says absent before the POST; after the 409 the key waits Retry-After,
        // then the probe (not a resend) decides: present -> reconciled
        wb.job("pub", Jobs.publish("pub", "unsafe", true, null), site.base());

        Result r = run("pub");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status("pub").get("state").asText()).isEqualTo("DONE");
        assertThat(posts.get()).as("never sent twice").isEqualTo(1);
        assertThat(wb.sleeps).as("it waited the Retry-After before asking the probe").contains(Duration.ofSeconds(2));
        assertThat(timelineJson("pub")).contains("STEP_RECONCILED");
    }

    /**
     * A 409 that says nothing of the Idempotency-Key is the site's refusal of a conflict (Dropbox's
     * {@code path/conflict}): nothing was done, the key fails with the site's words. After an attempt whose outcome is
     * unknown (its answer was lost, a person confirmed a resend), the failure says that attempt may have done it.
     */
    @Test
    void a409ThatSaysNothingOfTheIdempotencyKeyIsARefusalAfterALostAnswerItSaysTheWorkMayBeThere()
            throws IOException {
        AtomicInteger posts = new AtomicInteger();
        site.server().handler(req -> {
            if (posts.incrementAndGet() == 1) {
                return new Reply.Hang(); // the first post's answer is lost
            }
            return new Reply.Respond(409, Map.of("Content-Type", "application/json"),
                    "{\"error_summary\": \"path/conflict/file/..\", \"error\": {\".tag\": \"path\", \"path\": "
                            + "{\".tag\": \"conflict\", \"conflict\": {\".tag\": \"file\"}}}}");
        });
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());

        Result lost = run("pub");
        assertThat(lost.exit()).as(lost.toString()).isEqualTo(4);
        assertThat(status("pub").get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        Result confirmed = wb.cli("confirm", "pub", KEY, "--note", "looked: nothing there");

        JsonNode st = status("pub");
        assertThat(st.get("state").asText()).as(confirmed.toString()).isEqualTo("FAILED");
        assertThat(st.get("class").asText()).isEqualTo("FATAL");
        assertThat(st.get("message").asText()).contains("HTTP 409").contains("path/conflict")
                .contains("may have done it").doesNotContain("in progress");
        assertThat(posts.get()).as("the lost post and the confirmed one; the refusal is not sent again").isEqualTo(2);
        wb.job("put", Jobs.publish("put", "idempotent", false, null), site.base());
        Result put = run("put");
        assertThat(put.exit()).as(put.toString()).isEqualTo(2);
        assertThat(status("put").get("message").asText()).contains("path/conflict").doesNotContain("may have done");
        assertThat(posts.get()).as("an idempotent step refused so is not sent again either").isEqualTo(3);
    }

    /**
     * A site that honours {@code Idempotency-Key} answers a key it saw with the answer it gave, and does nothing. The
     * key failed at {@code announce}, after {@code publish} was done; the operator deleted the article and sends the
     * key back to {@code publish} ({@code retry --from-step}): that redo carries a new key, so the article is made
     * again; {@code announce}, which never finished, keeps its key for every attempt.
     */
    @Test
    void retryFromAStepThatWasDoneSendsItWithANewIdempotencyKeyAndAFailedStepKeepsItsKey() throws IOException {
        Map<String, String> answered = new ConcurrentHashMap<>();
        AtomicInteger articles = new AtomicInteger();
        AtomicInteger announces = new AtomicInteger();
        List<String> keys = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        site.server().handler(req -> {
            String idem = req.header("Idempotency-Key");
            keys.add(req.path() + " " + idem);
            String seen = answered.get(idem);
            if (seen != null) {
                return Reply.status(201, seen);
            }
            String answer;
            if (req.path().equals("/api/announce")) {
                if (announces.incrementAndGet() == 1) {
                    return new Reply.Respond(422, Map.of(), "{\"error\": \"channel is archived\"}");
                }
                answer = "{\"announced\": true}";
            } else {
                answer = "{\"id\": " + articles.incrementAndGet() + "}";
            }
            answered.put(idem, answer);
            return Reply.status(201, answer);
        });
        String job = Jobs.publish("pub", "idempotent", false, null).replace("\"timeout\": \"PT1S\" }",
                "\"timeout\": \"PT1S\" },\n    { \"id\": \"announce\", \"kind\": \"http\", \"effect\": \"idempotent\","
                        + " \"request\": { \"method\": \"POST\", \"url\": \"BASE/api/announce\","
                        + " \"body\": \"new\" } }");
        assertThat(job).contains("announce");
        wb.job("pub", job, site.base());
        Result failed = run("pub");
        assertThat(failed.exit()).as(failed.toString()).isEqualTo(2);

        Result retried = wb.cli("retry", "pub", KEY, "--from-step", "publish", "--note", "deleted the article");
        assertThat(retried.exit()).as(retried.toString()).isZero();
        Result again = run("pub");

        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(status("pub").get("state").asText()).isEqualTo("DONE");
        assertThat(articles.get()).as("the redo made the article again").isEqualTo(2);
        assertThat(keys).containsExactly("/api/articles pub:" + KEY + ":publish",
                "/api/announce pub:" + KEY + ":announce",
                "/api/articles pub:" + KEY + ":publish:redo1",
                "/api/announce pub:" + KEY + ":announce");
    }

    @Test
    void aRetryAfterTooLargeForAnyClockNeitherCrashesNorSendsAgain() throws IOException {
        site.server().handler(req -> new Reply.Respond(429, Map.of("Retry-After", "9223372036854775807"), "{}"));
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());

        Result r = run("p");

        assertThat(r.exit()).as(r.toString()).isIn(2, 5);
        CredentialTesting.assertNoStackTrace(r);
        assertThat(status("p").get("state").asText()).isIn("FAILED", "RETRY_WAIT");
        assertThat(site.server().received()).hasSize(1);
    }

    // --- TLS, trickling body ---------------------------------------------------------------------

    @Test
    void aFailedTlsHandshakeIsRetryableNothingReachedTheServer() throws Exception {
        try (TlsServer tls = new TlsServer(tmp)) {
            wb.job("p", Jobs.publish("p", "unsafe", false, null), tls.base());

            Result r = run("p");

            assertThat(r.exit()).as("the environment failed, nothing was sent: " + r).isEqualTo(1);
            JsonNode st = status("p");
            assertThat(st.get("state").asText()).isEqualTo("FAILED");
            assertThat(st.get("class").asText()).isEqualTo("RETRYABLE");
            assertThat(st.get("attempts").asInt()).isEqualTo(3);
            assertThat(st.get("message").asText()).contains("TLS handshake");
            assertThat(tls.requests()).isZero();
            assertThat(tls.failedHandshakes()).isEqualTo(3);
        }
    }

    @Test
    void aTricklingBodyEndsTheStepWithinItsTimeout() throws IOException {
        // headers at once, then one byte every 100 ms for 60 s
        site.server().handler(req -> new Reply.Trickle(201, Map.of("Content-Type", "application/json"), 600, 100));
        wb.job("p", Jobs.publish("p", "idempotent", false, "\"retry\": { \"maxAttempts\": 1 },"), site.base());

        long started = System.nanoTime();
        Result r = run("p");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(status("p").get("class").asText()).isEqualTo("TRANSIENT_AFTER_SEND");
        // timeout PT1S: a whole CLI run (H2 open, migration, the write step, the POST) in far less than the
        // 60 s trickle, with room for a busy machine
        assertThat(ms).as("wall time of the run").isLessThan(30_000);
    }

    @Test
    void aTricklingProbeIsInconclusiveWithinItsTimeout() throws IOException {
        site.server().handler(req -> req.method().equals("GET")
                ? new Reply.Trickle(200, Map.of("Content-Type", "application/json"), 600, 100)
                : Reply.status(201, "{\"id\":1}"));
        wb.job("p", Jobs.publish("p", "unsafe", true, "\"retry\": { \"maxAttempts\": 1 },")
                .replace("\"notEquals\": 0 }", "\"notEquals\": 0 }, \"timeout\": \"PT1S\""), site.base());

        long started = System.nanoTime();
        Result r = run("p");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(status("p").get("message").asText()).contains("inconclusive");
        assertThat(site.posts()).isZero();
        // the 60 s trickle was cut by the probe's PT1S timeout
        assertThat(ms).as("wall time of the run").isLessThan(30_000);
    }

    // --- cookie files ------------------------------------------------------------------------------

    /** Parks key KEY of job p on a stale cookie (401), renews with {@code file}, runs again. */
    private void parkThenRenewWith(String fileName, String content, String goodCookie) throws IOException {
        site.requireCookie(goodCookie);
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
        set(wb, CRED, "Cookie: session=Stale1234");
        assertThat(run("p").exit()).isEqualTo(4);
        assertThat(listRow(wb, CRED)[6]).isEqualTo("rejected");

        Path file = tmp.resolve(fileName);
        Files.writeString(file, content, StandardCharsets.UTF_8);
        Result renewed = wb.cli("credentials", "set", CRED, "--from-file", file.toString());
        assertThat(renewed.exit()).as(renewed.toString()).isZero();
        assertThat(renewed.out()).contains("1 parked key resumed");
        String[] row = listRow(wb, CRED);
        assertThat(row[6]).as("the old 'rejected' is not shown next to the new fingerprint").isEqualTo("not used yet");
        assertThat(row[5]).as("nor its last use").isEqualTo("-");

        Result done = run("p");
        assertThat(done.exit()).as(done.toString()).isZero();
        assertThat(status("p").get("state").asText()).isEqualTo("DONE");
        assertThat(site.effects(KEY)).isEqualTo(1);
        Request post = site.server().received().stream().filter(x -> x.method().equals("POST")).findFirst().orElseThrow();
        assertThat(cookieHas(post.header("Cookie"), goodCookie)).as(post.header("Cookie")).isTrue();
    }

    @Test
    void aPlaywrightStorageStateResumesTheParkedKey() throws IOException {
        parkThenRenewWith("state.json", """
                {
                  "cookies": [
                    { "name": "session", "value": "PwS3cretValue", "domain": "127.0.0.1", "path": "/",
                      "expires": -1, "httpOnly": true, "secure": false, "sameSite": "Lax" },
                    { "name": "theme", "value": "dark", "domain": "127.0.0.1", "path": "/",
                      "expires": 1830000000.5, "httpOnly": false, "secure": false, "sameSite": "Lax" }
                  ],
                  "origins": [
                    { "origin": "%s", "localStorage": [ { "name": "token", "value": "not-a-cookie" } ] }
                  ]
                }
                """.formatted(site.base()), "session=PwS3cretValue");
    }

    @Test
    void aWgetCookieFileWhoseDomainCarriesThePortResumesTheParkedKey() throws IOException {
        parkThenRenewWith("wget-cookies.txt", """
                # HTTP Cookie File
                # Generated by Wget on 2026-11-29 09:00:00.
                # Edit at your own risk.

                127.0.0.1:%d\tFALSE\t/\tFALSE\t0\tsession\tWgetS3cretValue
                """.formatted(site.server().port()), "session=WgetS3cretValue");
    }
}
