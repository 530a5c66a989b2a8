package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.workspace.Workspace;
import io.keyline.core.Engine;
import io.keyline.core.json.Json;
import io.keyline.core.RunReport;
import io.keyline.core.RunRequest;
import io.keyline.core.RunTrace;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job's {@code concurrency}: up to N keys of a job in flight at once against a real loopback server,
 * never more; the per-key guarantees hold (each effect once, a rerun sends nothing); the report and
 * the trace stay in target order and name the key; a stop request lets keys in flight finish their
 * step and leaves the rest untouched.
 */
class ParallelKeysTest extends SiteTestBase {

    static final String FROM = "2026-11-01";

    /** A server that counts requests in flight: each waits (at most {@code holdMillis}) for {@code gather} to be in flight. */
    private FaultServer items;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final Map<String, AtomicInteger> puts = new ConcurrentHashMap<>();
    private volatile int gather = 1;
    private volatile long holdMillis = 3000;
    private volatile Consumer<String> onArrival = k -> { };

    @BeforeEach
    void itemServer() throws IOException {
        wb.clock.followSystemClock();
        items = new FaultServer(r -> {
            String key = r.path().substring(r.path().lastIndexOf('/') + 1);
            puts.computeIfAbsent(r.method() + " " + r.path(), k -> new AtomicInteger()).incrementAndGet();
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            try {
                onArrival.accept(key);
                long deadline = System.nanoTime() + holdMillis * 1_000_000L;
                while (inFlight.get() < gather && System.nanoTime() < deadline) {
                    Thread.sleep(2);
                }
                return Reply.json("{\"ok\":true}");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Reply.status(500, "{}");
            } finally {
                inFlight.decrementAndGet();
            }
        });
    }

    @AfterEach
    void closeItems() throws IOException {
        items.close();
    }

