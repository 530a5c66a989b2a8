package io.keyline.reliability;

import io.keyline.store.h2.H2Database;
import io.keyline.acceptance.ChildProcess;
import io.keyline.core.json.Json;
import io.keyline.domain.KeyEvent;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.testing.CpuBurn;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job WITHOUT a probe posting to a site that holds each POST
 * about 0.5 s, a long date-key backfill run in a child JVM, SIGKILLed at a random moment 0–2 s after
 * its first trace line, again and again on the same state, with two CPU-burning threads beside it.
 * Counts, from the site's own log, the articles posted more than once (duplicates) and the killed runs
 * whose trace lines exist but whose events are not in the state afterwards (lost runs).
 *
 * <p>{@code -Dkeyline.durable.kills=N} (default 300); {@code -Dkeyline.crash.jar=PATH} runs the children
 * from a jar instead of the test class path (to run the same loop against an older build).
 */
@Tag("reliability")
class DurableIntentSuite {

    @TempDir
    Path tmp;

    @Test
    void killedBackfillsWithoutProbeNeverPostTwice() throws Exception {
        int kills = Integer.getInteger("keyline.durable.kills", 300);
        long seed = Long.getLong("keyline.crash.seed", System.nanoTime());
        Random random = new Random(seed);
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        Path logs = tmp.resolve("children");
        Files.createDirectories(logs);
        CpuBurn burn = CpuBurn.start(2);
        Map<String, TestSite> sites = new LinkedHashMap<>();
        List<String[]> killedRuns = new ArrayList<>();
        long started = System.nanoTime();
        int killed = 0;
        int round = 0;
        try {
            while (killed < kills) {
                String job = "blind-" + round;
                TestSite site = new TestSite();
                site.postDelayMillis(500);
                sites.put(job, site);
                wb.job(job, blindJob(job), site.base());
                LocalDate from = LocalDate.parse("2024-01-01");
                LocalDate to = LocalDate.parse("2026-11-29");
                // each round: 60 kills on the same state, then a fresh job (so kills keep landing mid-work)
                for (int i = 0; i < 60 && killed < kills; i++) {
                    Path out = logs.resolve(job + "-" + i + ".log");
                    Process p = start(wb, out, job, from.toString(), to.toString());
                    waitForFirstLine(out, p);
                    if (!p.waitFor(random.nextInt(2000), TimeUnit.MILLISECONDS)) {
                        p.destroyForcibly();
                        killed++;
                    }
                    p.waitFor(30, TimeUnit.SECONDS);
                    String runId = firstRunId(out);
                    if (runId != null) {
                        killedRuns.add(new String[] {job, runId, firstKey(out)});
                    }
                }
                round++;
            }
        } finally {
            burn.close();
        }
        int duplicates = 0;
        int effects = 0;
        List<String> details = new ArrayList<>();
        for (var e : sites.entrySet()) {
            for (var eff : e.getValue().allEffects().entrySet()) {
                effects += eff.getValue();
                if (eff.getValue() > 1) {
                    duplicates += eff.getValue() - 1;
                    details.add("duplicate: " + e.getKey() + " " + eff.getKey() + " posted " + eff.getValue() + " times");
                }
            }
        }
        int lost = 0;
        try (Database db = H2Database.open(wb.state); JdbcStateStore store = new JdbcStateStore(db)) {
            for (String[] r : killedRuns) {
                List<KeyEvent> events = store.events(r[0], r[2]);
                if (events.stream().noneMatch(ev -> r[1].equals(ev.runId()))) {
                    lost++;
                    details.add("lost run: " + r[1] + " of " + r[0] + " printed " + r[2] + " but the state has no event of it");
                }
            }
        }
        for (TestSite s : sites.values()) {
            s.close();
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("kills", killed);
        figures.put("runs", killedRuns.size());
        figures.put("posts", effects);
        figures.put("duplicates", duplicates);
        figures.put("lostRuns", lost);
        figures.put("cpuBurners", burn.threads());
        figures.put("postHoldMs", 500);
        figures.put("seed", seed);
        figures.put("seconds", seconds);
        figures.put("children", System.getProperty("keyline.crash.jar", "test class path"));
        Suites.report("durable-intent", figures, String.join("\n", details));
        assertThat(killed).isGreaterThanOrEqualTo(kills);
        assertThat(details).as("duplicates and lost runs (logs in %s)", logs).isEmpty();
    }

    static String blindJob(String name) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2024-01-01" },
              "steps": [
                { "id": "write", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "mkdir -p out && printf 'article %%s' \\"$KEYLINE_KEY\\" > out/$KEYLINE_KEY.md"] },
                { "id": "publish", "kind": "http", "effect": "unsafe",
                  "request": { "method": "POST", "url": "BASE/api/articles",
                               "headers": { "Content-Type": "text/markdown" }, "bodyFile": "out/{key}.md" },
                  "timeout": "PT5S" }
              ]
            }
            """.formatted(name);
    }

    private static Process start(Workbench wb, Path out, String job, String from, String to) throws Exception {
        String jar = System.getProperty("keyline.crash.jar");
        if (jar == null) {
            return ChildProcess.start(wb.state, wb.jobs, out, "run", "--yes", job, "--from", from, "--to", to);
        }
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-jar", jar, "--state", wb.state.toString(), "--jobs", wb.jobs.toString(),
                "run", "--yes", job, "--from", from, "--to", to);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        return pb.start();
    }

    /** Waits until the run printed its first trace line (it is under way), at most 60 s. */
    private static void waitForFirstLine(Path out, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (Files.exists(out) && Files.readString(out, StandardCharsets.UTF_8).contains(" ok ")) {
                return;
            }
            Thread.sleep(20);
        }
    }

    private static final java.util.regex.Pattern TRACE = java.util.regex.Pattern.compile(
            "^\\d\\d:\\d\\d:\\d\\d\\s+(\\S+) (\\d{4}-\\d\\d-\\d\\d)\\s");

    private static String firstKey(Path out) throws Exception {
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            var m = TRACE.matcher(line);
            if (m.find()) {
                return m.group(2);
            }
        }
        return null;
    }

    /** The run id of a killed child, from the run log line of its first key. */
    private String firstRunId(Path out) throws Exception {
        String key = firstKey(out);
        if (key == null) {
            return null;
        }
        String job = out.getFileName().toString().replaceAll("-\\d+\\.log$", "");
        Path jsonl = tmp.resolve("state").resolve("logs").resolve("runs.jsonl");
        String found = null;
        for (String line : Files.readAllLines(jsonl, StandardCharsets.UTF_8)) {
            if (line.contains("\"key\":\"" + key + "\"") && line.contains("\"job\":\"" + job + "\"")) {
                found = Json.read(line, com.fasterxml.jackson.databind.JsonNode.class).get("runId").asText();
            }
        }
        return found;
    }
}
