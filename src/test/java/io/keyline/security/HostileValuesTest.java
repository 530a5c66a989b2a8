package io.keyline.security;

import io.keyline.core.json.Json;
import io.keyline.testing.FaultServer;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values a site answers, taken by {@code extract} and put into a later request of the same key: a loopback site
 * hands out the value, the same site records what the next request looked like on the wire.
 */
class HostileValuesTest {

    @TempDir
    Path tmp;

    /** A site whose {@code GET /source} answers {@code {"v": VALUE, "w": VALUE2}}; every other request gets 200. */
    static FaultServer site(AtomicReference<Map<String, String>> values) throws Exception {
        return new FaultServer(r -> r.path().equals("/source")
                ? new FaultServer.Reply.Respond(200, Map.of("Content-Type", "application/json"), Json.write(values.get()))
                : new FaultServer.Reply.Respond(200, Map.of("Content-Type", "application/json"), "{\"ok\": true}"));
    }

    static String job(String name, String url) {
        return """
                {
                  "name": "%s",
                  "key": { "type": "manual" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "src", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "BASE/source" },
                      "extract": { "v": { "json": "/v", "optional": true }, "w": { "json": "/w", "optional": true } } },
                    { "id": "use", "kind": "http", "effect": "unsafe",
                      "request": { "method": "DELETE", "url": "%s" } }
                  ]
                }
                """.formatted(name, url);
    }

    /**
     * An id a site answered, put into a path segment, is percent-encoded; but {@code %2E%2E} is still a step up to
     * a server that reads URLs as browsers do (WHATWG: {@code new URL("/api/items/%2E%2E/edit")} is {@code /edit}),
     * {@code ..%2Fadmin} is one to a proxy that decodes {@code %2F} before it resolves dots (nginx), {@code ..%5Cadmin}
     * to a server that takes a backslash for a slash (IIS), and an empty id
     * makes {@code DELETE /api/items//edit}, which a server that merges slashes reads as another resource. Such a
     * value is refused before anything is sent, naming the placeholder; other values go out encoded.
     */
    @Test
    void aValueThatWouldMakeAnotherPathIsNotSent() throws Exception {
        Workbench wb = new Workbench(tmp);
        AtomicReference<Map<String, String>> values = new AtomicReference<>();
        try (FaultServer server = site(values)) {
            wb.job("one", job("one", "BASE/api/items/{steps.src.outputs.v}/edit"), server.base());
            wb.job("two", job("two", "BASE/api/items/{steps.src.outputs.v}{steps.src.outputs.w}/edit"), server.base());
            wb.job("dot", job("dot", "BASE/api/items/{steps.src.outputs.v}./edit"), server.base());
            record Case(String job, String v, String w) {
            }
            List<Case> refused = List.of(new Case("one", "..", null), new Case("one", ".", null),
                    new Case("one", "../admin", null), new Case("one", "..\\admin", null), new Case("one", "a/../b", null),
                    new Case("one", "%2e%2e/x", null),
                    new Case("one", "", null), new Case("two", ".", "."), new Case("dot", ".", null));
            int n = 0;
            for (Case c : refused) {
                Map<String, String> v = new LinkedHashMap<>();
                v.put("v", c.v());
                if (c.w() != null) {
                    v.put("w", c.w());
                }
                values.set(v);
                String key = "K" + n++;
                Result r = wb.cli("run", c.job(), "--key", key);
                assertThat(r.exit()).as(c + "\n" + r).isEqualTo(2);
                assertThat(r.out()).as(c + "\n" + r).contains("the value of {steps.src.outputs.",
                        "would make a path segment of the URL");
            }
            assertThat(server.received()).as("only the source was asked").allMatch(q -> q.path().equals("/source"));

            Map<String, String> sent = new LinkedHashMap<>();
            sent.put("a/b", "/api/items/a%2Fb/edit");
            sent.put("x?y=1#frag", "/api/items/x%3Fy%3D1%23frag/edit");
            sent.put("a b", "/api/items/a%20b/edit");
            sent.put("\u65e5\u62a5", "/api/items/%E6%97%A5%E6%8A%A5/edit");
            sent.put("..a", "/api/items/..a/edit");
            sent.put("http://evil/", "/api/items/http%3A%2F%2Fevil%2F/edit");
            for (Map.Entry<String, String> e : sent.entrySet()) {
                values.set(Map.of("v", e.getKey()));
                Result r = wb.cli("run", "one", "--key", "K" + n++);
                assertThat(r.exit()).as(e.getKey() + "\n" + r).isZero();
                FaultServer.Request last = server.received().get(server.received().size() - 1);
                assertThat(last.method() + " " + last.path()).isEqualTo("DELETE " + e.getValue());
            }
        }
    }

