package io.keyline.core.exec;

import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.core.match.ConditionText;
import io.keyline.core.match.Deadline;
import io.keyline.domain.Condition;
import io.keyline.domain.Condition.Comparison;
import io.keyline.domain.Extraction;
import io.keyline.domain.JobDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reading an answer, without a network: the new conditions ({@code not}, {@code bodyMatches}, {@code {key}} in
 * patterns), numbers of any size compared by value, the deadline of a scan, extraction, the encoding of bodies
 * by field, and login URLs matched with their query.
 */
class AnswerReadingTest {

    static final ConditionText.Vars VARS = new ConditionText.Vars("2026-11-29", "wiki");

    @TempDir
    Path tmp;

    static Conditions.Answer answer(int status, Map<String, List<String>> headers, String body) {
        return new Conditions.Answer(status, headers, body.getBytes(StandardCharsets.UTF_8), VARS, Deadline.NONE);
    }

    static Conditions.Truth truth(Condition c, Conditions.Answer a) {
        return Conditions.evaluate(c, a).truth();
    }

    @Test
    void notInvertsAndKeepsTheUndecidedUndecided() {
        Conditions.Answer a = answer(200, Map.of(), "{\"total\": 3}");
        Condition three = new Condition.Compare("/total", Comparison.EQUALS, List.of("3"));
        Condition missing = new Condition.Compare("/none", Comparison.EQUALS, List.of("3"));
        assertThat(truth(new Condition.Not(three), a)).isEqualTo(Conditions.Truth.FALSE);
        assertThat(truth(new Condition.Not(new Condition.Not(three)), a)).isEqualTo(Conditions.Truth.TRUE);
        assertThat(truth(new Condition.Not(missing), a)).isEqualTo(Conditions.Truth.UNKNOWN);
    }

    @Test
    void bodyMatchesFindsAnywhereAndKeyIsQuotedInPatterns() {
        Conditions.Answer page = answer(302, Map.of("Location", List.of("/doku.php?id=journal:2026-11-29")),
                "<form id=\"dw__login\">");
        assertThat(truth(new Condition.BodyMatches("dw__log[a-z]+"), page)).isEqualTo(Conditions.Truth.TRUE);
        assertThat(truth(new Condition.BodyMatches("^dw__login$"), page)).isEqualTo(Conditions.Truth.FALSE);
        assertThat(truth(new Condition.Header("Location", "[?&]id=journal:{key}(&|$)"), page))
                .isEqualTo(Conditions.Truth.TRUE);
        // the key's "-" and a "." in a job name are literal, never "any character"
        Conditions.Answer other = answer(302, Map.of("Location", List.of("/doku.php?id=journal:2026x11x29")), "");
        assertThat(truth(new Condition.Header("Location", "journal:{key}"), other)).isEqualTo(Conditions.Truth.FALSE);
        assertThat(truth(new Condition.BodyContains("{job} journal"), answer(200, Map.of(), "the wiki journal")))
                .isEqualTo(Conditions.Truth.TRUE);
        assertThat(truth(new Condition.Compare("/page", Comparison.EQUALS, List.of("\"journal:{key}\"")),
                answer(200, Map.of(), "{\"page\": \"journal:2026-11-29\"}"))).isEqualTo(Conditions.Truth.TRUE);
    }

    /**
     * A string value is shown as the answer holds it, between quotes: MediaWiki's anonymous token is a plus and one
     * backslash, not JSON's doubled backslash; a control character in it is escaped for the terminal; a number stays
     * a number, so the string "0" and the number 0 still read apart.
     */
    @Test
    void aStringValueIsShownAsTheAnswerHoldsIt() {
        Conditions.Answer a = answer(200, Map.of(), "{\"token\": \"+\\\\\", \"title\": \"say \\u001b[31mred\", "
                + "\"n\": 0, \"s\": \"0\"}");
        Condition anonymous = new Condition.Compare("/token", Comparison.EQUALS, List.of("\"+\\\\\""));
        assertThat(Conditions.evaluate(anonymous, a).truth()).isEqualTo(Conditions.Truth.TRUE);
        assertThat(Conditions.evaluate(anonymous, a).words().english()).isEqualTo("/token = \"+\\\"");
        assertThat(Conditions.evaluate(new Condition.Exists("/title", true), a).words().english())
                .isEqualTo("/title = \"say \\e[31mred\"");
        assertThat(Conditions.evaluate(new Condition.Exists("/n", true), a).words().english()).isEqualTo("/n = 0");
        assertThat(Conditions.evaluate(new Condition.Exists("/s", true), a).words().english()).isEqualTo("/s = \"0\"");
    }

