package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.workspace.Workspace;
import io.keyline.core.json.Json;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded scheduler (in this JVM) and {@code keyline run --due} (a child JVM, as cron or the
 * systemd timer runs it) race on the same 40 due keys of one state folder: every key is executed
 * exactly once, each effect applied once, and both processes executed keys. Nothing but the
 * engine's leases keeps them apart.
 */
class SchedulerCliRaceTest {

    static final int KEYS = 40;
    static final String WINDOW = "P" + KEYS + "D";

    @TempDir
    Path tmp;
    Workbench wb;
    TestSite site;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        wb.clock.followSystemClock(); // the child process tells the real time too
        site = new TestSite();
        site.postDelayMillis(20);
        String job = Jobs.publish("race", "unsafe", true, null)
                .replace("\"timeout\": \"PT1S\"", "\"timeout\": \"PT60S\"")
                .replace("\"start\": \"2026-01-01\" },", "\"start\": \"2000-01-01\" },\n  \"schedule\": \"0 * * * *\",");
        assertThat(job).contains("\"schedule\"").contains("PT60S");
        wb.job("race", job, site.base());
    }

    @AfterEach
    void tearDown() throws IOException {
        site.close();
    }

    @Test
    void schedulerAndCliRunOverTheSameDueKeysExecuteEachKeyOnce() throws Exception {
        assertThat(wb.cli("status").exit()).isZero();
        // the job's unsafe step is reviewed, as an operator does before its first unattended run
        assertThat(wb.cli("approve", "race").exit()).isZero();
        // Hourly cron, date keys, a 40-day window: the due keys are the 40 days ending today (plus
        // yesterday's if the window starts after its first tick).
        List<String> expected = expectedKeys();
        AtomicBoolean overlapped = site.holdFirstPostUntilGets(2);
        Path cliLog = tmp.resolve("cli.log");
        List<Scheduler.Started> byScheduler = new ArrayList<>();
        int cliExit;
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
             RunTrace trace = RunTrace.open(wb.state, null)) {
            Scheduler scheduler = ws.scheduler(ws.engine(trace), Duration.ofDays(KEYS));
            Process cli = ChildProcess.start(wb.state, wb.jobs, cliLog, "run", "--due", "--catch-up", WINDOW);
            byScheduler.addAll(scheduler.tick());
            assertThat(cli.waitFor(120, TimeUnit.SECONDS)).as("the CLI run finished").isTrue();
            cliExit = cli.exitValue();
            // A key the other process still held when one finished is picked up by the next tick.
            byScheduler.addAll(scheduler.tick());
            scheduler.close();
        }
        String logs = "--- CLI (exit " + cliExit + ")\n" + Files.readString(cliLog) + "--- scheduler\n" + byScheduler;
        assertThat(cliExit).as(logs).isIn(0, 5);
        assertThat(overlapped).as("the scheduler and the CLI overlapped\n" + logs).isTrue();

        Map<String, String> states = new TreeMap<>();
        for (JsonNode n : Json.read(wb.cli("status", "race", "--json").out(), JsonNode.class)) {
            states.put(n.get("key").asText(), n.get("state").asText());
        }
        assertThat(states.keySet()).as(logs).containsAll(expected);
        assertThat(states).as(logs).allSatisfy((k, s) -> assertThat(s).as(k).isEqualTo("DONE"));
        assertThat(site.allEffects()).as(logs).allSatisfy((k, n) -> assertThat(n).as("effects of " + k).isEqualTo(1));
        assertThat(site.posts()).as("no POST was sent twice").isEqualTo(states.size());

        Map<String, Integer> executions = new TreeMap<>();
        for (String line : Files.readAllLines(wb.state.resolve("logs").resolve("runs.jsonl"))) {
            JsonNode l = Json.read(line, JsonNode.class);
            if ("step".equals(l.path("type").asText()) && l.get("result").asText().equals("ok")) {
                executions.merge(l.get("key").asText() + " " + l.get("step").asText(), 1, Integer::sum);
            }
        }
        assertThat(executions).as(logs).hasSize(2 * states.size())
                .allSatisfy((ks, n) -> assertThat(n).as(ks + " executed").isEqualTo(1));
        assertThat(byScheduler).as("the scheduler executed keys\n" + logs).isNotEmpty();
        assertThat(Files.readString(cliLog)).as("the CLI executed keys\n" + logs).contains("publish");
        for (String key : states.keySet()) {
            long claims = 0;
            for (JsonNode e : Json.read(wb.cli("timeline", "race", key, "--json").out(), JsonNode.class)) {
                String type = e.get("type").asText();
                if (type.equals("CLAIMED") || type.equals("RECOVERED")) {
                    claims++;
                }
            }
            assertThat(claims).as("claims of " + key).isEqualTo(1);
        }
    }

    private static List<String> expectedKeys() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        List<String> keys = new ArrayList<>();
        for (LocalDate d = today.minusDays(KEYS - 1); !d.isAfter(today); d = d.plusDays(1)) {
            keys.add(d.toString());
        }
        return keys;
    }
}
