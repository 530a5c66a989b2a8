package io.keyline.core.exec;

import io.keyline.domain.JobDefinition;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.keyline.core.jobfile.JobFileLoader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sites that answer "not there" with a 4xx other than 404: Dropbox's {@code files/get_metadata} answers
 * {@code 409 {"error_summary": "path/not_found/…"}}. A probe reads such an answer with its {@code presentWhen} only
 * when its {@code successWhen} names that status (as a step's does) and the answer meets it; any other 409 still
 * cannot tell.
 */
class ConflictProbeTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);
    static final String NOT_FOUND = """
            {"error_summary": "path/not_found/..", "error": {".tag": "path", "path": {".tag": "not_found"}}}""";
    static final String MALFORMED = """
            {"error_summary": "path/malformed_path/..", "error": {".tag": "path", "path": {".tag": "malformed_path"}}}""";

    @TempDir
    Path tmp;

    JobDefinition job(String base) throws Exception {
        return AnswerWordsTest.job(tmp, """
                "request": { "method": "POST", "url": "%s/upload", "body": "x" },
                "probe": { "kind": "http", "url": "%s/meta?path={key}", "timeout": "PT5S",
                           "response": { "successWhen": { "any": [ { "status": [200] },
                               { "all": [ { "status": [409] },
                                          { "jsonPointer": "/error/path/.tag", "equals": "not_found" } ] } ] } },
                           "presentWhen": { "status": [200] } }
                """.formatted(base, base));
    }

    @Test
    void aConflictThatTheProbesSuccessWhenNamesIsReadAsAbsentAndAnyOtherConflictCannotTell() throws Exception {
        int[] status = {409};
        String[] body = {NOT_FOUND};
        try (FaultServer server = new FaultServer(r -> new Reply.Respond(status[0],
                Map.of("Content-Type", "application/json"), body[0]))) {
            StepContext ctx = AnswerWordsTest.ctx(job(server.base()), null);
            HttpExecutor http = new HttpExecutor(CLOCK);

            ProbeOutcome absent = http.probe(ctx);
            assertThat(absent.answer()).as(absent.message()).isEqualTo(ProbeOutcome.Answer.ABSENT);

            body[0] = MALFORMED;
            ProbeOutcome other = http.probe(ctx);
            assertThat(other.answer()).as(other.message()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);

            status[0] = 200;
            body[0] = "{\"name\": \"2026-11-29.tar.gz\", \".tag\": \"file\"}";
            ProbeOutcome present = http.probe(ctx);
            assertThat(present.answer()).as(present.message()).isEqualTo(ProbeOutcome.Answer.PRESENT);
        }
    }

    /** Dropbox asks by POST: a probe may POST its query as JSON, and only a POST probe carries one. */
    @Test
    void aPostProbeSendsItsJsonQueryAndAGetProbeMayNotCarryOne() throws Exception {
        try (FaultServer server = new FaultServer(r -> new Reply.Respond(409,
                Map.of("Content-Type", "application/json"), NOT_FOUND))) {
            String step = """
                    "request": { "method": "POST", "url": "%s/upload", "body": "x" },
                    "probe": { "kind": "http", "method": "POST", "url": "%s/2/files/get_metadata", "timeout": "PT5S",
                               "json": { "path": "/Archive/{key}.tar.gz" },
                               "response": { "successWhen": { "status": [200, 409] } },
                               "presentWhen": { "status": [200] } }
                    """.formatted(server.base(), server.base());
            StepContext ctx = AnswerWordsTest.ctx(AnswerWordsTest.job(tmp, step), null);

            ProbeOutcome absent = new HttpExecutor(CLOCK).probe(ctx);

            assertThat(absent.answer()).as(absent.message()).isEqualTo(ProbeOutcome.Answer.ABSENT);
            FaultServer.Request asked = server.received().get(0);
            assertThat(asked.method()).isEqualTo("POST");
            assertThat(asked.header("Content-Type")).startsWith("application/json");
            assertThat(asked.bodyText()).isEqualTo("{\"path\":\"/Archive/2026-11-29.tar.gz\"}");

            Path file = tmp.resolve("get.json");
            Files.writeString(file, """
                    { "name": "get", "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "page", "kind": "http", "effect": "unsafe", %s } ] }
                    """.formatted(step.replace("\"method\": \"POST\", \"url\": \"" + server.base() + "/2",
                    "\"method\": \"GET\", \"url\": \"" + server.base() + "/2")));
            assertThat(JobFileLoader.loadFile(file).errors()).singleElement()
                    .satisfies(e -> assertThat(e.message()).contains("json", "POST"));
        }
    }
}