    /**
     * A probe's question that a value would turn into another path cannot be asked, now or later: the same value makes
     * the same URL. Before anything was sent, the key fails at once saying why, as a question the site refuses does,
     * and is not asked again and again as an answer that cannot tell yet would be.
     */
    @Test
    void aProbeThatCannotBeAskedFailsTheKeyAtOnce() throws Exception {
        Workbench wb = new Workbench(tmp);
        AtomicReference<Map<String, String>> values = new AtomicReference<>(Map.of("v", "../admin"));
        try (FaultServer server = site(values)) {
            wb.job("probed", """
                    {
                      "name": "probed",
                      "key": { "type": "manual" },
                      "retry": { "maxAttempts": 3 },
                      "steps": [
                        { "id": "src", "kind": "http", "effect": "none",
                          "request": { "method": "GET", "url": "BASE/source" },
                          "extract": { "v": { "json": "/v" } } },
                        { "id": "use", "kind": "http", "effect": "unsafe",
                          "request": { "method": "POST", "url": "BASE/api/items" },
                          "probe": { "kind": "http", "url": "BASE/api/items/{steps.src.outputs.v}",
                                     "presentWhen": { "status": [200] } } }
                      ]
                    }
                    """, server.base());

            Result r = wb.cli("run", "probed", "--key", "K1");

            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            assertThat(r.out()).as(r.toString()).contains("probe:refused", "would make a path segment of the URL")
                    .doesNotContain("probe:inconclusive");
            assertThat(wb.sleeps).as("nothing to wait for").isEmpty();
            assertThat(server.received()).as("only the source was asked").allMatch(q -> q.path().equals("/source"));
        }
    }

    /**
     * A Location with an 8-bit CSI (U+009B) and the bytes of a right-to-left override, as a site may send them: the
     * trace, status and timeline show them escaped, and so must {@code export --json}, printed to the same terminal,
     * and the run log a person tails. The JSON still carries the exact text.
     */
    @Test
    void anExportAndTheRunLogCarryNoRawControlCharacters() throws Exception {
        Workbench wb = new Workbench(tmp);
        String location = "/x\u009b2J\u00e2\u0080\u00aeevil";
        try (FaultServer server = new FaultServer(r -> new FaultServer.Reply.Respond(302,
                Map.of("Location", location, "Content-Type", "text/plain"), "moved"))) {
            wb.job("moved", """
                    {
                      "name": "moved",
                      "key": { "type": "manual" },
                      "retry": { "maxAttempts": 1 },
                      "steps": [ { "id": "go", "kind": "http", "effect": "none",
                                   "request": { "method": "GET", "url": "BASE/go" } } ]
                    }
                    """, server.base());
            Result run = wb.cli("run", "moved", "--key", "K1");
            assertThat(run.exit()).as(run.toString()).isEqualTo(2);
            assertThat(run.out()).contains("\\x9b2J");
            for (Result r : List.of(wb.cli("export", "--json"), wb.cli("export", "moved", "--json"))) {
                assertThat(r.exit()).as(r.toString()).isZero();
                assertThat(io.keyline.domain.Printable.hasControl(r.out())).as("raw control characters in\n" + r.out())
                        .isFalse();
                assertThat(Json.read(r.out(), com.fasterxml.jackson.databind.JsonNode.class).toString())
                        .as("the exact text, once read").contains("\u009b2J\u00e2");
            }
            String log = java.nio.file.Files.readString(wb.logs().resolve("runs.jsonl"));
            assertThat(log).contains("\\u009b2J");
            assertThat(io.keyline.domain.Printable.hasControl(log)).as("raw control characters in\n" + log).isFalse();
        }
    }

    /**
     * A raw body declared JSON or a form, with a site's value put in as it is: {@code "}, "admin": true} closed the
     * string and added a field, {@code &admin=1} added a form field (many frameworks read the first of two). Like an
     * output in a command's arguments, it is refused when the job loads, pointing to {@code json} and {@code form},
     * which encode each value; a raw body of another type, and validated values ({@code {key}}), stay allowed.
     */
    @Test
    void aValueCannotAddAFieldToARawJsonOrFormBody() throws Exception {
        Workbench wb = new Workbench(tmp);
        AtomicReference<Map<String, String>> values = new AtomicReference<>(Map.of("v", "\"}, \"admin\": true"));
        try (FaultServer server = site(values)) {
            String json = job("rawjson", "BASE/api/items").replace("\"url\": \"BASE/api/items\" }",
                    "\"url\": \"BASE/api/items\", \"headers\": { \"Content-Type\": \"application/json; charset=utf-8\" },"
                            + " \"body\": \"{{\\\"title\\\": \\\"{steps.src.outputs.v}\\\", \\\"admin\\\": false}}\" }")
                    .replace("DELETE", "POST");
            String form = job("rawform", "BASE/api/items").replace("\"url\": \"BASE/api/items\" }",
                    "\"url\": \"BASE/api/items\", \"headers\": { \"content-type\": \"application/x-www-form-urlencoded\" },"
                            + " \"body\": \"title={steps.src.outputs.v}&admin=0\" }")
                    .replace("DELETE", "POST");
            String text = job("rawtext", "BASE/api/items").replace("\"url\": \"BASE/api/items\" }",
                    "\"url\": \"BASE/api/items\", \"headers\": { \"Content-Type\": \"text/plain\" },"
                            + " \"body\": \"title {steps.src.outputs.v} on {key}\" }")
                    .replace("DELETE", "POST");
            wb.job("rawjson", json, server.base());
            wb.job("rawform", form, server.base());
            wb.job("rawtext", text, server.base());
            Result jobs = wb.cli("jobs");
            assertThat(jobs.out()).as(jobs.toString()).contains("rawjson.json:10:", "rawform.json:10:",
                    "{steps.src.outputs.v} is an output of an earlier step, put into", "\"json\"", "\"form\"")
                    .doesNotContain("rawtext.json:");
            for (String name : List.of("rawjson", "rawform")) {
                Result r = wb.cli("run", name, "--key", "K1");
                assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            }
            assertThat(server.received()).as("nothing was sent").isEmpty();
            Result r = wb.cli("run", "rawtext", "--key", "K1");
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(server.received().get(1).bodyText()).isEqualTo("title \"}, \"admin\": true on K1");
        }
    }
}
