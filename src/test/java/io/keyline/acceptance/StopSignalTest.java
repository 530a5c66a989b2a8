package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM to a real {@code keyline run} child JVM: no new key starts, the keys in flight
 * finish the step they are in and stop at the step boundary, and the process exits with the code of
 * what finished - here 5, two keys still to finish - not 143; a rerun never redoes the finished step.
 * The steps wait for a file the test writes only after the child said it is stopping: no timing.
 */
class StopSignalTest {

    @TempDir
    Path tmp;

    @Test
    void sigtermLetsKeysInFlightFinishTheirStepAndExitsWithTheCodeOfWhatFinished() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        Files.createDirectories(wb.jobs.resolve("started"));
        wb.job("halt", """
                { "name": "halt", "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" }, "concurrency": 2,
                  "steps": [
                    { "id": "one", "kind": "command", "effect": "none", "timeout": "PT60S", "command": ["sh", "-c",
                      "echo $KEYLINE_KEY >> one.log; touch started/$KEYLINE_KEY; while [ ! -f release ]; do sleep 0.05; done"] },
                    { "id": "two", "kind": "command", "effect": "none", "command": ["sh", "-c", "echo $KEYLINE_KEY >> two.log"] }
                  ] }
                """, null);
        Path log = tmp.resolve("child.log");

        Process p = ChildProcess.start(wb.state, wb.jobs, log, "run", "--yes", "halt", "--from", "2026-11-01", "--to", "2026-11-06");
        awaitTrue(() -> count(wb.jobs.resolve("started")) == 2, log);
        p.destroy(); // SIGTERM
        awaitTrue(() -> Files.exists(log) && Files.readString(log).contains("no new key starts"), log);
        Files.writeString(wb.jobs.resolve("release"), "");
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(Files.readString(log)).isTrue();

        String out = Files.readString(log);
        assertThat(p.exitValue()).as(out).isEqualTo(5);
        assertThat(out).contains("SIGTERM: no new key starts").contains("stopped by SIGTERM: 4 keys not started")
                .contains("exit 5 (nothing failed: the next run goes on with the keys left)")
                .as("no key waits for a retry").doesNotContain("retry pending");
        assertThat(Files.readAllLines(wb.jobs.resolve("one.log"))).hasSize(2);
        assertThat(wb.jobs.resolve("two.log")).as("stopped at the step boundary").doesNotExist();
        JsonNode keys = Json.read(wb.cli("status", "halt", "--json").out(), JsonNode.class);
        assertThat(keys).hasSize(2).allSatisfy(k -> {
            assertThat(k.get("state").asText()).isEqualTo("PENDING");
            assertThat(wb.cli("timeline", "halt", k.get("key").asText()).out())
                    .contains("YIELDED").contains("stopped by SIGTERM; stopped before step two");
        });

        Result rerun = wb.cli("run", "--yes", "halt", "--from", "2026-11-01", "--to", "2026-11-06");
        assertThat(rerun.exit()).as(rerun.toString()).isZero();
        List<String> ones = Files.readAllLines(wb.jobs.resolve("one.log"));
        assertThat(ones).as("the finished step is not redone").hasSize(6).doesNotHaveDuplicates();
        assertThat(Files.readAllLines(wb.jobs.resolve("two.log"))).hasSize(6);
    }

    private static long count(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private static void awaitTrue(Check c, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!c.ok()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out; child log:\n" + (Files.exists(log) ? Files.readString(log) : ""));
            }
            Thread.sleep(20);
        }
    }
}