    @Test
    void numbersOfAnySizeCompareByValueWithoutWritingThemOut() {
        Conditions.Answer bomb = answer(200, Map.of(), "{\"total\": 1e2147483627, \"neg\": -1E2147483647, "
                + "\"tiny\": 1e-2147483000, \"same\": 10e2147483626}");
        assertThat(truth(new Condition.Compare("/total", Comparison.NOT_EQUALS, List.of("0")), bomb))
                .isEqualTo(Conditions.Truth.TRUE);
        assertThat(truth(new Condition.Compare("/total", Comparison.EQUALS, List.of("1E+2147483627")), bomb))
                .isEqualTo(Conditions.Truth.TRUE);
        assertThat(truth(new Condition.Compare("/same", Comparison.EQUALS, List.of("1E+2147483627")), bomb))
                .as("10e2147483626 is 1e2147483627").isEqualTo(Conditions.Truth.TRUE);
        assertThat(truth(new Condition.Compare("/neg", Comparison.IN, List.of("1", "-1E+2147483647")), bomb))
                .isEqualTo(Conditions.Truth.TRUE);
        assertThat(truth(new Condition.Compare("/tiny", Comparison.EQUALS, List.of("0")), bomb))
                .isEqualTo(Conditions.Truth.FALSE);
        assertThat(truth(new Condition.Compare("", Comparison.EQUALS, List.of("{\"a\":[1.50,{\"b\":2}]}")),
                answer(200, Map.of(), "{\"a\": [1.5, {\"b\": 2.0}]}"))).isEqualTo(Conditions.Truth.TRUE);
        assertThat(Conditions.evaluate(new Condition.Compare("/total", Comparison.EQUALS, List.of("1")), bomb).words()
                .english())
                .isEqualTo("/total = 1E+2147483627");
    }

    @Test
    void aScanEndsByItsDeadline() {
        Conditions.Answer huge = new Conditions.Answer(200, Map.of(), "a".repeat(1 << 20).getBytes(StandardCharsets.UTF_8),
                VARS, Deadline.at(System.nanoTime() - 1, Duration.ofSeconds(5)));
        assertThatThrownBy(() -> Conditions.evaluate(new Condition.BodyMatches("b"), huge))
                .isInstanceOf(Deadline.Exceeded.class).hasMessageContaining("within 5s");
    }

    @Test
    void extractionTakesEachRuleAndCountsAnEmptyValueAsNotFound() {
        String html = "<html><body><form><input type=hidden name=sectok value=\"ab12\"><input name=empty value=\"\">"
                + "<h1>  Journal\n 2026-11-29 </h1></form><p>rev=42</p></body></html>";
        Conditions.Answer a = answer(200, Map.of("X-Rev", List.of("7")), html);
        Map<String, Extraction> rules = new LinkedHashMap<>();
        rules.put("sectok", new Extraction.Css("input[name=sectok]", "value", false, false));
        rules.put("title", new Extraction.Css("h1", null, false, false));
        rules.put("rev", new Extraction.Regex("rev=([0-9]+)", 1, false, false));
        rules.put("header", new Extraction.Header("x-rev", false, false));
        rules.put("csrf", new Extraction.Cookie("csrftoken", false, false));
        rules.put("empty", new Extraction.Css("input[name=empty]", "value", true, false));
        Extractor.Result r = Extractor.extract(rules, a, List.of("csrftoken=zz9; Path=/", "other=1"),
                URI.create("http://127.0.0.1/"));
        assertThat(r.missingName()).isNull();
        assertThat(r.values()).containsExactly(Map.entry("sectok", "ab12"), Map.entry("title", "Journal 2026-11-29"),
                Map.entry("rev", "42"), Map.entry("header", "7"), Map.entry("csrf", "zz9"));

        Extractor.Result none = Extractor.extract(Map.of("sectok", new Extraction.Css("input[name=empty]", "value",
                false, false)), a, List.of(), URI.create("http://127.0.0.1/"));
        assertThat(none.missingName()).isEqualTo("sectok");
        assertThat(none.missingRule().english()).isEqualTo("css \"input[name=empty]\" attr value");

        Conditions.Answer json = answer(200, Map.of(), "{\"data\": {\"id\": 42, \"ok\": true, \"n\": null, "
                + "\"big\": 1e400, \"list\": [1, \"a\"]}}");
        Map<String, Extraction> j = new LinkedHashMap<>();
        j.put("id", new Extraction.Json("/data/id", false, false));
        j.put("ok", new Extraction.Json("/data/ok", false, false));
        j.put("big", new Extraction.Json("/data/big", false, false));
        j.put("list", new Extraction.Json("/data/list", false, false));
        j.put("n", new Extraction.Json("/data/n", true, false));
        assertThat(Extractor.extract(j, json, List.of(), URI.create("http://x/")).values()).containsExactly(
                Map.entry("id", "42"), Map.entry("ok", "true"), Map.entry("big", "1E+400"),
                Map.entry("list", "[1,\"a\"]"));
    }

