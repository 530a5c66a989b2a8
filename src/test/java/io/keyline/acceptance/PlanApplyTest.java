package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code plan} executes nothing (no step, no probe), shows the exact requests, and has
 * an id bound to the job file and the state of its keys; {@code apply} executes exactly that plan
 * or refuses a stale one.
 */
class PlanApplyTest extends SiteTestBase {

    static final String KEY = "2026-11-29";
    static final String OTHER = "2026-11-28";

    Path jobFile;

    @BeforeEach
    void setUp() throws IOException {
        // write (command writing out/{key}.md), then publish (unsafe POST of that file, with a probe)
        jobFile = wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
    }

    Path article(String key) {
        return wb.jobs.resolve("out").resolve(key + ".md");
    }

    static String planId(Result plan) {
        Matcher m = Pattern.compile("Plan ([0-9a-f]{16}) ").matcher(plan.out());
        assertThat(m.find()).as(plan.toString()).isTrue();
        return m.group(1);
    }

    static String jsonPlanId(Result plan) {
        return Json.read(plan.out(), JsonNode.class).get("planId").asText();
    }

    @Test
    void planExecutesNothingAndShowsTheExactRequest() {
        Result plan = wb.cli("plan", "p", "--key", KEY);
        assertThat(plan.exit()).as(plan.toString()).isZero();
        Result json = wb.cli("plan", "p", "--key", KEY, "--json");
        assertThat(json.exit()).as(json.toString()).isZero();

        // probes are read-only, so the plan asks them; nothing else is sent
        assertThat(site.server().received()).as("only the probe's GETs").isNotEmpty()
                .allMatch(r -> r.method().equals("GET"));
        assertThat(site.posts()).isZero();
        assertThat(article(KEY)).as("the write step did not run").doesNotExist();
        assertThat(plan.out()).contains("probe of publish: absent");
        int before = site.server().received().size();
        Result blind = wb.cli("plan", "p", "--key", KEY, "--no-probes");
        assertThat(blind.exit()).as(blind.toString()).isZero();
        assertThat(site.server().received()).as("--no-probes sends nothing at all").hasSize(before);
        assertThat(blind.out()).contains("probe of publish: not asked");

        assertThat(plan.out())
                .contains("run write,publish")
                .contains("publish: POST " + site.base() + "/api/articles")
                .contains("Idempotency-Key: p:" + KEY + ":publish")
                .contains("out/" + KEY + ".md")
                .contains("an earlier step writes it");
        assertThat(plan.out()).contains("keyline apply " + planId(plan));

        JsonNode root = Json.read(json.out(), JsonNode.class);
        assertThat(root.get("planId").asText()).matches("[0-9a-f]{16}").isEqualTo(planId(plan));
        JsonNode keys = root.get("keys");
        assertThat(keys).hasSize(1);
        assertThat(keys.get(0).get("key").asText()).isEqualTo(KEY);
        assertThat(keys.get(0).get("action").asText()).isEqualTo("run write,publish");
        JsonNode req = keys.get(0).get("requests").get(0);
        assertThat(req.get("method").asText()).isEqualTo("POST");
        assertThat(req.get("url").asText()).isEqualTo(site.base() + "/api/articles");
        assertThat(req.get("headers").get("Idempotency-Key").asText()).isEqualTo("p:" + KEY + ":publish");
    }

