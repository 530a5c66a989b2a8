package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys that keep waiting are reminded of once a day: one {@code reminder} event with every key that has waited a
 * day or more, its age and the one action that resolves it; not at every run or scheduler tick (each
 * {@code run --due} here is one tick of a timer), and not again for keys that were all in the last one.
 */
class ReminderTest extends SiteTestBase {

    static final String FIRST = "2026-11-29";
    static final String SECOND = "2026-11-28";
    Instant start;

    @BeforeEach
    void aHookForReminders() throws IOException {
        Files.writeString(wb.jobs.resolve("notify.json"), """
                { "hooks": [ { "name": "log", "on": ["reminder"], "command": ["sh", "-c", "cat >> reminders.jsonl"] } ] }
                """);
        wb.job("p", Jobs.publish("p", "unsafe", true, "\"confirm\": \"always\","), site.base());
        start = wb.clock.instant();
    }

    List<JsonNode> reminders() throws IOException {
        Path f = wb.jobs.resolve("reminders.jsonl");
        List<JsonNode> out = new ArrayList<>();
        if (Files.exists(f)) {
            for (String l : Files.readAllLines(f)) {
                out.add(Json.read(l, JsonNode.class));
            }
        }
        return out;
    }

    /** One tick of the timer at {@code start + after}: a run of what is due, which ends by notifying. */
    int tickAt(Duration after) throws IOException {
        wb.clock.set(start.plus(after));
        Result r = wb.cli("run", "--due");
        assertThat(r.exit()).as(r.toString()).isIn(0, 4);
        return reminders().size();
    }

    @Test
    void aWaitingKeyIsRemindedOfOnceADayNotAtEveryTick() throws IOException {
        assertThat(wb.cli("run", "p", "--key", FIRST).exit()).isEqualTo(4);
        assertThat(tickAt(Duration.ofHours(1))).as("it has not waited a day yet").isZero();

        assertThat(tickAt(Duration.ofHours(25))).isEqualTo(1);
        JsonNode r = reminders().get(0);
        assertThat(r.path("event").asText()).isEqualTo("reminder");
        JsonNode w = r.path("waiting").get(0);
        assertThat(w.path("job").asText()).isEqualTo("p");
        assertThat(w.path("key").asText()).isEqualTo(FIRST);
        assertThat(w.path("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(w.path("waited").asText()).isEqualTo("1 d 1 h");
        assertThat(w.path("action").asText()).isEqualTo("keyline confirm p " + FIRST);
        assertThat(r.path("message").asText()).contains("keyline confirm p " + FIRST);

        // every 5 minutes for a while: no second reminder the same day
        for (int m = 5; m <= 120; m += 5) {
            assertThat(tickAt(Duration.ofHours(25).plusMinutes(m))).isEqualTo(1);
        }
        // another key starts waiting: not a day old yet, so nothing new
        wb.clock.set(start.plus(Duration.ofHours(27)));
        assertThat(wb.cli("run", "p", "--key", SECOND).exit()).isEqualTo(4);
        assertThat(tickAt(Duration.ofHours(40))).isEqualTo(1);

        // a day after the first reminder: the next one, still the first key only
        assertThat(tickAt(Duration.ofHours(49))).isEqualTo(2);
        assertThat(reminders().get(1).path("waiting")).hasSize(1);
        // the second key has waited a day: a new set of keys, a new reminder naming both, oldest first
        assertThat(tickAt(Duration.ofHours(51))).isEqualTo(3);
        JsonNode both = reminders().get(2).path("waiting");
        assertThat(both).hasSize(2);
        assertThat(both.get(0).path("key").asText()).isEqualTo(FIRST);
        assertThat(both.get(1).path("key").asText()).isEqualTo(SECOND);

        // the first is resolved: the rest was in the last reminder, so no new one until a day has passed
        assertThat(wb.cli("mark-done", "p", FIRST, "--note", "published by hand").exit()).isZero();
        assertThat(tickAt(Duration.ofHours(52))).isEqualTo(3);
        assertThat(tickAt(Duration.ofHours(76))).isEqualTo(4);
        assertThat(reminders().get(3).path("waiting")).hasSize(1);
        assertThat(reminders().get(3).path("waiting").get(0).path("key").asText()).isEqualTo(SECOND);
    }

    /**
     * Keys held for their job's review are resolved by reviewing the job, not by confirming a key (which refuses):
     * the reminder names the review, once for the job's keys.
     */
    @Test
    void keysThatWaitForTheirJobsReviewAreRemindedOfTheReview() throws IOException {
        Files.writeString(wb.jobs.resolve("notify.json"), """
                { "hooks": [ { "name": "log", "on": ["reminder"], "command": ["sh", "-c", "cat >> reminders.jsonl"] },
                             { "name": "now", "on": ["attention"], "command": ["sh", "-c", "cat >> attention.jsonl"] } ] }
                """);
        wb.job("posted", """
            { "name": "posted", "key": { "type": "date", "zone": "UTC", "start": "2026-11-28" },
              "schedule": "0 8 * * *",
              "steps": [ { "id": "post", "kind": "command", "effect": "unsafe", "command": ["true"] } ] }
            """, null);
        assertThat(tickAt(Duration.ofHours(1))).isZero();
        assertThat(wb.cli("status", "posted").out()).contains("review");
        // announced when they started to wait, with why: a hook can tell a review from an unknown outcome
        List<String> announced = Files.readAllLines(wb.jobs.resolve("attention.jsonl"));
        assertThat(announced).isNotEmpty().allSatisfy(l -> {
            JsonNode a = Json.read(l, JsonNode.class);
            assertThat(a.path("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
            assertThat(a.path("waitReason").asText()).isEqualTo("REVIEW");
        });

        assertThat(tickAt(Duration.ofHours(26))).isEqualTo(1);
        JsonNode r = reminders().get(0);
        List<String> actions = new ArrayList<>();
        r.path("waiting").forEach(w -> {
            assertThat(w.path("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
            assertThat(w.path("waitReason").asText()).isEqualTo("REVIEW");
            actions.add(w.path("action").asText());
        });
        assertThat(actions).isNotEmpty().allMatch(a -> a.equals("keyline plan posted, then keyline apply PLAN_ID "
                + "(or keyline approve posted)"));
        assertThat(r.path("message").asText()).contains("keyline plan posted").doesNotContain("keyline confirm");

        // what the reminder says works: the plan, then its apply, runs the keys
        Result plan = wb.cli("plan", "posted");
        String id = plan.out().replaceAll("(?s).*keyline apply ([0-9a-f]{16}).*", "$1");
        assertThat(id).as(plan.out()).matches("[0-9a-f]{16}");
        assertThat(wb.cli("apply", id).exit()).isZero();
    }
}
