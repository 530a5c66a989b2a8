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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two processes never execute the same key at once (a lease in the state), and the state
 * is shared by processes that run at the same time. On H2 here; on PostgreSQL in {@link PostgresLeaseRaceTest}. Two child JVMs run the same 40 keys at the
 * same time against one state folder: every key ends DONE with its effect applied once, and no
 * step of any key is executed by both processes.
 */
class LeaseRaceTest extends SiteTestBase {

    static final LocalDate FROM = LocalDate.parse("2026-10-21");
    static final int KEYS = 40;
    static final LocalDate TO = FROM.plusDays(KEYS - 1);


    @BeforeEach
    void setUp() throws IOException {
        wb.clock.followSystemClock();
        site.postDelayMillis(20);
        // Jobs.publish, with a step timeout that outlasts the gate below
        wb.job("race", Jobs.publish("race", "unsafe", true, null).replace("\"timeout\": \"PT1S\"", "\"timeout\": \"PT60S\""),
                site.base());
        assertThat(Files.readString(wb.jobs.resolve("race.json"))).contains("PT60S");
    }

    @Test
    void twoProcessesOverTheSameKeysApplyEachEffectOnce() throws Exception {
        // Initialise the state (schema) first, so the two children race on keys, not on the migration.
        assertThat(wb.cli("status").exit()).isZero();
        // Make sure the runs overlap: the first article waits (after it was created, before the
        // answer) until the other process has asked the site about another key.
        AtomicBoolean overlapped = site.holdFirstPostUntilGets(2);
        Path logA = tmp.resolve("a.log");
        Path logB = tmp.resolve("b.log");
        String[] args = {"run", "--yes", "race", "--from", FROM.toString(), "--to", TO.toString()};
        Process a = ChildProcess.start(wb, logA, args);
        Process b = ChildProcess.start(wb, logB, args);
        assertThat(a.waitFor(120, TimeUnit.SECONDS)).as("process A finished").isTrue();
        assertThat(b.waitFor(120, TimeUnit.SECONDS)).as("process B finished").isTrue();
        String logs = "--- A (exit " + a.exitValue() + ")\n" + Files.readString(logA) + "--- B (exit " + b.exitValue()
                + ")\n" + Files.readString(logB);
        // 0, or 5 when a process ended while the other one still held one of its keys
        assertThat(a.exitValue()).as(logs).isIn(0, 5);
        assertThat(b.exitValue()).as(logs).isIn(0, 5);
        assertThat(overlapped).as("the two runs overlapped\n" + logs).isTrue();

        List<String> expected = new ArrayList<>();
        for (LocalDate d = FROM; !d.isAfter(TO); d = d.plusDays(1)) {
            expected.add(d.toString());
        }
        Result status = wb.cli("status", "race", "--json");
        Map<String, String> states = new TreeMap<>();
        for (JsonNode n : Json.read(status.out(), JsonNode.class)) {
            states.put(n.get("key").asText(), n.get("state").asText());
        }
        assertThat(states.keySet()).as(logs).containsExactlyElementsOf(expected);
        assertThat(states).as(logs).allSatisfy((k, s) -> assertThat(s).as(k).isEqualTo("DONE"));

        Map<String, Integer> effects = site.allEffects();
        assertThat(effects.keySet()).containsExactlyElementsOf(expected);
        assertThat(effects).as(logs).allSatisfy((k, n) -> assertThat(n).as("effects of " + k).isEqualTo(1));
        assertThat(site.posts()).as("no POST was sent twice").isEqualTo(KEYS);

        // No step of any key was executed twice (not even the local write step), by either process,
        // and both processes did execute keys.
        Map<String, Integer> executions = new TreeMap<>();
        Set<String> runs = new HashSet<>();
        for (String line : Files.readAllLines(wb.logs().resolve("runs.jsonl"))) {
            JsonNode l = Json.read(line, JsonNode.class);
            if ("step".equals(l.path("type").asText()) && l.get("result").asText().equals("ok")) {
                executions.merge(l.get("key").asText() + " " + l.get("step").asText(), 1, Integer::sum);
                runs.add(l.get("runId").asText());
            }
        }
        assertThat(executions).as(logs).hasSize(2 * KEYS)
                .allSatisfy((ks, n) -> assertThat(n).as(ks + " executed").isEqualTo(1));
        assertThat(runs).as("both processes executed keys\n" + logs).hasSize(2);
        for (String key : expected) {
            Result tl = wb.cli("timeline", "race", key, "--json");
            long claims = 0;
            for (JsonNode e : Json.read(tl.out(), JsonNode.class)) {
                String type = e.get("type").asText();
                if (type.equals("CLAIMED") || type.equals("RECOVERED")) {
                    claims++;
                }
            }
            assertThat(claims).as("claims of " + key + ": " + tl.out()).isEqualTo(1);
        }
    }

    @Test
    void processesStartedAtTheSameMomentAllShareTheState() throws Exception {
        // cron starts several jobs at the same minute: each must open the shared state (the store never relies
        // on being the only process), not fail with "locked".
        wb.job("tick", Jobs.command("tick", "none", "echo \"$PPID\" >> ticks.log", "PT10S"), null);
        assertThat(wb.cli("status").exit()).isZero();
        List<String> report = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            List<Process> ps = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ps.add(ChildProcess.start(wb, tmp.resolve("tick-" + round + "-" + i + ".log"), "run",
                        "tick", "--key", "2026-11-0" + (round * 3 + i + 1)));
            }
            for (int i = 0; i < ps.size(); i++) {
                assertThat(ps.get(i).waitFor(120, TimeUnit.SECONDS)).isTrue();
                report.add("round " + round + " process " + i + ": exit " + ps.get(i).exitValue() + " "
                        + Files.readString(tmp.resolve("tick-" + round + "-" + i + ".log")).strip());
            }
        }
        assertThat(report).allMatch(l -> l.contains(": exit 0 "));
        assertThat(Files.readAllLines(wb.jobs.resolve("ticks.log"))).hasSize(6);
    }
}