    @Test
    void planOfADoneKeySaysSkipDone() {
        assertThat(wb.cli("run", "p", "--key", KEY).exit()).isZero();
        int before = site.server().received().size();
        Result plan = wb.cli("plan", "p", "--key", KEY);
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).containsPattern(Pattern.quote(KEY) + "\\s+DONE\\s+skip \\(done\\)");
        Result json = wb.cli("plan", "p", "--key", KEY, "--json");
        assertThat(Json.read(json.out(), JsonNode.class).get("keys").get(0).get("action").asText())
                .isEqualTo("skip (done)");
        assertThat(site.server().received()).hasSize(before);
    }

    @Test
    void applyExecutesExactlyThatPlan() {
        Result plan = wb.cli("plan", "p", "--key", KEY, "--key", OTHER);
        String id = planId(plan);
        assertThat(site.posts()).isZero();

        Result apply = wb.cli("apply", id);
        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(site.effects(OTHER)).isEqualTo(1);
        assertThat(site.allEffects()).as("only the planned keys").hasSize(2);
        assertThat(article(KEY)).exists();

        // applied again: the plan's keys are DONE now, so it is stale and nothing is sent
        int before = site.server().received().size();
        Result again = wb.cli("apply", id);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).contains("stale");
        assertThat(site.server().received().subList(before, site.server().received().size()))
                .as("the re-plan only asks probes").allMatch(r -> r.method().equals("GET"));
    }

    @Test
    void aPlanIsStaleWhenTheStateOfOneOfItsKeysChanged() {
        String id = planId(wb.cli("plan", "p", "--key", KEY, "--key", OTHER));
        Result run = wb.cli("run", "p", "--key", OTHER);
        assertThat(run.exit()).as(run.toString()).isZero();
        int before = site.server().received().size();
        Path kArticle = article(KEY);

        Result apply = wb.cli("apply", id);
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.out() + apply.err()).contains("stale");
        assertThat(site.server().received()).as("nothing but read-only probes")
                .filteredOn(r -> !r.method().equals("GET")).hasSize((int) site.server().received().stream()
                        .limit(before).filter(r -> !r.method().equals("GET")).count());
        assertThat(site.effects(KEY)).isZero();
        assertThat(kArticle).as("no step ran").doesNotExist();
    }

    @Test
    void aPlanIsStaleWhenTheStateOfAKeyChangedByAnOperator() {
        String id = planId(wb.cli("plan", "p", "--key", KEY));
        Result skip = wb.cli("skip", "p", KEY, "--note", "not today");
        assertThat(skip.exit()).as(skip.toString()).isZero();
        Result retry = wb.cli("retry", "p", KEY);
        assertThat(retry.exit()).as(retry.toString()).isZero();
        // the key is PENDING again, as when the plan was made, but it changed in between

        Result apply = wb.cli("apply", id);
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.err()).contains("stale");
        assertThat(site.posts()).as("nothing but read-only probes").isZero();
    }

    @Test
    void aPlanIsStaleWhenTheJobFileChanged() throws IOException {
        String id = planId(wb.cli("plan", "p", "--key", KEY));
        String text = Files.readString(jobFile);
        assertThat(text).contains("write and publish the daily article");
        Files.writeString(jobFile, text.replace("write and publish the daily article", "write and publish the article"));

        Result apply = wb.cli("apply", id);
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.err()).contains("stale");
        assertThat(site.posts()).isZero();
        assertThat(article(KEY)).doesNotExist();
    }

    @Test
    void theSamePlanIdForUnchangedState() {
        Result a = wb.cli("plan", "p", "--key", KEY, "--key", OTHER);
        wb.clock.advance(java.time.Duration.ofMinutes(5));
        Result b = wb.cli("plan", "p", "--key", KEY, "--key", OTHER);
        Result c = wb.cli("plan", "p", "--key", KEY, "--key", OTHER, "--json");
        assertThat(planId(a)).isEqualTo(planId(b)).isEqualTo(jsonPlanId(c));
        // a different target set is a different plan
        assertThat(planId(wb.cli("plan", "p", "--key", KEY))).isNotEqualTo(planId(a));
        // after a run, the same plan of the same keys is another one
        assertThat(wb.cli("run", "p", "--key", OTHER).exit()).isZero();
        assertThat(planId(wb.cli("plan", "p", "--key", KEY, "--key", OTHER))).isNotEqualTo(planId(a));
    }

    /**
     * In Chinese, the plan's text says its actions and probe answers in Chinese while {@code --json} keeps them in
     * English (machine output reads the same in every language), with the same plan id.
     */
    @Test
    void inChineseThePlanSpeaksChineseAndItsJsonStaysEnglish() {
        String later = "2026-11-30";
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            Result text = wb.cli("plan", "p", "--key", KEY, "--key", later);
            Result json = wb.cli("plan", "p", "--key", KEY, "--key", later, "--json");
            assertThat(text.out()).as(text.toString()).contains("运行 write,publish",
                    "还没到期（" + later + " 晚于 UTC 时区的当前任务项 " + KEY, "publish 的检查：不存在：结果还没有产生")
                    .doesNotContain("run write,publish", "not yet due", "absent: the effect");
            JsonNode keys = Json.read(json.out(), JsonNode.class).get("keys");
            assertThat(keys.get(0).get("action").asText()).isEqualTo("run write,publish");
            assertThat(keys.get(0).get("stop").asText()).isEqualTo("done");
            assertThat(keys.get(0).get("probes").get("publish").asText()).startsWith("absent - ");
            assertThat(keys.get(1).get("action").asText()).startsWith("not yet due (" + later + " is after");
            Matcher id = Pattern.compile("计划 ([0-9a-f]{16})").matcher(text.out());
            assertThat(id.find()).as(text.toString()).isTrue();
            assertThat(jsonPlanId(json)).isEqualTo(id.group(1));
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void applyOfAnUnknownPlanIdFailsClearly() {
        Result apply = wb.cli("apply", "0123456789abcdef");
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.err()).contains("0123456789abcdef").contains("no plan").doesNotContain("\tat ")
                .doesNotContain("this is a bug");
        assertThat(site.server().received()).isEmpty();
    }

    /** A probe the site answers "come back in 120 s" (a 503 with Retry-After): the plan says the wait it asked for. */
    @Test
    void aPlanWhoseProbeTheSiteAsksToWaitSaysTheWait() {
        site.retryAfterSeconds(120);
        site.failGets(TestSite.Fault.STATUS_503);

        Result json = wb.cli("plan", "p", "--key", KEY, "--json");

        assertThat(json.exit()).as(json.toString()).isZero();
        assertThat(Json.read(json.out(), JsonNode.class).get("keys").get(0).get("action").asText())
                .contains("inconclusive").contains("not before the 120 s the site asked for");
        assertThat(site.posts()).isZero();
    }

    /**
     * A key waiting for a retry of a step that goes back to an earlier one ({@code retryFrom}): the plan says that
     * step runs again first, as the run will.
     */
    @Test
    void aPlanOfAKeyWhoseRetryGoesBackSaysWhichStepsRunAgainFirst() throws IOException {
        site.server().handler(req -> req.method().equals("GET")
                ? io.keyline.testing.FaultServer.Reply.json("{\"token\": \"t1\"}")
                : io.keyline.testing.FaultServer.Reply.status(403, "[\"BAD CSRF\"]"));
        wb.job("tok", """
                {
                  "name": "tok",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 3, "initialDelay": "PT10M", "maxDelay": "PT10M", "maxElapsed": "PT1H", "jitter": 0.0 },
                  "steps": [
                    { "id": "token", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "BASE/api/token" } },
                    { "id": "save", "kind": "http", "effect": "idempotent", "retryFrom": "token",
                      "request": { "method": "POST", "url": "BASE/api/save", "body": "{steps.token.outputs.token}" },
                      "response": { "retryWhen": { "bodyContains": "BAD CSRF" }, "authWhen": { "status": [401] } } }
                  ]
                }
                """, site.base());
        Result run = wb.cli("run", "tok", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(5);

        Result json = wb.cli("plan", "tok", "--key", KEY, "--json");

        assertThat(json.exit()).as(json.toString()).isZero();
        assertThat(Json.read(json.out(), JsonNode.class).get("keys").get(0).get("action").asText())
                .contains("save, attempt 2").contains("token runs again first");
    }
}
