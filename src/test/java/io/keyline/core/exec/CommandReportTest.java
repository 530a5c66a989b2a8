package io.keyline.core.exec;

import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** The report a command prints on its last stdout line, when it is more than the JSON reader takes. */
class CommandReportTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    /** An unsafe command step that prints {@code line} as its last stdout line and exits 0. */
    StepOutcome printing(String line) throws Exception {
        Files.writeString(tmp.resolve("line.txt"), "posting\n" + line + "\n");
        Path file = tmp.resolve("c.json");
        Files.writeString(file, """
                { "name": "c", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "post", "kind": "command", "effect": "unsafe", "command": ["cat", "line.txt"] } ] }
                """);
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).isEmpty();
        JobDefinition job = r.job();
        return new CommandExecutor(CLOCK).execute(new StepContext(job, job.steps().get(0), "2026-11-29", "run-1", 1,
                Map.of(), null, UnaryOperator.identity()));
    }

    @Test
    void aReportNestedTooDeepToReadIsNotASuccess() throws Exception {
        StepOutcome out = printing("{\"outcome\": \"ambiguous\", \"message\": \"the post may be out\", \"outputs\": {\"v\": "
                + "[".repeat(2000) + "]".repeat(2000) + "}}");

        assertThat(out.succeeded()).as(out.message()).isFalse();
        assertThat(out.failure()).isEqualTo(FailureClass.UNKNOWN);
        assertThat(out.message()).isEqualTo("exit 0, but the report on its last stdout line is more than Keyline reads"
                + " (nested deeper than 1000 levels, a number or text too long, or a line longer than the 64 KiB of output"
                + " kept): what the command said is unknown");
        assertThat(out.outputs()).isEmpty();
    }

    @Test
    void aReportWithANumberTooLongToReadIsNotASuccess() throws Exception {
        StepOutcome out = printing("{\"outcome\": \"fatal\", \"outputs\": {\"n\": 1" + "0".repeat(2_000) + "}}");

        assertThat(out.succeeded()).as(out.message()).isFalse();
        assertThat(out.failure()).isEqualTo(FailureClass.UNKNOWN);
    }

    @Test
    void aLastLineThatIsNoJsonIsNoReport() throws Exception {
        StepOutcome out = printing("{done}");

        assertThat(out.succeeded()).as(out.message()).isTrue();
    }

    @Test
    void aReportLongerThanTheStdoutKeptIsNotASuccess() throws Exception {
        StepOutcome out = printing("{\"outcome\": \"fatal\", \"message\": \"the post was refused\", "
                + "\"outputs\": {\"log\": \"" + "x".repeat(80 * 1024) + "\"}}");

        assertThat(out.succeeded()).as(out.message()).isFalse();
        assertThat(out.failure()).isEqualTo(FailureClass.UNKNOWN);
        assertThat(out.message()).startsWith("exit 0, but the report on its last stdout line is more than Keyline reads");
        assertThat(out.outputs()).isEmpty();
    }

    @Test
    void aReportWhoseOutcomeComesAfterItsLongOutputsIsNotASuccess() throws Exception {
        StepOutcome out = printing("{\"outputs\": {\"log\": \"" + "x".repeat(80 * 1024) + "\"}, \"outcome\": \"ambiguous\"}");

        assertThat(out.succeeded()).as(out.message()).isFalse();
        assertThat(out.failure()).isEqualTo(FailureClass.UNKNOWN);
    }

    @Test
    void aLongLastLineThatIsNoReportStaysPlainOutput() throws Exception {
        // a command that prints a large JSON document (an API's answer) as its last line: no report, a success
        StepOutcome out = printing("{\"items\": [" + "{\"id\": 1},".repeat(10_000) + "{\"id\": 2}]}");

        assertThat(out.succeeded()).as(out.message()).isTrue();
    }
}
