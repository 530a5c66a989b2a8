package io.keyline.core.jobfile;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.RateLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code concurrency} and {@code rateLimit}: mapped when valid, a clear file:line:column error when not. */
class ThroughputFieldsTest {

    @TempDir
    Path dir;

    @Test
    void concurrencyAndRateLimitAreMapped() throws IOException {
        JobDefinition job = JobFileLoader.loadFile(write("fast", "\"concurrency\": 16, \"rateLimit\": \"10/s\"")).job();

        assertThat(job.concurrency()).isEqualTo(16);
        assertThat(job.rateLimit()).isEqualTo(new RateLimit(10, Duration.ofSeconds(1), "10/s"));
        assertThat(job.rateLimit().intervalNanos()).isEqualTo(100_000_000L);
    }

    @Test
    void perMinuteIsAccepted() throws IOException {
        JobDefinition job = JobFileLoader.loadFile(write("slow", "\"rateLimit\": \"90/min\"")).job();

        assertThat(job.rateLimit().permits()).isEqualTo(90);
        assertThat(job.rateLimit().per()).isEqualTo(Duration.ofMinutes(1));
        assertThat(job.rateLimit().intervalNanos()).isEqualTo(666_666_666L);
    }

    @Test
    void defaultsAreOneKeyAtATimeAndNoLimit() throws IOException {
        JobDefinition job = JobFileLoader.loadFile(write("plain", null)).job();

        assertThat(job.concurrency()).isEqualTo(1);
        assertThat(job.rateLimit()).isNull();
    }

    @Test
    void badValuesAreErrorsAtTheirValue() throws IOException {
        assertThat(error("zero", "\"concurrency\": 0", "0"))
                .isEqualTo("concurrency must be an integer from 1 to 64, got 0");
        assertThat(error("many", "\"concurrency\": 1000", "1000"))
                .isEqualTo("concurrency must be an integer from 1 to 64, got 1000");
        assertThat(error("text", "\"concurrency\": \"8\"", "\"8\""))
                .isEqualTo("concurrency must be an integer from 1 to 64, got string");
        assertThat(error("hour", "\"rateLimit\": \"10/h\"", "\"10/h\""))
                .isEqualTo("rateLimit \"10/h\" is not a rate: write requests per second or per minute, like \"10/s\" "
                        + "or \"600/min\"");
        assertThat(error("none", "\"rateLimit\": \"0/s\"", "\"0/s\""))
                .isEqualTo("rateLimit \"0/s\" must allow at least 1 request (\"1/min\" is the slowest)");
        assertThat(error("num", "\"rateLimit\": 10", "10"))
                .isEqualTo("rateLimit must be a string (requests per second or minute, like \"10/s\" or \"600/min\"), "
                        + "got number");
    }

    @Test
    void aMisspeltFieldIsRejectedWithASuggestion() throws IOException {
        assertThat(error("typo", "\"concurrent\": 4", "\"concurrent\"")).contains("unknown field \"concurrent\" in job")
                .contains("did you mean \"concurrency\"");
    }

    /** The one error of a job file with {@code extra}, checked to point at {@code at} (file, line 1, its column). */
    private String error(String name, String extra, String at) throws IOException {
        Path file = write(name, extra);
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.job()).isNull();
        assertThat(r.errors()).hasSize(1);
        JobFileError e = r.errors().get(0);
        String json = Files.readString(file);
        assertThat(e.file()).isEqualTo(file);
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.column()).isEqualTo(json.indexOf(extra) + extra.lastIndexOf(at) + 1);
        return e.message();
    }

    private Path write(String name, String extra) throws IOException {
        String json = "{ \"name\": \"" + name + "\", \"key\": { \"type\": \"date\" }, "
                + (extra == null ? "" : extra + ", ")
                + "\"steps\": [ { \"id\": \"a\", \"kind\": \"command\", \"effect\": \"none\", \"command\": [\"true\"] } ] }";
        return Files.writeString(dir.resolve(name + ".json"), json, StandardCharsets.UTF_8);
    }
}
