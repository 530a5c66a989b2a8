package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job's {@code rateLimit} against a real loopback server: the job's requests to a host keep to the
 * rate whatever its concurrency, and a 429 with Retry-After holds every key of the job, not just the
 * one that got it. The assertions are lower bounds on time (a busy machine only makes them truer);
 * the exact spacing is {@code HostLimitsTest}'s, on a clock the test moves.
 */
class RateLimitTest {

    @TempDir
    Path tmp;
    Workbench wb;
    FaultServer server;
    final List<Long> arrivals = Collections.synchronizedList(new ArrayList<>());
    volatile Function<FaultServer.Request, Reply> answer = r -> Reply.json("{}");

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        server = new FaultServer(r -> {
            arrivals.add(System.nanoTime());
            return answer.apply(r);
        });
    }

    @AfterEach
    void tearDown() throws IOException {
        server.close();
    }

    private void job(String name, String fields) throws IOException {
        wb.job(name, """
                { "name": "%s", "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" }, %s,
                  "retry": { "maxAttempts": 3, "initialDelay": "PT1S", "jitter": 0.0 },
                  "steps": [ { "id": "put", "kind": "http", "effect": "idempotent",
                               "request": { "method": "PUT", "url": "BASE/api/items/{key}" }, "timeout": "PT20S" } ] }
                """.formatted(name, fields), server.base());
    }

    @Test
    void requestsKeepToTheRateWhateverTheConcurrency() throws Exception {
        job("paced", "\"concurrency\": 8, \"rateLimit\": \"20/s\"");

        long t0 = System.nanoTime();
        Result r = wb.cli("run", "--yes", "paced", "--from", "2026-10-01", "--to", "2026-11-09");
        long took = System.nanoTime() - t0;

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(arrivals).hasSize(40);
        // 40 requests at 20/s: the 40th goes 39 slots of 50 ms after the first, at the earliest
        assertThat(took).isGreaterThanOrEqualTo(39 * 50_000_000L);
        List<Long> sorted = new ArrayList<>(arrivals);
        Collections.sort(sorted);
        assertThat(sorted.get(39) - sorted.get(0)).isGreaterThan(30 * 50_000_000L);
    }

    @Test
    void aRetryAfterHoldsEveryKeyOfTheJob() throws Exception {
        job("polite", "\"concurrency\": 4");
        AtomicInteger seen = new AtomicInteger();
        AtomicLong tooManyAt = new AtomicLong();
        answer = r -> {
            int n = seen.incrementAndGet();
            if (n == 1) {
                tooManyAt.set(System.nanoTime());
                return new Reply.Respond(429, Map.of("Retry-After", "2"), "{\"error\":\"slow down\"}");
            }
            if (n <= 4) {
                // the other first requests were in flight already: answered after the 429 reached the client
                sleep(1000);
            }
            return Reply.json("{}");
        };

        Result r = wb.cli("run", "--yes", "polite", "--from", "2026-11-01", "--to", "2026-11-08");

        assertThat(r.exit()).as(r.toString()).isZero();
        JsonNode keys = Json.read(wb.cli("status", "polite", "--json").out(), JsonNode.class);
        assertThat(keys).hasSize(8).allSatisfy(k -> assertThat(k.get("state").asText()).isEqualTo("DONE"));
        List<Long> sorted = new ArrayList<>(arrivals);
        Collections.sort(sorted);
        assertThat(sorted).hasSize(9);
        // requests 5..9 left after the 429: none reached the host before its Retry-After was over
        for (long at : sorted.subList(4, sorted.size())) {
            assertThat(at - tooManyAt.get()).isGreaterThanOrEqualTo(2_000_000_000L);
        }
    }

    @Test
    void aLongRetryAfterParksTheOtherKeysWithoutSending() throws Exception {
        job("parked", "\"concurrency\": 1");
        answer = r -> new Reply.Respond(503, Map.of("Retry-After", "600"), "{\"error\":\"maintenance\"}");

        Result r = wb.cli("run", "--yes", "parked", "--from", "2026-11-01", "--to", "2026-11-03");

        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        assertThat(arrivals).as("only the first key reached the host").hasSize(1);
        JsonNode keys = Json.read(wb.cli("status", "parked", "--json").out(), JsonNode.class);
        assertThat(keys).hasSize(3).allSatisfy(k -> assertThat(k.get("state").asText()).isEqualTo("RETRY_WAIT"));
        assertThat(keys.get(1).get("message").asText()).contains("not sent").contains("Retry-After");
    }

    /**
     * A host's Retry-After pause belongs to the workspace that heard it, not to the JVM: a second state in
     * the same process (the next test, with a site that got the same loopback port) was told "not sent:
     * … asked this job to wait, 86400 s left" by the first one's pause (seen in CI: SiteAnswersTest).
     */
    @Test
    void aPauseHeardByOneWorkspaceDoesNotHoldAnother() throws Exception {
        job("parked", "\"concurrency\": 1");
        answer = r -> new Reply.Respond(503, Map.of("Retry-After", "600"), "{\"error\":\"maintenance\"}");
        assertThat(wb.cli("run", "parked", "--key", "2026-11-01").exit()).isEqualTo(5);
        assertThat(arrivals).hasSize(1);

        answer = r -> Reply.json("{}");
        Workbench other = new Workbench(tmp.resolve("other"));
        other.clock.followSystemClock();
        other.job("parked", """
                { "name": "parked", "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" }, "concurrency": 1,
                  "retry": { "maxAttempts": 3, "initialDelay": "PT1S", "jitter": 0.0 },
                  "steps": [ { "id": "put", "kind": "http", "effect": "idempotent",
                               "request": { "method": "PUT", "url": "BASE/api/items/{key}" }, "timeout": "PT20S" } ] }
                """, server.base());
        Result r = other.cli("run", "parked", "--key", "2026-11-01");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(arrivals).as("the other state's request reached the host").hasSize(2);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
