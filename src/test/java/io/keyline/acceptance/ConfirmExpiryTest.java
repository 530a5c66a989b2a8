package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.Engine;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code "confirm": {"expireAfter": "P7D", "then": "skip|fail"}}: a wait for a confirmation ends as the step
 * says once it is that old, applied by runs and the scheduler, recorded as its own event; the waiting step is
 * never run by it (a key is never confirmed by itself).
 */
class ConfirmExpiryTest extends SiteTestBase {

    static final String KEY = "2026-11-29";

    /** An article per day (run by hand) whose publish waits for a confirmation that expires after a week. */
    static String job(String name, String then) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2026-11-29" },
              "steps": [
                { "id": "publish", "kind": "http", "effect": "unsafe",
                  "confirm": { "expireAfter": "P7D", "then": "%s" },
                  "request": { "method": "POST", "url": "BASE/api/articles", "body": "article {key}" } }
              ]
            }
            """.formatted(name, then);
    }

    String state(String job, String key) {
        for (JsonNode n : Json.read(wb.cli("status", job, "--json").out(), JsonNode.class)) {
            if (n.get("key").asText().equals(key)) {
                return n.get("state").asText();
            }
        }
        return "absent";
    }

    List<String> events(String job, String key) {
        Result t = wb.cli("timeline", job, key, "--json");
        assertThat(t.exit()).as(t.toString()).isZero();
        return Json.read(t.out(), JsonNode.class).findValues("type").stream().map(JsonNode::asText).toList();
    }

    @Test
    void aWaitForAConfirmationIsSkippedAfterAWeekByARunAndNeverConfirmedByItself() throws IOException {
        wb.job("daily", job("daily", "skip"), site.base());
        Result first = wb.cli("run", "daily", "--key", KEY);
        assertThat(first.exit()).as(first.toString()).isEqualTo(4);
        assertThat(state("daily", KEY)).isEqualTo("NEEDS_CONFIRMATION");

        // six days on: still waiting, and its age and expiry are shown
        wb.clock.advance(Duration.ofDays(6));
        Result due = wb.cli("run", "--due");
        assertThat(due.exit()).as(due.toString()).isZero();
        assertThat(state("daily", KEY)).isEqualTo("NEEDS_CONFIRMATION");
        Result status = wb.cli("status", "daily", "--attention");
        assertThat(status.out()).contains("6 d").contains("expires 2026-12-06");

        // eight days on: the wait has expired; the key is skipped, not confirmed
        wb.clock.advance(Duration.ofDays(2));
        Result late = wb.cli("run", "--due");
        assertThat(late.out()).contains("daily " + KEY + ": SKIPPED").contains("expired after P7D");
        assertThat(state("daily", KEY)).isEqualTo("SKIPPED");
        assertThat(events("daily", KEY)).contains("CONFIRMATION_EXPIRED").doesNotContain("CONFIRMED");
        assertThat(site.posts()).as("the waiting step never ran").isZero();
        assertThat(wb.cli("status", "--attention", "--exit-code").exit()).as("nothing waits any more").isZero();
    }

    @Test
    void thenFailMakesItFailedForAPersonAndTheSchedulerAppliesItToo() throws IOException {
        wb.job("daily", job("daily", "fail"), site.base());
        assertThat(wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        wb.clock.advance(Duration.ofDays(7).plusMinutes(1));

        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            Engine engine = ws.engine(RunTrace.NONE);
            Scheduler scheduler = ws.scheduler(engine, Duration.ofDays(7));
            scheduler.tick();
        }

        assertThat(state("daily", KEY)).as("the scheduler's tick expired it").isEqualTo("FAILED");
        assertThat(events("daily", KEY)).contains("CONFIRMATION_EXPIRED").doesNotContain("CONFIRMED");
        assertThat(site.posts()).isZero();
        Result status = wb.cli("status", "daily", "--json");
        JsonNode row = Json.read(status.out(), JsonNode.class).get(0);
        assertThat(row.path("message").asText()).contains("expired").contains("not confirmed");
    }

    @Test
    void aConfirmationBeforeTheExpiryRunsTheStepOnce() throws IOException {
        wb.job("daily", job("daily", "skip"), site.base());
        assertThat(wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        wb.clock.advance(Duration.ofDays(3));
        Result confirm = wb.cli("confirm", "daily", KEY, "--note", "checked the draft");
        assertThat(confirm.exit()).as(confirm.toString()).isZero();
        assertThat(state("daily", KEY)).isEqualTo("DONE");
        assertThat(site.posts()).isEqualTo(1);
        wb.clock.advance(Duration.ofDays(10));
        assertThat(wb.cli("run", "--due").exit()).isZero();
        assertThat(state("daily", KEY)).as("a done key is not touched by an expiry").isEqualTo("DONE");
    }

    @Test
    void aConfirmObjectWithoutThenOrWithAnUnknownOneIsRejectedWithItsPosition() throws IOException {
        wb.job("a", job("a", "skip").replace(", \"then\": \"skip\"", ""), site.base());
        wb.job("b", job("b", "maybe"), site.base());
        wb.job("c", job("c", "skip").replace("P7D", "a week"), site.base());
        Result jobs = wb.cli("jobs");
        assertThat(jobs.exit()).as(jobs.toString()).isEqualTo(1);
        assertThat(jobs.out()).containsPattern("a\\.json:6:\\d+: missing required field \"then\" in steps\\[0\\]\\.confirm")
                .containsPattern("b\\.json:6:\\d+: steps\\[0\\]\\.confirm\\.then \"maybe\" is not one of skip, fail")
                .containsPattern("c\\.json:6:\\d+: steps\\[0\\]\\.confirm\\.expireAfter \"a week\" is not an ISO-8601");
        assertThat(wb.cli("run", "a", "--key", KEY).exit()).isEqualTo(1);
    }
}