    private void itemsJob(String name, String extra, int steps) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= steps; i++) {
            s.append(i > 1 ? ",\n" : "").append("""
                    { "id": "put%d", "kind": "http", "effect": "idempotent",
                      "request": { "method": "PUT", "url": "BASE/api/step%d/{key}" }, "timeout": "PT20S" }""".formatted(i, i));
        }
        wb.job(name, """
                { "name": "%s", "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" }, %s
                  "steps": [ %s ] }
                """.formatted(name, extra == null ? "" : extra + ",", s), items.base());
    }

    @Test
    void upToConcurrencyKeysAreInFlightAtOnceAndNeverMore() throws Exception {
        itemsJob("fan", "\"concurrency\": 4", 1);
        gather = 4; // every request waits until four are in flight: only four keys at once get there

        Result r = wb.cli("run", "--yes", "fan", "--from", FROM, "--to", "2026-11-12");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(maxInFlight.get()).isEqualTo(4);
        assertThat(puts).hasSize(12).allSatisfy((k, n) -> assertThat(n.get()).as(k).isEqualTo(1));
        // one trace line per step execution, naming its key
        for (String day : KeyRules.range(job("fan").key(), FROM, "2026-11-12")) {
            assertThat(r.out()).containsOnlyOnce(" fan " + day + "  put1 #1  ok");
        }
        JsonNode status = Json.read(wb.cli("status", "fan", "--json").out(), JsonNode.class);
        assertThat(status).hasSize(12).allSatisfy(k -> assertThat(k.get("state").asText()).isEqualTo("DONE"));
    }

    @Test
    void withoutConcurrencyKeysRunOneAfterAnother() throws Exception {
        itemsJob("single", null, 1);
        gather = 2;
        holdMillis = 100; // a second request in flight would be let through at once and counted

        Result r = wb.cli("run", "--yes", "single", "--from", FROM, "--to", "2026-11-04");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(maxInFlight.get()).isEqualTo(1);
        assertThat(puts).hasSize(4);
    }

    @Test
    void unsafeKeysInParallelAreSentOnceEachAndNeverAgain() throws Exception {
        site.postDelayMillis(30);
        wb.job("pub", Jobs.publish("pub", "unsafe", true, null).replaceFirst("\"steps\"", "\"concurrency\": 8, \"steps\""),
                site.base());

        Result r = wb.cli("run", "--yes", "pub", "--from", FROM, "--to", "2026-11-24");
        Result again = wb.cli("run", "--yes", "pub", "--from", FROM, "--to", "2026-11-24");

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(site.allEffects()).hasSize(24).allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));
        assertThat(site.posts()).isEqualTo(24);
        assertThat(site.gets()).as("one probe per key, none on the rerun").isEqualTo(24);
    }

    @Test
    void theReportIsInTargetOrderWhateverOrderKeysFinishIn() throws Exception {
        itemsJob("order", "\"concurrency\": 3", 1);
        // the first key of each batch of three is the slowest: keys finish out of order
        gather = 1;
        onArrival = k -> {
            if (k.endsWith("1") || k.endsWith("4") || k.endsWith("7")) {
                try {
                    Thread.sleep(150);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            JobDefinition job = ws.catalog().job("order").orElseThrow();
            List<String> keys = KeyRules.range(job.key(), FROM, "2026-11-09");
            RunReport report = ws.engine(RunTrace.NONE).run(job, keys, RunRequest.plain(false, "--from"));

            assertThat(report.keys()).extracting(KeyRecord::key).containsExactlyElementsOf(keys);
            assertThat(report.keys()).allSatisfy(k -> assertThat(k.state()).isEqualTo(KeyState.DONE));
            assertThat(report.ran()).isEqualTo(9);
        }
    }

    @Test
    void aStopLetsKeysInFlightFinishTheirStepAndStartsNoOther() throws Exception {
        itemsJob("halt", "\"concurrency\": 2", 2);
        gather = 1;
        AtomicReference<Engine> engine = new AtomicReference<>();
        onArrival = k -> engine.get().stopStarting("stopped by SIGTERM");
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            JobDefinition job = ws.catalog().job("halt").orElseThrow();
            List<String> keys = KeyRules.range(job.key(), FROM, "2026-11-10");
            engine.set(ws.engine(RunTrace.NONE));

            RunReport report = engine.get().run(job, keys, RunRequest.plain(false, "--from"));

            // the keys in flight finished the step they were in (its request was answered), then stopped
            // at the step boundary, back to PENDING; no key started after the stop. A key the other worker
            // had claimed but whose step had not begun when the stop came stops before it (no step: on a
            // busy machine the first request can arrive in between)
            List<KeyRecord> ran = report.keys();
            assertThat(ran).isNotEmpty().hasSizeLessThanOrEqualTo(2);
            assertThat(ran).allSatisfy(k -> assertThat(k.state()).isEqualTo(KeyState.PENDING));
            List<String> withStep = ran.stream().map(KeyRecord::key)
                    .filter(k -> !ws.store().steps("halt", k).isEmpty()).toList();
            for (String k : withStep) {
                assertThat(ws.store().steps("halt", k)).as(k).containsOnlyKeys("put1");
            }
            assertThat(withStep).as("the key whose request stopped the run").isNotEmpty();
            assertThat(report.notStarted()).hasSize(keys.size() - ran.size());
            assertThat(puts.keySet()).allMatch(p -> p.startsWith("PUT /api/step1/")).hasSize(withStep.size());
            assertThat(report.exitCode()).as("the code of what finished: a key is still to finish")
                    .isEqualTo(RunReport.RETRY_PENDING);
            assertThat(report.stopped()).isEqualTo("stopped by SIGTERM: " + report.notStarted().size()
                    + " keys not started");
            for (String k : report.notStarted()) {
                assertThat(ws.store().key("halt", k)).as(k).isEmpty();
            }
            List<String> events = new ArrayList<>();
            ws.store().events("halt", ran.get(0).key()).forEach(e -> events.add(e.type() + " " + e.message()));
            assertThat(events).last().asString().startsWith("YIELDED stopped by SIGTERM; stopped before step put2");
        }
    }

    private JobDefinition job(String name) {
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            return ws.catalog().job(name).orElseThrow();
        }
    }
}
