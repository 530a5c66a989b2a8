package io.keyline.core;

import io.keyline.core.exec.StepContext;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a confirmation binds when read-only steps run again before the confirmed one (their login was renewed): the
 * request as the job writes it with every value known when it was confirmed, the values those steps fetch as where
 * they come from. The fresh values keep it; anything else the operator saw changed does not.
 */
class ConfirmedPayloadTest {

    static final String KEY = "2026-11-29";
    static final Instant T = Instant.parse("2026-11-29T09:00:00Z");

    @TempDir
    Path tmp;

    JobDefinition job(String title) throws Exception {
        Path file = tmp.resolve("wp.json");
        Files.writeString(file, """
                { "name": "wp", "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "draft", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "http://127.0.0.1:9/draft" },
                      "extract": { "text": { "json": "/text" } } },
                    { "id": "nonce", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "http://127.0.0.1:9/wp-admin/post-new.php" },
                      "extract": { "nonce": { "regex": "nonce=([0-9a-f]+)" } } },
                    { "id": "publish", "kind": "http", "effect": "unsafe",
                      "request": { "method": "POST", "url": "http://127.0.0.1:9/wp-json/wp/v2/posts",
                                   "headers": { "X-WP-Nonce": "{steps.nonce.outputs.nonce}" },
                                   "json": { "title": "%s {key}", "content": "{steps.draft.outputs.text}" } } } ] }
                """.formatted(title));
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).isEmpty();
        return r.job();
    }

    static StepContext publish(JobDefinition job, Map<String, Map<String, String>> outputs) {
        return new StepContext(job, job.step("publish"), KEY, "{runId}", 1, outputs, null, UnaryOperator.identity());
    }

    static StepRecord done(String step) {
        return new StepRecord(step, StepStatus.SUCCEEDED, 1, T, Map.of(), T);
    }

    @Test
    void theStepsARenewalSentBackRunFirstAndTheirFreshValuesKeepTheConfirmation() throws Exception {
        JobDefinition job = job("Daily");
        // after the renewal: draft stays finished, nonce runs again, publish's outcome is unknown
        Map<String, StepRecord> records = Map.of("draft", done("draft"),
                "publish", new StepRecord("publish", StepStatus.STARTED, 1, T, Map.of(), T));
        List<String> first = ConfirmedPayload.runFirst(job, "publish", records);
        assertThat(first).containsExactly("nonce");
        String confirmed = ConfirmedPayload.hash(publish(job, Map.of("draft", Map.of("text", "hello"))), first);
        assertThat(confirmed).isNotNull();

        // the confirmed run fetched a nonce of the new login
        StepContext sent = publish(job, Map.of("draft", Map.of("text", "hello"), "nonce", Map.of("nonce", "beef01")));
        assertThat(ConfirmedPayload.now(sent, confirmed)).isEqualTo(confirmed);
        assertThat(ConfirmedPayload.now(publish(job, Map.of("draft", Map.of("text", "hello"), "nonce",
                Map.of("nonce", "c0ffee"))), confirmed)).isEqualTo(confirmed);
    }

    @Test
    void aValueTheOperatorSawOrAChangedJobFileDoesNotKeepIt() throws Exception {
        JobDefinition job = job("Daily");
        String confirmed = ConfirmedPayload.hash(publish(job, Map.of("draft", Map.of("text", "hello"))),
                List.of("nonce"));
        Map<String, Map<String, String>> fresh = Map.of("draft", Map.of("text", "hello"), "nonce",
                Map.of("nonce", "beef01"));

        // the draft that stayed finished was shown as it is: another text is another request
        assertThat(ConfirmedPayload.now(publish(job, Map.of("draft", Map.of("text", "bye"), "nonce",
                Map.of("nonce", "beef01"))), confirmed)).isNotEqualTo(confirmed);
        // the job file's title changed after it was shown
        assertThat(ConfirmedPayload.now(publish(job("Weekly"), fresh), confirmed)).isNotEqualTo(confirmed);
        // another key
        assertThat(ConfirmedPayload.now(new StepContext(job, job.step("publish"), "2026-11-30", "{runId}", 1, fresh,
                null, UnaryOperator.identity()), confirmed)).isNotEqualTo(confirmed);
    }

    @Test
    void aConfirmationOfTheValuesAsTheyWereIsNotKeptByAFreshNonce() throws Exception {
        JobDefinition job = job("Daily");
        Map<String, Map<String, String>> shown = Map.of("draft", Map.of("text", "hello"), "nonce",
                Map.of("nonce", "0ld0ld"));
        // nothing ran first: the operator saw (and confirmed) nonce 0ld0ld
        String confirmed = ConfirmedPayload.hash(publish(job, shown), List.of());
        assertThat(confirmed).isEqualTo(Engine.payloadHash(publish(job, shown)));

        assertThat(ConfirmedPayload.now(publish(job, shown), confirmed)).isEqualTo(confirmed);
        assertThat(ConfirmedPayload.now(publish(job, Map.of("draft", Map.of("text", "hello"), "nonce",
                Map.of("nonce", "beef01"))), confirmed)).isNotEqualTo(confirmed);
    }
}
