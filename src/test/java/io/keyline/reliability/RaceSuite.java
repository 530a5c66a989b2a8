package io.keyline.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.ChildProcess;
import io.keyline.acceptance.Jobs;
import io.keyline.core.json.Json;
import io.keyline.testing.CpuBurn;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * R2: two CLI processes run the same 1,000 keys of an unsafe job at the same time on one state
 * folder. Counts effects applied more than once, steps executed by both processes and keys claimed
 * twice; all must be zero, and every key must end DONE. And cron's minute: three runs started at the same moment,
 * again and again, with the machine busy, each open the shared state and finish their key.
 */
@Tag("reliability")
class RaceSuite {

    static final int KEYS = Integer.getInteger("keyline.race.keys", 1000);
    /** keys each process runs at once. */
    static final int CONCURRENCY = Integer.getInteger("keyline.race.concurrency", 8);
    static final LocalDate FROM = LocalDate.parse("2023-01-01");
    /** Rounds of three runs started at once. */
    static final int SAME_MINUTE_ROUNDS = Integer.getInteger("keyline.race.sameMinuteRounds", 60);

    @TempDir
    Path tmp;

    @Test
    void twoProcessesOnTheSameThousandKeysNeverDuplicate() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        LocalDate to = FROM.plusDays(KEYS - 1);
        try (TestSite site = new TestSite()) {
            wb.job("race", Jobs.publish("race", "unsafe", true, null).replace("\"PT1S\"", "\"PT60S\"")
                    .replace("2026-01-01", FROM.toString())
                    .replaceFirst("\"key\":", "\"concurrency\": " + CONCURRENCY + ", \"key\":"), site.base());
            assertThat(wb.cli("status").exit()).isZero();
            long started = System.nanoTime();
            String[] args = {"run", "--yes", "race", "--from", FROM.toString(), "--to", to.toString()};
            Process a = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("a.log"), args);
            Process b = ChildProcess.start(wb.state, wb.jobs, tmp.resolve("b.log"), args);
            assertThat(a.waitFor(15, TimeUnit.MINUTES)).isTrue();
            assertThat(b.waitFor(15, TimeUnit.MINUTES)).isTrue();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            // a key the other process still held when one ended: one more run finishes it
            wb.cli(args);

            int duplicates = 0;
            List<String> details = new ArrayList<>();
            for (var e : site.allEffects().entrySet()) {
                if (e.getValue() > 1) {
                    duplicates += e.getValue() - 1;
                    details.add("effect applied " + e.getValue() + " times: " + e.getKey());
                }
            }
            Map<String, Set<String>> executedBy = new TreeMap<>();
            for (String line : Files.readAllLines(wb.state.resolve("logs").resolve("runs.jsonl"))) {
                JsonNode l = Json.read(line, JsonNode.class);
                if ("step".equals(l.path("type").asText()) && l.get("result").asText().equals("ok")) {
                    String ks = l.get("key").asText() + " " + l.get("step").asText();
                    if (!executedBy.computeIfAbsent(ks, x -> new HashSet<>()).add(l.get("runId").asText())) {
                        details.add("executed twice in one run: " + ks);
                        duplicates++;
                    }
                }
            }
            long twice = executedBy.values().stream().filter(s -> s.size() > 1).count();
            duplicates += (int) twice;
            Set<String> runs = new HashSet<>();
            executedBy.values().forEach(runs::addAll);
            int done = 0;
            for (JsonNode k : Json.read(wb.cli("status", "race", "--json").out(), JsonNode.class)) {
                if (k.get("state").asText().equals("DONE")) {
                    done++;
                } else {
                    details.add("not done: " + k);
                }
            }
            Map<String, Object> fig = new LinkedHashMap<>();
            fig.put("keys", KEYS);
            fig.put("processes", 2);
            fig.put("concurrency", CONCURRENCY);
            fig.put("exit_a", a.exitValue());
            fig.put("exit_b", b.exitValue());
            fig.put("runs_that_executed", runs.size());
            fig.put("done", done);
            fig.put("posts", site.posts());
            fig.put("duplicates", duplicates);
            fig.put("seconds", seconds);
            Suites.report("race", fig, String.join("\n", details) + "\n");
            assertThat(duplicates).as(details.toString()).isZero();
            assertThat(done).isEqualTo(KEYS);
            assertThat(runs).as("both processes executed keys").hasSize(2);
        }
    }

    @Test
    void runsStartedAtTheSameMomentEachFinishTheirKey() throws Exception {
        // the process that serves the state over H2's AUTO_SERVER may close it in the middle of another's statement
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        wb.job("tick", Jobs.command("tick", "none", "echo \"$PPID\" >> ticks.log", "PT30S"), null);
        assertThat(wb.cli("status").exit()).isZero();
        List<String> failed = new ArrayList<>();
        LocalDate key = LocalDate.parse("2026-01-01");
        long started = System.nanoTime();
        try (CpuBurn burn = CpuBurn.start(2)) {
            for (int round = 0; round < SAME_MINUTE_ROUNDS; round++) {
                List<Process> ps = new ArrayList<>();
                List<Path> logs = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    logs.add(tmp.resolve("tick-" + round + "-" + i + ".log"));
                    ps.add(ChildProcess.start(wb.state, wb.jobs, logs.get(i), "run", "tick", "--key", key.toString()));
                    key = key.plusDays(1);
                }
                for (int i = 0; i < ps.size(); i++) {
                    assertThat(ps.get(i).waitFor(2, TimeUnit.MINUTES)).as("round " + round + " run " + i).isTrue();
                    if (ps.get(i).exitValue() != 0) {
                        failed.add("round " + round + " run " + i + ": exit " + ps.get(i).exitValue() + "\n"
                                + Files.readString(logs.get(i)).strip());
                    }
                }
            }
        }
        int runs = 3 * SAME_MINUTE_ROUNDS;
        int ticks = Files.readAllLines(wb.jobs.resolve("ticks.log")).size();
        Map<String, Object> fig = new LinkedHashMap<>();
        fig.put("runs", runs);
        fig.put("failed", failed.size());
        fig.put("steps_executed", ticks);
        fig.put("seconds", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        Suites.report("same-minute", fig, String.join("\n", failed) + "\n");
        assertThat(failed).isEmpty();
        assertThat(ticks).as("each run executed its one step once").isEqualTo(runs);
    }
}