    JobDefinition job(String request) throws IOException {
        Path file = tmp.resolve("t.json");
        Files.writeString(file, """
                { "name": "t", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "send", "kind": "http", "effect": "unsafe",
                               "request": { "method": "POST", "url": "https://wiki.example.org/doku.php", %s } } ] }
                """.formatted(request));
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).isEmpty();
        return r.job();
    }

    Rendering.RenderedRequest render(JobDefinition job, Map<String, String> page) throws Rendering.RenderException {
        return Rendering.request(new StepContext(job, job.steps().get(0), "2026-11-29", "run-1", 1,
                Map.of("page", page), null, UnaryOperator.identity()));
    }

    @Test
    void aFormEncodesEachValueOnItsOwnAndTheHashCoversTheEncodedBody() throws Exception {
        JobDefinition job = job("""
                "form": { "id": "journal:{key}", "wikitext": "a&b=c {key}", "tags": ["x y", "z+"] }""");
        Rendering.RenderedRequest r = render(job, Map.of());
        assertThat(new String(r.body(), StandardCharsets.UTF_8))
                .isEqualTo("id=journal%3A2026-11-29&wikitext=a%26b%3Dc+2026-11-29&tags=x+y&tags=z%2B");
        assertThat(r.headers()).containsEntry("Content-Type", "application/x-www-form-urlencoded");
        assertThat(r.bodySource()).isEqualTo("form");
        assertThat(render(job, Map.of()).payloadHash()).isEqualTo(r.payloadHash());
    }

    @Test
    void aJsonBodyValueCannotAddAFieldAndTheMultipartBoundaryIsStable() throws Exception {
        JobDefinition json = job("""
                "json": { "text": "{key}", "n": 1.50, "tag": ["{key}"] }""");
        String hostile = "k\", \"admin\": true, \"x\": \"";
        Rendering.RenderedRequest r = Rendering.request(new StepContext(json, json.steps().get(0), hostile, "run-1", 1,
                Map.of(), null, UnaryOperator.identity()));
        com.fasterxml.jackson.databind.JsonNode sent = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
        assertThat(sent.size()).isEqualTo(3);
        assertThat(sent.get("text").asText()).isEqualTo(hostile);
        assertThat(sent.get("tag").get(0).asText()).isEqualTo(hostile);
        assertThat(sent.has("admin")).isFalse();
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("\"n\":1.50");
        assertThat(r.headers()).containsEntry("Content-Type", "application/json");

        Files.writeString(tmp.resolve("doc.txt"), "hello");
        JobDefinition multi = job("""
                "multipart": { "title": "{key}", "doc": { "file": "doc.txt", "contentType": "text/plain" } }""");
        Rendering.RenderedRequest m1 = render(multi, Map.of());
        Rendering.RenderedRequest m2 = render(multi, Map.of());
        String type = m1.headers().get("Content-Type");
        assertThat(type).startsWith("multipart/form-data; boundary=keyline-");
        String boundary = type.substring(type.indexOf('=') + 1);
        assertThat(new String(m1.body(), StandardCharsets.UTF_8)).isEqualTo("--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"title\"\r\n\r\n2026-11-29\r\n--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"doc\"; filename=\"doc.txt\"\r\nContent-Type: text/plain\r\n\r\n"
                + "hello\r\n--" + boundary + "--\r\n");
        assertThat(m2.payloadHash()).isEqualTo(m1.payloadHash());
    }

    @Test
    void aMultipartFileThatLeavesTheJobFolderAfterSubstitutionFailsTheStep() throws Exception {
        Path file = tmp.resolve("two.json");
        Files.writeString(file, """
                { "name": "two", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "page", "kind": "http", "effect": "none",
                               "request": { "method": "GET", "url": "https://wiki.example.org/" } },
                             { "id": "send", "kind": "http", "effect": "unsafe",
                               "request": { "method": "POST", "url": "https://wiki.example.org/",
                                 "multipart": { "doc": { "file": "out/{steps.page.outputs.name}" } } } } ] }
                """);
        JobDefinition two = JobFileLoader.loadFile(file).job();
        StepContext ctx = new StepContext(two, two.steps().get(1), "2026-11-29", "run-1", 1,
                Map.of("page", Map.of("name", "../../etc/passwd")), null, UnaryOperator.identity());
        assertThatThrownBy(() -> Rendering.request(ctx)).isInstanceOf(Rendering.RenderException.class)
                .hasMessageContaining("outside the job folder");
    }

    @Test
    void aLoginUrlMatchesWithEveryQueryParameterItHas() {
        CredentialMaterial doku = material("https://wiki.example.org/doku.php?do=login");
        URI from = URI.create("https://wiki.example.org/doku.php");
        assertThat(HttpExecutor.isLoginPage(from, "/doku.php?id=journal:2026-11-20", doku)).isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "/doku.php?id=start&do=login", doku)).isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "/doku.php?do=log%69n", doku)).as("decoded").isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "https://other.example.org/doku.php?do=login", doku)).isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "/login?next=x", doku))
                .as("with a login URL, only it is the login page").isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "/login?next=x", material(null))).isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "/sso/authorize", material("https://wiki.example.org/sso"))).isTrue();
    }

    /**
     * The login URL as a person copies it from the address bar of WordPress's login page carries where the site
     * sends them back ({@code redirect_to}): a session that expires on another page is sent to the same login page
     * with that page as its return address, and that is still the login page.
     */
    @Test
    void aReturnAddressInTheLoginUrlIsNotWhatMakesItTheLoginPage() {
        CredentialMaterial wp = material("https://blog.example.org/wp-login.php?redirect_to=https%3A%2F%2Fblog"
                + ".example.org%2Fwp-admin%2F&reauth=1");
        URI from = URI.create("https://blog.example.org/wp-admin/post-new.php");
        assertThat(HttpExecutor.isLoginPage(from, "https://blog.example.org/wp-login.php?redirect_to=https%3A%2F%2F"
                + "blog.example.org%2Fwp-admin%2Fpost-new.php&reauth=1", wp)).isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "/wp-login.php?redirect_to=%2Fwp-admin%2Fedit.php&reauth=1", wp))
                .isTrue();
        assertThat(HttpExecutor.isLoginPage(from, "/wp-login.php?redirect_to=https%3A%2F%2Fblog.example.org%2F", wp))
                .as("the other parameters still count").isFalse();
        assertThat(HttpExecutor.isLoginPage(from, "/wp-admin/?redirect_to=%2Fwp-admin%2F&reauth=1", wp)).isFalse();
        CredentialMaterial doku = material("https://wiki.example.org/doku.php?do=login");
        assertThat(HttpExecutor.isLoginPage(URI.create("https://wiki.example.org/doku.php"),
                "/doku.php?id=journal:2026-11-20", doku)).isFalse();
    }

    static CredentialMaterial material(String loginUrl) {
        return new CredentialMaterial() {
            @Override
            public String name() {
                return "wiki";
            }

            @Override
            public String fingerprint() {
                return "00000000";
            }

            @Override
            public Map<String, String> httpHeaders(URI uri, java.time.Instant now) {
                return Map.of();
            }

            @Override
            public Map<String, String> environment(java.time.Instant now) {
                return Map.of();
            }

            @Override
            public List<String> secretStrings() {
                return List.of();
            }

            @Override
            public String loginUrl() {
                return loginUrl;
            }
        };
    }
}
