package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a plan shows is what apply does, future keys wait, a large
 * answer or an absurd Retry-After cannot leave a key RUNNING (item 5), and the operator's rearm.
 * Each test failed on the code before the decision rule.
 */
class SafetyPromiseTest {

    static final String KEY = "2026-11-29";

    @TempDir
    Path tmp;
    Workbench wb;
    TestSite site;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        site = new TestSite();
    }

    @AfterEach
    void tearDown() throws IOException {
        site.close();
    }

    private long postsOf(String step) {
        return site.server().received().stream()
                .filter(r -> r.method().equals("POST") && String.valueOf(r.header("Idempotency-Key")).endsWith(":" + step))
                .count();
    }

    private JsonNode status(String job, String key) {
        for (JsonNode k : Json.read(wb.cli("status", job, "--json").out(), JsonNode.class)) {
            if (k.get("key").asText().equals(key)) {
                return k;
            }
        }
        return null;
    }

    private static String planId(Result plan) {
        return Json.read(plan.out(), JsonNode.class).get("planId").asText();
    }

    /** An unsafe announcement, then a step whose credential is not set. */
    static final String ANNOUNCE_THEN_BLOCKED = """
        {
          "name": "two",
          "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
          "steps": [
            { "id": "announce", "kind": "http", "effect": "unsafe",
              "request": { "method": "POST", "url": "BASE/api/articles", "body": "announce {key}" } },
            { "id": "second", "kind": "http", "effect": "idempotent", "credential": "ghost",
              "request": { "method": "POST", "url": "BASE/api/articles", "body": "second {key}" } }
          ]
        }
        """;

    @Test
    void thePlanOfAKeyBlockedAtItsSecondStepSaysWhatApplyDoes() throws IOException {
        wb.job("two", ANNOUNCE_THEN_BLOCKED, site.base());
        Result plan = wb.cli("plan", "two", "--key", KEY, "--json");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        JsonNode kp = Json.read(plan.out(), JsonNode.class).get("keys").get(0);
        // before the decision rule: "blocked: credential ghost" with no steps - and apply sent the POST
        assertThat(kp.get("steps").toString()).isEqualTo("[\"announce\"]");
        assertThat(kp.get("action").asText()).isEqualTo("run announce; then wait for credential ghost at second");

        Result apply = wb.cli("apply", planId(plan));
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(4);
        assertThat(postsOf("announce")).isEqualTo(1);
        assertThat(postsOf("second")).isZero();
        JsonNode st = status("two", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("step").asText()).isEqualTo("second");
    }

    static String bodyFileJob() {
        return """
            {
              "name": "file",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "steps": [
                { "id": "publish", "kind": "http", "effect": "unsafe",
                  "request": { "method": "POST", "url": "BASE/api/articles", "bodyFile": "articles/{key}.md" },
                  "probe": { "kind": "http", "url": "BASE/api/articles?date={key}",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } } }
              ]
            }
            """;
    }

    @Test
    void aBodyReplacedAfterReviewIsNotSent() throws IOException {
        wb.job("file", bodyFileJob(), site.base());
        Path body = wb.jobs.resolve("articles").resolve(KEY + ".md");
        Files.createDirectories(body.getParent());
        Files.writeString(body, "the reviewed article");
        Result plan = wb.cli("plan", "file", "--key", KEY, "--json");
        JsonNode req = Json.read(plan.out(), JsonNode.class).get("keys").get(0).get("requests").get(0);
        assertThat(req.get("bodySha256").asText()).hasSize(64);
        Files.writeString(body, "something else entirely");

        Result apply = wb.cli("apply", planId(plan));
        // the body is part of the plan id: apply refuses the whole plan as stale, nothing is posted
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.err()).contains("stale");
        assertThat(site.posts()).isZero();
    }

    @Test
    void aProbeThatReversesMidApplyStopsTheKeyWithEvidence() throws IOException {
        // the site's article appears between the plan (and apply's check of it) and the engine's own probe,
        // as if someone published it by hand while write ran
        java.util.concurrent.atomic.AtomicInteger gets = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger posts = new java.util.concurrent.atomic.AtomicInteger();
        site.server().close();
        try (io.keyline.testing.FaultServer changing = new io.keyline.testing.FaultServer(r -> {
            if (r.method().equals("POST")) {
                posts.incrementAndGet();
                return io.keyline.testing.FaultServer.Reply.json("{\"id\": 1}");
            }
            return io.keyline.testing.FaultServer.Reply.json("{\"total\": " + (gets.incrementAndGet() <= 2 ? 0 : 1) + "}");
        })) {
            wb.job("p", Jobs.publish("p", "unsafe", true, null), changing.base());
            Result plan = wb.cli("plan", "p", "--key", KEY, "--json");
            JsonNode kp = Json.read(plan.out(), JsonNode.class).get("keys").get(0);
            assertThat(kp.get("probes").get("publish").asText()).startsWith("absent");
            assertThat(kp.get("steps").toString()).isEqualTo("[\"write\",\"publish\"]");

            Result apply = wb.cli("apply", planId(plan));
            assertThat(apply.exit()).as(apply.toString()).isEqualTo(4);
            assertThat(apply.out()).contains("departed from the plan");
            assertThat(posts.get()).as("nothing the plan did not show").isZero();
            JsonNode st = status("p", KEY);
            assertThat(st.get("state").asText()).isEqualTo("PENDING");
            Result tl = wb.cli("timeline", "p", KEY, "--json");
            assertThat(tl.out()).contains("DEPARTED").contains("its probe answered present; the plan showed it absent");
            // a new plan shows the reality, and applying it reconciles without posting
            Result again = wb.cli("plan", "p", "--key", KEY, "--json");
            assertThat(Json.read(again.out(), JsonNode.class).get("keys").get(0).get("action").asText())
                    .contains("publish already present (probe): reconciled, not sent");
            Result apply2 = wb.cli("apply", planId(again));
            assertThat(apply2.exit()).as(apply2.toString()).isZero();
            assertThat(posts.get()).isZero();
        }
    }

    @Test
    void keysAfterTheCurrentOneAreNotYetDueUnlessAhead() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        String tomorrow = "2026-11-30";
        String later = "2026-12-01";
        Result run = wb.cli("run", "p", "--key", later);
        assertThat(run.exit()).as(run.toString()).isEqualTo(1);
        assertThat(run.err()).contains(later).contains("not yet due").contains("--ahead").contains(KEY);
        assertThat(site.posts()).isZero();

        Result range = wb.cli("run", "--yes", "p", "--from", KEY, "--to", later);
        assertThat(range.exit()).as(range.toString()).isEqualTo(1);
        assertThat(site.posts()).as("nothing of the range ran").isZero();

        Result plan = wb.cli("plan", "p", "--from", KEY, "--to", later, "--json");
        JsonNode keys = Json.read(plan.out(), JsonNode.class).get("keys");
        assertThat(keys.get(0).get("action").asText()).isEqualTo("run write,publish");
        assertThat(keys.get(1).get("action").asText()).startsWith("not yet due").contains("--ahead");
        assertThat(keys.get(1).get("steps")).isEmpty();
        // applying that plan runs today's key only
        Result apply = wb.cli("apply", planId(plan));
        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(site.effects(tomorrow)).isZero();
        assertThat(site.effects(later)).isZero();

        Result ahead = wb.cli("run", "p", "--key", tomorrow, "--ahead");
        assertThat(ahead.exit()).as(ahead.toString()).isZero();
        assertThat(site.effects(tomorrow)).isEqualTo(1);
    }

    @Test
    void aHugeAnswerIsRecordedAndTheKeyIsDone() throws IOException {
        String big = "x".repeat(150_000);
        site.server().close();
        try (io.keyline.testing.FaultServer huge = new io.keyline.testing.FaultServer(r -> r.method().equals("POST")
                ? io.keyline.testing.FaultServer.Reply.json("{\"id\": 7, \"text\": \"" + big + "\"}")
                : io.keyline.testing.FaultServer.Reply.json("{\"total\": 0}"))) {
            wb.job("big", """
                {
                  "name": "big",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "steps": [
                    { "id": "publish", "kind": "http", "effect": "unsafe",
                      "request": { "method": "POST", "url": "BASE/api/articles", "body": "hello" } },
                    { "id": "use", "kind": "command", "effect": "none", "command": ["sh", "-c", "test -n \\"$KEYLINE_OUTPUT_PUBLISH_ID\\""] }
                  ]
                }
                """, huge.base());
            Result run = wb.cli("run", "big", "--key", KEY);
            // before: a SQL error, exit 1 and the key left RUNNING; every later confirm posted again
            assertThat(run.exit()).as(run.toString()).isZero();
            assertThat(status("big", KEY).get("state").asText()).isEqualTo("DONE");
            assertThat(huge.count("POST", "/api/articles")).isEqualTo(1);
        }
    }

    @Test
    void anAbsurdRetryAfterNeitherThrowsNorLeavesTheKeyRunning() throws IOException {
        site.server().close();
        try (io.keyline.testing.FaultServer slow = new io.keyline.testing.FaultServer(r ->
                new io.keyline.testing.FaultServer.Reply.Respond(429,
                        java.util.Map.of("Retry-After", "9223372036854775807", "Content-Type", "application/json"),
                        "{\"error\": \"slow down\"}"))) {
            wb.job("p", Jobs.publish("p", "idempotent", false, null), slow.base());
            Result run = wb.cli("run", "p", "--key", KEY);
            assertThat(run.err()).doesNotContain("Exception").doesNotContain("this is a bug");
            assertThat(run.exit()).as(run.toString()).isIn(2, 5);
            assertThat(status("p", KEY).get("state").asText()).isIn("RETRY_WAIT", "FAILED");
        }
    }

    @Test
    void rearmRunsADoneKeyAgainAndAnUnsafeStepGoesThroughItsProbe() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        assertThat(wb.cli("run", "p", "--key", KEY).exit()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);

        Result noNote = wb.cli("rearm", "p", KEY);
        assertThat(noNote.exit()).isEqualTo(64);
        Result rearm = wb.cli("rearm", "p", KEY, "--note", "the site lost it? check", "--from-step", "publish");
        assertThat(rearm.exit()).as(rearm.toString()).isZero();
        assertThat(status("p", KEY).get("state").asText()).isEqualTo("PENDING");
        Result plan = wb.cli("plan", "p", "--key", KEY, "--json");
        assertThat(Json.read(plan.out(), JsonNode.class).get("keys").get(0).get("action").asText())
                .contains("publish already present (probe): reconciled, not sent");
        Result again = wb.cli("run", "p", "--key", KEY);
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.effects(KEY)).as("the probe found the article: not posted twice").isEqualTo(1);
        Result tl = wb.cli("timeline", "p", KEY);
        assertThat(tl.out()).contains("REARMED").contains("tester").contains("the site lost it? check")
                .contains("STEP_RECONCILED");

        Result unknownStep = wb.cli("rearm", "p", KEY, "--note", "x", "--from-step", "nope");
        assertThat(unknownStep.exit()).isEqualTo(1);
        assertThat(unknownStep.err()).contains("no step \"nope\"").contains("write, publish");
    }
}
