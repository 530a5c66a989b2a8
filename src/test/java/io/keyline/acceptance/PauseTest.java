package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The kill switch: nothing of a paused job starts; a running key stops at the next step boundary. */
class PauseTest {

    static final String KEY = "2026-11-29";
    static final String REASON = "site maintenance";

    @TempDir
    Path tmp;
    Workbench wb;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
    }

    /** A scheduled job whose only step appends its key to {@code NAME.log}. */
    static String scheduled(String name) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "schedule": "0 8 * * *",
              "steps": [
                { "id": "work", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "echo \\"$1\\" >> %s.log", "sh", "{key}"] }
              ]
            }
            """.formatted(name, name);
    }

    List<String> lines(String file) throws IOException {
        Path f = wb.jobs.resolve(file);
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    JsonNode keyStatus(String job, String key) {
        Result r = wb.cli("status", job, "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        for (JsonNode n : Json.read(r.out(), JsonNode.class)) {
            if (n.get("key").asText().equals(key)) {
                return n;
            }
        }
        return null;
    }

    @Test
    void pausedJobDoesNotRunAndSaysWhyThenResumes() throws IOException {
        wb.job("paused", scheduled("paused"), null);
        Result p = wb.cli("pause", "paused", "--reason", REASON);
        assertThat(p.exit()).as(p.toString()).isZero();

        Result run = wb.cli("run", "paused", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(1);
        assertThat(run.out() + run.err()).contains(REASON);
        assertThat(lines("paused.log")).isEmpty();

        Result jobs = wb.cli("jobs");
        assertThat(jobs.exit()).as(jobs.toString()).isZero();
        assertThat(jobs.out()).containsPattern("paused\\s.*yes: " + REASON);

        Result resume = wb.cli("resume", "paused");
        assertThat(resume.exit()).as(resume.toString()).isZero();
        assertThat(wb.cli("jobs").out()).doesNotContain("yes: " + REASON);
        Result again = wb.cli("run", "paused", "--key", KEY);
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(lines("paused.log")).containsExactly(KEY);
    }

    @Test
    void runDuePassesThePausedJobBy() throws IOException {
        wb.job("paused", scheduled("paused"), null);
        wb.job("other", scheduled("other"), null);
        assertThat(wb.cli("pause", "paused", "--reason", REASON).exit()).isZero();

        Result due = wb.cli("run", "--due");
        assertThat(due.exit()).as("the exit reflects only the unpaused job: " + due).isZero();
        assertThat(due.out()).contains("paused: paused, passed by");
        assertThat(lines("other.log")).as(due.toString()).isNotEmpty().contains(KEY);
        assertThat(lines("paused.log")).isEmpty();
        assertThat(keyStatus("paused", KEY)).as("nothing of the paused job was even recorded").isNull();

        // the other job failing still decides the exit; the paused job does not add a 1
        wb.job("failing", scheduled("failing").replace("echo \\\"$1\\\" >> failing.log", "exit 65"), null);
        Result withFailure = wb.cli("run", "--due");
        assertThat(withFailure.exit()).as(withFailure.toString()).isEqualTo(2);
        assertThat(lines("paused.log")).isEmpty();
    }

    @Test
    void pauseUntilInThePastIsRefused() throws IOException {
        wb.job("paused", scheduled("paused"), null);
        Result p = wb.cli("pause", "paused", "--reason", REASON, "--until", "2026-11-28T09:00:00Z");
        assertThat(p.exit()).as(p.toString()).isNotZero();
        assertThat(p.err()).contains("past");
        assertThat(wb.cli("jobs").out()).doesNotContain("yes:");
        Result run = wb.cli("run", "paused", "--key", KEY);
        assertThat(run.exit()).as("the job is not paused: " + run).isZero();
    }

    @Test
    void pauseUntilEndsByItself() throws IOException {
        wb.job("paused", scheduled("paused"), null);
        Result p = wb.cli("pause", "paused", "--reason", REASON, "--until", "2026-11-29T10:00:00Z");
        assertThat(p.exit()).as(p.toString()).isZero();
        assertThat(wb.cli("run", "paused", "--key", KEY).exit()).isEqualTo(1);
        wb.clock.advance(java.time.Duration.ofHours(2));
        Result run = wb.cli("run", "paused", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(lines("paused.log")).containsExactly(KEY);
    }

    @Test
    void killSwitchStopsARunningKeyAtTheNextStepBoundary() throws Exception {
        wb.clock.followSystemClock();
        wb.job("slow", """
            {
              "name": "slow",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "steps": [
                { "id": "first", "kind": "command", "effect": "none", "timeout": "PT60S",
                  "command": ["sh", "-c", "echo x >> first.count; touch started; while [ ! -f go ]; do sleep 0.05; done"] },
                { "id": "second", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "echo x >> second.count"] }
              ]
            }
            """, null);
        CompletableFuture<Result> running = CompletableFuture.supplyAsync(() -> wb.cli("run", "slow", "--key", KEY));
        Path started = wb.jobs.resolve("started");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(started)) {
            assertThat(System.nanoTime()).as("step 1 never started").isLessThan(deadline);
            assertThat(running).as("the run ended before step 1 started").isNotDone();
            Thread.sleep(20);
        }
        Result pause = wb.cli("pause", "slow", "--reason", REASON);
        assertThat(pause.exit()).as(pause.toString()).isZero();
        Files.createFile(wb.jobs.resolve("go"));
        Result stopped = running.get(60, TimeUnit.SECONDS);

        assertThat(stopped.out()).as(stopped.toString()).contains(REASON);
        // the run did work before the kill switch stopped it: 4, waiting for a person (it was 1, "nothing ran")
        assertThat(stopped.exit()).as(stopped.toString()).isEqualTo(4);
        assertThat(lines("first.count")).hasSize(1);
        assertThat(lines("second.count")).as("step 2 did not run").isEmpty();
        JsonNode st = keyStatus("slow", KEY);
        assertThat(st).isNotNull();
        assertThat(st.get("state").asText()).isEqualTo("PENDING");
        assertThat(st.get("step").asText()).isEqualTo("second");
        Result tl = wb.cli("timeline", "slow", KEY);
        assertThat(tl.out()).as(tl.toString()).containsPattern("YIELDED.*second.*" + REASON);

        // paused: a further run starts nothing
        assertThat(wb.cli("run", "slow", "--key", KEY).exit()).isEqualTo(1);
        assertThat(lines("second.count")).isEmpty();

        Files.delete(started);
        assertThat(wb.cli("resume", "slow").exit()).isZero();
        Result after = wb.cli("run", "slow", "--key", KEY);
        assertThat(after.exit()).as(after.toString()).isZero();
        assertThat(lines("second.count")).as("step 2 ran exactly once").hasSize(1);
        assertThat(lines("first.count")).as("step 1 was not executed again").hasSize(1);
        assertThat(started).doesNotExist();
        assertThat(keyStatus("slow", KEY).get("state").asText()).isEqualTo("DONE");
    }
}
