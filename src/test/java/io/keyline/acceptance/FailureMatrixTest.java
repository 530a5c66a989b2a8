package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.FaultServer;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of the failure classification against a real loopback server, through the real command line: the key
 * state and exit code that docs/operations.md names for it, and no effect ever applied twice.
 */
class FailureMatrixTest extends SiteTestBase {

    static final String KEY = "2026-11-29";


    JsonNode status(String job) {
        Result r = wb.cli("status", job, "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        for (JsonNode n : Json.read(r.out(), JsonNode.class)) {
            if (n.get("key").asText().equals(KEY)) {
                return n;
            }
        }
        throw new AssertionError("no key " + KEY + " in " + r.out());
    }

    Result run(String job) {
        return wb.cli("run", job, "--key", KEY);
    }

    // --- RETRYABLE -------------------------------------------------------------------------

    @Test
    void connectionRefusedOnUnsafeStepIsRetriedThenFails() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        wb.job("p", Jobs.publish("p", "unsafe", false, null), "http://127.0.0.1:" + closed);
        Result r = run("p");
        assertThat(r.exit()).as("nothing answered: the environment's failure, not the site's: " + r).isEqualTo(1);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("class").asText()).isEqualTo("RETRYABLE");
        assertThat(st.get("attempts").asInt()).isEqualTo(3);
        assertThat(st.get("message").asText()).contains("failed after 3 attempts").contains("connection refused");
        // backoff 2 s then 4 s, waited in place (jitter 0)
        assertThat(wb.sleeps).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(4));
    }

    @Test
    void status429HonoursRetryAfterAndThenSucceeds() throws IOException {
        site.retryAfterSeconds(30);
        site.failPosts(Fault.STATUS_429);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(wb.sleeps).containsExactly(Duration.ofSeconds(30));
        assertThat(site.posts()).isEqualTo(2);
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void longRetryAfterLeavesKeyInRetryWaitWithDurableNextAttempt() throws IOException {
        site.retryAfterSeconds(600);
        site.failPosts(Fault.STATUS_429);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Instant failedAt = wb.clock.instant();
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("RETRY_WAIT");
        assertThat(Instant.parse(st.get("nextAttemptAt").asText())).isEqualTo(failedAt.plusSeconds(600));
        // a run before the time does nothing and says so
        Result early = run("p");
        assertThat(early.exit()).isEqualTo(5);
        assertThat(site.posts()).isEqualTo(1);
        // after the time, a new process (new CLI invocation) honours the stored time and completes
        wb.clock.advance(Duration.ofSeconds(601));
        Result later = run("p");
        assertThat(later.exit()).as(later.toString()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void commandExit75IsRetried() throws IOException {
        wb.job("c", Jobs.command("c", "none",
                "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; [ $n -ge 1 ] || exit 75", "PT10S"), null);
        Result r = run("c");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(wb.sleeps).hasSize(1);
    }

    // --- TRANSIENT_AFTER_SEND ---------------------------------------------------------------

    @Test
    void status503OnIdempotentStepIsRetried() throws IOException {
        site.failPosts(Fault.STATUS_503);
        wb.job("p", Jobs.publish("p", "idempotent", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts()).isEqualTo(2);
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void readTimeoutAfterActingOnUnsafeStepIsReconciledByProbeNotResent() throws IOException {
        site.failPosts(Fault.HANG_AFTER_ACTING);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts()).isEqualTo(1);
        assertThat(site.effects(KEY)).isEqualTo(1);
        Result tl = wb.cli("timeline", "p", KEY);
        assertThat(tl.out()).contains("STEP_FAILED").contains("AMBIGUOUS").contains("STEP_RECONCILED");
    }

    @Test
    void status500AfterActingWithoutProbeWaitsForConfirmationAndIsNeverResent() throws IOException {
        site.failPosts(Fault.STATUS_500_AFTER_ACTING);
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(status("p").get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        Result again = run("p"); assertThat(again.exit()).as(again.toString()).isEqualTo(4);
        assertThat(site.posts()).isEqualTo(1);
        // the operator checks the site, sees the article, and marks the key done
        Result md = wb.cli("mark-done", "p", KEY, "--note", "article is online");
        assertThat(md.exit()).as(md.toString()).isZero();
        assertThat(run("p").exit()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void resetAfterReceiveOnUnsafeStepAsksProbeThenWaitsForConfirmation() throws IOException {
        site.failPosts(Fault.RESET_AFTER_RECEIVE);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(st.get("message").asText()).contains("absent");
        assertThat(site.posts()).isEqualTo(1);
        Result c = wb.cli("confirm", "p", KEY, "--note", "not on the site, send it");
        assertThat(c.exit()).as(c.toString()).isZero();
        assertThat(site.posts()).isEqualTo(2);
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void status503OnUnsafeStepIsARefusalAndIsSentAgain() throws IOException {
        // 503: the site says it did not process the request (RETRYABLE, also for unsafe steps)
        site.failPosts(Fault.STATUS_503);
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts()).isEqualTo(2);
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(wb.sleeps).as("backoff 2 s is longer than Retry-After: 1").containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void status502OnUnsafeStepIsAmbiguous() throws IOException {
        site.failPosts(Fault.STATUS_502);
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(st.get("class").asText()).isEqualTo("AMBIGUOUS");
        assertThat(site.posts()).isEqualTo(1);
    }

    @Test
    void status501IsFatal() throws IOException {
        site.server().handler(req -> FaultServer.Reply.status(501, "{\"error\":\"not implemented\"}"));
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(status("p").get("class").asText()).isEqualTo("FATAL");
        assertThat(site.posts()).isEqualTo(1);
    }

    @Test
    void readTimeoutBeforeActingOnSafeStepIsRetried() throws IOException {
        site.failPosts(Fault.HANG_BEFORE_ACTING);
        wb.job("p", Jobs.publish("p", "idempotent", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.posts()).isEqualTo(2);
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void commandKilledByTimeoutOnUnsafeStepWaitsForConfirmation() throws IOException {
        wb.job("c", Jobs.command("c", "unsafe", "echo sending; sleep 30", "PT0.5S"), null);
        Result r = run("c");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status("c");
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(st.get("message").asText()).contains("killed after timeout");
    }

    @Test
    void probeThatCannotAnswerNeverLetsTheUnsafeStepRun() throws IOException {
        site.failGets(Fault.STATUS_503, Fault.STATUS_503, Fault.STATUS_503);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(site.posts()).isZero();
        assertThat(status("p").get("message").asText()).contains("inconclusive");
    }

    @Test
    void probeRefusedWith422AfterAnUnknownOutcomeWaitsForAPersonAtOnce() throws IOException {
        site.failPosts(Fault.STATUS_500_AFTER_ACTING);
        // the probe asked after the lost answer is refused, and would be each time it is asked
        site.onPost(req -> site.failGets(java.util.Collections.nCopies(20, Fault.STATUS_422).toArray(Fault[]::new)));
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(st.get("message").asText()).contains("HTTP 422").contains("title missing");
        assertThat(wb.sleeps).as("a refusal does not change when asked again").isEmpty();
        assertThat(site.gets()).as("asked before the post and once after").isEqualTo(2);
        assertThat(site.posts()).isEqualTo(1);
    }

    // --- AUTH, FATAL, UNKNOWN ------------------------------------------------------------------

    @Test
    void status401ParksTheKeyAndIsNeverRetried() throws IOException {
        site.failPosts(Fault.STATUS_401);
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(status("p").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(site.posts()).isEqualTo(1);
        assertThat(wb.sleeps).isEmpty();
    }

    @Test
    void missingCredentialParksTheKeyBeforeAnythingIsSent() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", true, "\"credential\": \"site-cookie\","), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo("site-cookie");
        assertThat(site.server().received()).isEmpty();
    }

    @Test
    void commandExit77ParksTheKey() throws IOException {
        wb.job("c", Jobs.command("c", "none", "echo 'login expired' >&2; exit 77", "PT10S"), null);
        Result r = run("c");
        assertThat(r.exit()).isEqualTo(4);
        assertThat(status("c").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
    }

    @Test
    void status404FailsTheKeyWithoutRetry() throws IOException {
        site.failPosts(Fault.STATUS_404);
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        Result r = run("p");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status("p");
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("class").asText()).isEqualTo("FATAL");
        assertThat(site.posts()).isEqualTo(1);
        Result tl = wb.cli("timeline", "p", KEY, "--json");
        assertThat(tl.out()).contains("\"status\" : 404").contains("no such site");
    }

    @Test
    void commandExit64IsFatalAndOtherExitCodesAreUnknown() throws IOException {
        wb.job("a", Jobs.command("a", "none", "exit 64", "PT10S"), null);
        wb.job("b", Jobs.command("b", "none", "echo 'disk on fire' >&2; exit 3", "PT10S"), null);
        assertThat(run("a").exit()).isEqualTo(2);
        assertThat(status("a").get("class").asText()).isEqualTo("FATAL");
        assertThat(run("b").exit()).isEqualTo(2);
        JsonNode b = status("b");
        assertThat(b.get("class").asText()).isEqualTo("UNKNOWN");
        assertThat(b.get("message").asText()).contains("disk on fire");
    }

    @Test
    void commandOutcomeLineOverridesTheExitCode() throws IOException {
        wb.job("c", Jobs.command("c", "unsafe",
                "echo '{{\"outcome\":\"ambiguous\",\"message\":\"upload interrupted\"}}'; exit 0", "PT10S"), null);
        Result r = run("c");
        assertThat(r.exit()).isEqualTo(4);
        assertThat(status("c").get("message").asText()).contains("upload interrupted");
    }
}
