package io.keyline.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.Jobs;
import io.keyline.core.json.Json;
import io.keyline.core.RunTrace;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** runs.jsonl: a type on every line, the structured run line, parked keys, rotation. */
class RunLogTest extends SiteTestBase {

    static final String KEY = "2026-11-29";

    List<JsonNode> log() throws IOException {
        return log(wb.state.resolve("logs/runs.jsonl"));
    }

    static List<JsonNode> log(Path f) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(f)) {
            return out;
        }
        for (String l : Files.readAllLines(f)) {
            out.add(Json.read(l, JsonNode.class));
        }
        return out;
    }

    @Test
    void everyLineHasATypeAndTheRunLineIsStructured() throws IOException {
        // publish: the first probe answers 503 (probe line), the POST goes through after it
        wb.job("pub", Jobs.publish("pub", "unsafe", true, null), site.base());
        site.failGets(Fault.STATUS_503);
        Result r = wb.cli("run", "--yes", "pub", "--from", "2026-11-28", "--to", KEY);
        assertThat(r.exit()).as(r.toString()).isZero();

        List<JsonNode> lines = log();
        assertThat(lines).allSatisfy(l -> assertThat(l.path("type").asText()).isIn("step", "probe", "run"));
        assertThat(lines).filteredOn(l -> l.get("type").asText().equals("probe")).isNotEmpty()
                .allSatisfy(l -> assertThat(l.get("result").asText()).startsWith("probe:"));
        assertThat(lines).filteredOn(l -> l.get("type").asText().equals("step"))
                .allSatisfy(l -> assertThat(l.get("key").asText()).isIn("2026-11-28", KEY));
        List<JsonNode> runs = lines.stream().filter(l -> l.get("type").asText().equals("run")).toList();
        assertThat(runs).hasSize(1);
        JsonNode run = runs.get(0);
        for (String f : List.of("ts", "type", "runId", "job", "startedAt", "durationMs", "selection", "counts", "exit",
                "failedKeys", "stopped")) {
            assertThat(run.has(f)).as("run line has " + f + ": " + run).isTrue();
        }
        assertThat(run.get("job").asText()).isEqualTo("pub");
        assertThat(run.get("counts").get("DONE").asInt()).isEqualTo(2);
        assertThat(run.get("exit").asInt()).isZero();
        assertThat(run.get("failedKeys")).isEmpty();
        assertThat(run.get("stopped").isNull()).isTrue();
        assertThat(run.get("selection").asText()).isEqualTo("--from 2026-11-28 --to " + KEY + " (2026-11-28, " + KEY + ")");
        assertThat(Instant.parse(run.get("startedAt").asText())).isBeforeOrEqualTo(Instant.parse(run.get("ts").asText()));
        assertThat(lines).filteredOn(l -> l.get("type").asText().equals("step"))
                .allSatisfy(l -> assertThat(l.get("runId").asText()).isEqualTo(run.get("runId").asText()));
    }

    @Test
    void failedKeysAndExitAreInTheRunLine() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404);
        Result r = wb.cli("run", "pub", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode run = log().stream().filter(l -> l.get("type").asText().equals("run")).findFirst().orElseThrow();
        assertThat(run.get("exit").asInt()).isEqualTo(2);
        assertThat(run.get("counts").get("FAILED").asInt()).isEqualTo(1);
        assertThat(run.get("failedKeys").get(0).asText()).isEqualTo(KEY);
    }

    @Test
    void aKeyParkedWithoutAStepRunningLeavesALine() throws IOException {
        // the publish step needs credential site-cookie, which was never set: parked before it sends
        wb.job("pub", Jobs.publish("pub", "unsafe", false, "\"credential\": \"site-cookie\","), site.base());
        Result r = wb.cli("run", "pub", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        List<JsonNode> lines = log();
        List<JsonNode> publish = lines.stream().filter(l -> "publish".equals(l.path("step").asText())).toList();
        assertThat(publish).hasSize(1);
        JsonNode parked = publish.get(0);
        assertThat(parked.get("type").asText()).isEqualTo("step");
        assertThat(parked.get("result").asText()).isEqualTo("parked");
        assertThat(parked.get("class").asText()).isEqualTo("AUTH");
        assertThat(parked.get("message").asText()).contains("NEEDS_CREDENTIAL").contains("site-cookie");
        assertThat(site.posts()).isZero();
        // the write step ran and has its own line; a key already parked is not reported again
        assertThat(lines).anyMatch(l -> "write".equals(l.path("step").asText()) && "ok".equals(l.get("result").asText()));
        wb.clock.advance(java.time.Duration.ofMinutes(5)); // another run id (the test's random is seeded)
        wb.cli("run", "pub", "--key", KEY);
        assertThat(log().stream().filter(l -> "parked".equals(l.path("result").asText()))).hasSize(1);
    }

    @Test
    void aFailedStepIsNotReportedTwice() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404);
        wb.cli("run", "pub", "--key", KEY);
        assertThat(log().stream().filter(l -> "parked".equals(l.path("result").asText()))).isEmpty();
    }

    @Test
    void rotationKeepsTheNewestLines() throws IOException {
        Path state = tmp.resolve("rot");
        Map<String, String> env = Map.of("KEYLINE_LOG_MAX", "4K", "KEYLINE_LOG_FILES", "2");
        int n = 200;
        try (RunTrace t = RunTrace.open(state, null, env)) {
            for (int i = 0; i < n; i++) {
                t.other(Instant.EPOCH, "step", Map.of("seq", i, "pad", "x".repeat(60)));
            }
        }
        Path logs = state.resolve("logs");
        try (Stream<Path> files = Files.list(logs)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(f -> f.startsWith("runs.jsonl."))
                    .filter(f -> !f.endsWith(".lock")).sorted().toList()).containsExactly("runs.jsonl.1", "runs.jsonl.2");
        }
        List<Integer> kept = new ArrayList<>();
        for (String f : List.of("runs.jsonl.2", "runs.jsonl.1", "runs.jsonl")) {
            assertThat(Files.size(logs.resolve(f))).isLessThanOrEqualTo(4096);
            log(logs.resolve(f)).forEach(l -> kept.add(l.get("seq").asInt()));
        }
        // oldest to newest, without gaps, ending with the last line written
        assertThat(kept).isNotEmpty();
        assertThat(kept.get(kept.size() - 1)).isEqualTo(n - 1);
        for (int i = 1; i < kept.size(); i++) {
            assertThat(kept.get(i)).isEqualTo(kept.get(i - 1) + 1);
        }
        assertThat(kept.get(0)).isGreaterThan(0);
    }

    @Test
    void twoWritersRotatingTheSameLogLoseNoLine() throws Exception {
        Path state = tmp.resolve("two");
        Map<String, String> env = Map.of("KEYLINE_LOG_MAX", "64K", "KEYLINE_LOG_FILES", "20");
        int per = 2000;
        try (RunTrace a = RunTrace.open(state, null, env); RunTrace b = RunTrace.open(state, null, env)) {
            Thread ta = new Thread(() -> {
                for (int i = 0; i < per; i++) {
                    a.other(Instant.EPOCH, "step", Map.of("w", "a", "seq", i));
                }
            });
            ta.start();
            for (int i = 0; i < per; i++) {
                b.other(Instant.EPOCH, "step", Map.of("w", "b", "seq", i));
            }
            ta.join();
        }
        List<JsonNode> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(state.resolve("logs"))) {
            for (Path f : files.filter(p -> !p.toString().endsWith(".lock")).toList()) {
                all.addAll(log(f));
            }
        }
        assertThat(all).hasSize(2 * per);
        assertThat(all.stream().map(l -> l.get("w").asText() + l.get("seq").asInt()).distinct().count()).isEqualTo(2L * per);
    }

    @Test
    void aBadLimitIsAClearError() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        wb.env().put("KEYLINE_LOG_MAX", "ten megs");
        Result r = wb.cli("run", "pub", "--key", KEY);
        assertThat(r.err()).contains("KEYLINE_LOG_MAX").contains("ten megs");
        assertThat(r.exit()).isNotZero();
    }
}
