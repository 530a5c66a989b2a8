package io.keyline.acceptance;

import io.keyline.cli.KeylineCli;
import io.keyline.core.RunOptions;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run --due} runs jobs side by side: a job that waits in place for a retry no longer
 * holds the next job back. The wait here is a sleeper that returns only once the other job's step has
 * run (or after 30 s): one job after the other would make it wait the full 30 s and fail.
 */
class DueSideBySideTest {

    @TempDir
    Path tmp;

    @Test
    void aJobWaitingForARetryDoesNotHoldTheOthersBack() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("a-slow", job("a-slow", "exit 75"), null);
        wb.job("b-quick", job("b-quick", "touch b-quick.done"), null);
        Path done = wb.jobs.resolve("b-quick.done");
        assertThat(wb.cli("jobs").exit()).as("the state exists").isZero();
        AtomicBoolean otherRanMeanwhile = new AtomicBoolean();
        RunOptions options = new RunOptions(wb.clock, d -> {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!Files.exists(done) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            otherRanMeanwhile.compareAndSet(false, Files.exists(done));
            wb.clock.advance(d);
        }, new Random(7), Duration.ofMinutes(1), Duration.ofMinutes(2), "tester");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int exit = KeylineCli.execute(new String[] {"--state", wb.state.toString(), "--jobs", wb.jobs.toString(),
            "run", "--due"}, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), wb.env(), options);

        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(otherRanMeanwhile).as(text).isTrue();
        assertThat(text).contains("a-slow: 1 FAILED").contains("b-quick: 1 DONE");
        assertThat(text.indexOf("a-slow: 1 FAILED")).as("reports in catalog order").isLessThan(text.indexOf("b-quick: 1 DONE"));
        assertThat(exit).isEqualTo(3);
    }

    private static String job(String name, String script) {
        return """
                { "name": "%s", "key": { "type": "date", "zone": "UTC", "start": "2026-11-29" },
                  "schedule": "0 7 * * *",
                  "retry": { "maxAttempts": 2, "initialDelay": "PT5S", "jitter": 0.0 },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["sh", "-c", %s] } ] }
                """.formatted(name, Jobs.quote(script));
    }
}
