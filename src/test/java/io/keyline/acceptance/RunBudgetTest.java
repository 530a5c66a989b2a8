package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run has a budget ({@code run --max-time}, a job's {@code runBudget}): after it no key starts, a key in
 * flight stops after the step it is in, and the run ends as waiting with "stopped: budget". Each POST to the
 * test site takes 20 minutes of the test's clock, so the budget is spent by the work, not by waiting.
 */
class RunBudgetTest extends SiteTestBase {

    static final Duration POST_TAKES = Duration.ofMinutes(20);

    @BeforeEach
    void postsTakeTime() {
        site.onPost(r -> wb.clock.advance(POST_TAKES));
    }

    /** publish (POST, probed) then archive (a local command); {@code extra} goes into the job object. */
    static String job(String name, String extra) {
        return """
            {
              "name": "%s",
              %s
              "schedule": "0 9 * * *",
              "key": { "type": "date", "zone": "UTC", "start": "2026-11-26" },
              "steps": [
                { "id": "publish", "kind": "http", "effect": "unsafe",
                  "request": { "method": "POST", "url": "BASE/api/articles", "body": "article {key}" },
                  "probe": { "kind": "http", "url": "BASE/api/articles?date={key}",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } } },
                { "id": "archive", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "echo \\"$1\\" >> archived.txt", "sh", "{key}"] }
              ]
            }
            """.formatted(name, extra);
    }

    List<String> archived() throws IOException {
        var f = wb.jobs.resolve("archived.txt");
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    JsonNode lastRunLine() throws IOException {
        JsonNode last = null;
        for (String l : Files.readAllLines(wb.logs().resolve("runs.jsonl"))) {
            JsonNode n = Json.read(l, JsonNode.class);
            if (n.path("type").asText().equals("run")) {
                last = n;
            }
        }
        return last;
    }

    String state(String job, String key) {
        for (JsonNode n : Json.read(wb.cli("status", job, "--json").out(), JsonNode.class)) {
            if (n.get("key").asText().equals(key)) {
                return n.get("state").asText();
            }
        }
        return "absent";
    }

    @Test
    void aKeyWhoseLastStepEndsPastTheBudgetIsDoneNotLeftPending() throws IOException {
        // publish is the last step: the POST that spends the budget finishes the key's work
        wb.job("p", """
            {
              "name": "p",
              "key": { "type": "date", "zone": "UTC", "start": "2026-11-26" },
              "steps": [
                { "id": "publish", "kind": "http", "effect": "unsafe",
                  "request": { "method": "POST", "url": "BASE/api/articles", "body": "article {key}" },
                  "probe": { "kind": "http", "url": "BASE/api/articles?date={key}",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } } }
              ]
            }
            """, site.base());

        Result r = wb.cli("run", "p", "--key", "2026-11-29", "--max-time", "PT10M");

        assertThat(site.posts()).as(r.toString()).isEqualTo(1);
        assertThat(state("p", "2026-11-29")).as("every step is done: " + r).isEqualTo("DONE");
        assertThat(r.exit()).as("nothing is left for anyone: " + r).isZero();
        assertThat(r.out()).contains("p: 1 DONE");
    }

    @Test
    void aKeyStoppedMidWayByTheBudgetSaysToRunAgainNotToResumeAJobNobodyPaused() throws IOException {
        wb.job("p", job("p", ""), site.base());

        Result r = wb.cli("run", "p", "--key", "2026-11-29", "--max-time", "PT10M");

        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(state("p", "2026-11-29")).isEqualTo("PENDING");
        assertThat(r.out()).contains("stopped: budget (--max-time PT10M)").contains("run the same command again")
                .doesNotContain("keyline resume");
        assertThat(wb.cli("run", "p", "--key", "2026-11-29").exit()).as("the advice followed").isZero();
        assertThat(archived()).containsExactly("2026-11-29");
    }

    @Test
    void maxTimeStopsStartingKeysAndTheKeyInFlightEndsItsStep() throws IOException {
        wb.job("p", job("p", ""), site.base());

        Result r = wb.cli("run", "p", "--from", "2026-11-26", "--to", "2026-11-29", "--max-time", "PT30M",
                "--yes");

        // 26: published (20 min) and archived; 27 starts at 20 min, its POST ends at 40: past the budget, so it
        // stops after publish; 28 and 29 never start
        assertThat(r.exit()).as("stopped by its budget: the rest waits: " + r).isEqualTo(4);
        assertThat(site.posts()).isEqualTo(2);
        assertThat(archived()).containsExactly("2026-11-26");
        assertThat(state("p", "2026-11-26")).isEqualTo("DONE");
        assertThat(state("p", "2026-11-27")).as("in flight: its step ended, the next did not start")
                .isEqualTo("PENDING");
        assertThat(state("p", "2026-11-28")).isEqualTo("absent");
        assertThat(r.out()).contains("stopped: budget (--max-time PT30M) spent: 2 keys not started");
        JsonNode line = lastRunLine();
        assertThat(line.path("stopped").asText()).startsWith("budget");
        assertThat(line.path("exit").asInt()).isEqualTo(4);

        // the next run goes on where this one stopped, without sending anything twice
        Result next = wb.cli("run", "p", "--from", "2026-11-26", "--to", "2026-11-29", "--yes");
        assertThat(next.exit()).as(next.toString()).isZero();
        assertThat(site.posts()).isEqualTo(4);
        assertThat(site.allEffects().values()).allMatch(n -> n == 1);
        assertThat(archived()).containsExactly("2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29");
    }

    @Test
    void aJobsRunBudgetStopsItsRunUnderRunDueAndNotTheOtherJobs() throws IOException {
        wb.job("a", job("a", "\"runBudget\": \"PT10M\","), site.base());
        wb.job("b", """
                {
                  "name": "b",
                  "schedule": "0 9 * * *",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-11-27" },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "echo \\"$1\\" >> b.txt", "sh", "{key}"] } ]
                }
                """, null);
        assertThat(wb.cli("approve", "a").exit()).isZero(); // reviewed: its unattended runs may send

        Result r = wb.cli("run", "--due");

        // a's three due keys (26 to 28 caught up, 29 today: four): the first POST spends its 10 minutes
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(site.posts()).isEqualTo(1);
        assertThat(r.out()).contains("stopped: budget (runBudget PT10M of a) spent");
        assertThat(Files.readAllLines(wb.jobs.resolve("b.txt"))).as("b has no budget: all its due keys ran")
                .containsExactly("2026-11-27", "2026-11-28", "2026-11-29");
        List<String> stopped = new ArrayList<>();
        for (String l : Files.readAllLines(wb.logs().resolve("runs.jsonl"))) {
            JsonNode n = Json.read(l, JsonNode.class);
            if (n.path("type").asText().equals("run") && !n.path("stopped").isNull()) {
                stopped.add(n.path("job").asText() + ": " + n.path("stopped").asText());
            }
        }
        assertThat(stopped).singleElement().asString().startsWith("a: budget");
    }

    @Test
    void aRetryDueAfterTheBudgetIsNotWaitedFor() throws IOException {
        wb.job("c", """
                {
                  "name": "c",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-11-26" },
                  "retry": { "maxAttempts": 3, "initialDelay": "PT40S", "multiplier": 1.0, "jitter": 0.0 },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "echo \\"$1\\" >> tried.txt; exit 75", "sh", "{key}"] } ]
                }
                """, null);
        Result r = wb.cli("run", "c", "--key", "2026-11-29", "--max-time", "PT30S");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(wb.sleeps).as("the retry 40 s away is after the budget: not waited for").isEmpty();
        assertThat(Files.readAllLines(wb.jobs.resolve("tried.txt"))).hasSize(1);
        assertThat(state("c", "2026-11-29")).isEqualTo("RETRY_WAIT");
        assertThat(r.out()).contains("stopped: budget");
    }

    @Test
    void aBadMaxTimeOrRunBudgetIsRefusedClearly() throws IOException {
        wb.job("p", job("p", ""), site.base());
        Result bad = wb.cli("run", "p", "--max-time", "50 minutes");
        assertThat(bad.exit()).isEqualTo(64);
        assertThat(bad.err()).contains("--max-time").contains("50 minutes");
        wb.job("q", job("q", "\"runBudget\": \"soon\","), site.base());
        Result jobs = wb.cli("jobs");
        assertThat(jobs.out()).containsPattern("q\\.json:3:\\d+: runBudget \"soon\" is not an ISO-8601 duration");
    }
}
