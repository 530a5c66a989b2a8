package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a person running Keyline headless (cron, systemd) must be able to rely on: a broken job file is not a
 * silent success, a script can ask whether anything waits, a waiting key shows its age, and what a run says
 * about a key is true.
 */
class UnattendedDayTest extends SiteTestBase {

    static final String KEY = "2026-11-29";

    /** A job due every hour from today whose one step appends the key to {@code NAME.txt}. */
    static String hourly(String name) {
        return """
                {
                  "name": "%s",
                  "schedule": "0 * * * *",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-11-29" },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "echo \\"$1\\" >> %s.txt", "sh", "{key}"] } ]
                }
                """.formatted(name, name);
    }

    List<JsonNode> runLog() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(wb.logs().resolve("runs.jsonl"))) {
            out.add(Json.read(l, JsonNode.class));
        }
        return out;
    }

    @Test
    void runDueWithAnInvalidJobFileRunsTheValidJobAndExits1NamingTheFile() throws IOException {
        wb.job("good", hourly("good"), null);
        wb.job("broken", """
                {
                  "name": "broken",
                  "schedule": "0 * * * *",
                  "key": { "type": "date", "zone": "UTC" },
                  "stepz": []
                }
                """, null);

        Result r = wb.cli("run", "--due");

        assertThat(r.exit()).as("a job that silently stopped running is a failure: " + r).isEqualTo(1);
        assertThat(Files.readString(wb.jobs.resolve("good.txt")).strip()).as("the valid job ran first")
                .isEqualTo(KEY);
        assertThat(r.err()).contains("broken.json:5:");
        assertThat(r.out()).contains("good: 1 DONE").contains("broken.json").contains("exit 1");
        assertThat(runLog()).anyMatch(n -> n.path("type").asText().equals("job-file")
                && n.path("file").asText().endsWith("broken.json"));

        // fixed: the next run is a success again
        Files.delete(wb.jobs.resolve("broken.json"));
        Result next = wb.cli("run", "--due");
        assertThat(next.exit()).as(next.toString()).isZero();
    }

    @Test
    void statusAttentionNamesAnInvalidJobFileWhoseJobNoLongerRunsAndItsExitCodeSaysSo() throws IOException {
        wb.job("good", hourly("good"), null);
        assertThat(wb.cli("run", "--due").exit()).isZero();
        // edited between two runs: cron mails "exit 1: see cron.log and keyline status --attention"
        wb.job("good", hourly("good").replace("\"schedule\": \"0 * * * *\",", "\"schedule\": \"0 * * * *\",,"), null);
        assertThat(wb.cli("run", "--due").exit()).isEqualTo(1);

        Result r = wb.cli("status", "--attention");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).as("what the mail sends a person to").doesNotContain("Nothing waits for you")
                .contains("! invalid job file, its job does not run: ").contains("good.json");
        Result monitor = wb.cli("status", "--attention", "--exit-code");
        assertThat(monitor.exit()).as("a job that stopped running waits for a person: " + monitor).isEqualTo(4);
        Result json = wb.cli("status", "--attention", "--exit-code", "--json");
        assertThat(json.exit()).isEqualTo(4);
        assertThat(Json.read(json.out(), JsonNode.class).size()).as("stdout stays the keys' JSON array").isZero();
        assertThat(json.err()).contains("good.json");

        wb.job("good", hourly("good"), null);
        assertThat(wb.cli("status", "--attention", "--exit-code").exit()).as("fixed").isZero();
    }

    @Test
    void statusAttentionExitCodeSays4WhileAKeyWaitsAndShowsHowLong() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", true, "\"confirm\": \"always\","), site.base());
        Result quiet = wb.cli("status", "--attention", "--exit-code");
        assertThat(quiet.exit()).as("nothing waits: " + quiet).isZero();

        Result run = wb.cli("run", "p", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        wb.clock.advance(Duration.ofHours(27).plusMinutes(5));

        Result loud = wb.cli("status", "--attention", "--exit-code");
        assertThat(loud.exit()).as("a key waits for a person: " + loud).isEqualTo(4);
        assertThat(loud.out()).contains("WAITING").contains("1 d 3 h");
        Result json = wb.cli("status", "--attention", "--exit-code", "--json");
        assertThat(json.exit()).isEqualTo(4);
        JsonNode row = Json.read(json.out(), JsonNode.class).get(0);
        assertThat(row.path("waitingSince").asText()).isEqualTo("2026-11-29T09:00:00Z");
        assertThat(row.path("waitingSeconds").asLong()).isEqualTo(Duration.ofHours(27).plusMinutes(5).toSeconds());
        assertThat(wb.cli("status", "--attention").exit()).as("without --exit-code: 0 as before").isZero();

        assertThat(wb.cli("mark-done", "p", KEY, "--note", "published by hand").exit()).isZero();
        assertThat(wb.cli("status", "--attention", "--exit-code").exit()).isZero();
    }

    @Test
    void aKeyKilledDuringASafeStepIsSaidToResumeThere() throws IOException {
        Instant now = wb.clock.instant();
        // what a run killed while its safe step "publish" (idempotent: nothing is recorded when it starts) ran leaves:
        // write done (its file is there), the key RUNNING at write, its holder gone
        wb.job("p", Jobs.publish("p", "idempotent", false, null), site.base());
        Files.createDirectories(wb.jobs.resolve("out"));
        Files.writeString(wb.jobs.resolve("out").resolve(KEY + ".md"), "written by the killed run");
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            KeyRecord fresh = ws.store().ensure(KeyRecord.fresh("p", KEY, now));
            KeyRecord running = fresh.withState(KeyState.RUNNING).withStep("write", 1)
                    .withLease("20261129T085900-abcdef", "elsewhere/4242/deadbeef", now.minus(Duration.ofMinutes(1)))
                    .withUpdatedAt(now);
            ws.store().apply(fresh, running, new StepRecord("write", StepStatus.SUCCEEDED, 1, now, Map.of(), now),
                    new KeyEvent(0, "p", KEY, now, "20261129T085900-abcdef", EventType.STEP_SUCCEEDED, "write", 1,
                            KeyState.RUNNING, null, "write: ok", null, null, null));
        }

        Result r = wb.cli("status", "--attention");
        assertThat(r.out()).as(r.toString()).contains("RUNNING (interrupted)").contains("at step publish")
                .doesNotContain("at step write");

        Result run = wb.cli("run", "p", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(site.effects(KEY)).as("it resumed at publish, as said").isEqualTo(1);
        assertThat(Files.readString(wb.jobs.resolve("out").resolve(KEY + ".md"))).as("write was not redone")
                .isEqualTo("written by the killed run");
    }

    @Test
    void aProgramThatSaysItsLoginWasRejectedWithoutACredentialIsNotToldToRenewNull() throws IOException {
        wb.job("c", Jobs.command("c", "none", "echo 'login rejected' >&2; exit 77", "PT10S"), null);
        Result r = wb.cli("run", "c", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(r.out()).doesNotContain("null").contains("names no credential")
                .contains("keyline retry c " + KEY);
    }
}
