package io.keyline.bench;

import io.keyline.core.CredentialProvider;
import io.keyline.core.Engine;
import io.keyline.core.RunOptions;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.store.Database;
import io.keyline.store.h2.H2Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * B8: the per-host rate limit under load. 300 keys of a job with one idempotent PUT, {@code "rateLimit":
 * "50/s"}, concurrency 16, against a loopback site that answers at once and notes when each request
 * arrived. The rate is (requests - 1) over the time from the first arrival to the last;
 * {@code ratelimit.error_pct} is its distance from 50/s, {@code ratelimit.max_per_s} the most requests
 * in any one-second window (starting at an arrival).
 */
final class RateLimitBench {
    static final int REQUESTS = Integer.getInteger("bench.b8.requests", 300);
    static final int RATE = 50;
    static final Path ROOT = Path.of("target", "bench", "b8");

    private RateLimitBench() {
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Path jobs = ROOT.resolve("jobs");
        Files.createDirectories(jobs);
        List<Long> arrivals = Collections.synchronizedList(new ArrayList<>());
        try (FaultServer site = new FaultServer(r -> {
            arrivals.add(System.nanoTime());
            return Reply.json("{}");
        })) {
            Path file = jobs.resolve("paced.json");
            Files.writeString(file, """
                {
                  "name": "paced",
                  "key": { "type": "date", "zone": "UTC", "start": "1990-01-01" },
                  "concurrency": 16,
                  "rateLimit": "%d/s",
                  "steps": [
                    { "id": "put", "kind": "http", "effect": "idempotent",
                      "request": { "method": "PUT", "url": "%s/api/items/{key}" } }
                  ]
                }
                """.formatted(RATE, site.base()));
            JobDefinition job = JobFileLoader.loadFile(file).job();
            List<String> keys = KeyRules.range(job.key(), "1990-01-01", "2099-12-31");
            Stats.log("B8 warm-up (50 requests)");
            run(job, keys.subList(0, 50), ROOT.resolve("warm"));
            arrivals.clear();
            long t0 = System.nanoTime();
            run(job, keys.subList(0, REQUESTS), ROOT.resolve("measured"));
            double secs = (System.nanoTime() - t0) / 1e9;
            List<Long> at = new ArrayList<>(arrivals);
            Collections.sort(at);
            if (at.size() != REQUESTS) {
                throw new IllegalStateException("B8: expected " + REQUESTS + " requests, the site saw " + at.size());
            }
            double rate = (at.size() - 1) / ((at.get(at.size() - 1) - at.get(0)) / 1e9);
            int max = 0;
            int j = 0;
            for (int i = 0; i < at.size(); i++) {
                while (j < at.size() && at.get(j) - at.get(i) < 1_000_000_000L) {
                    j++;
                }
                max = Math.max(max, j - i);
            }
            Stats.log("B8 " + REQUESTS + " requests at \"" + RATE + "/s\", concurrency 16: "
                    + String.format(Locale.ROOT, "%.2f", rate) + " requests/s from first to last, run took "
                    + String.format(Locale.ROOT, "%.2f", secs) + " s");
            Stats.print("ratelimit.rate_per_s", rate, "requests/s");
            Stats.print("ratelimit.error_pct", Math.abs(rate - RATE) / RATE * 100, "%");
            Stats.print("ratelimit.max_per_s", max, "requests in any 1 s");
        }
    }

    private static void run(JobDefinition job, List<String> keys, Path state) throws Exception {
        Stats.deleteTree(state);
        try (Database db = H2Database.open(state); JdbcStateStore store = new JdbcStateStore(db);
             RunTrace trace = RunTrace.open(state, new PrintStream(OutputStream.nullOutputStream()))) {
            Engine engine = new Engine(store, Executors.standard(Clock.systemUTC()), CredentialProvider.NONE, trace,
                    RunOptions.standard());
            RunReport report = engine.run(job, keys);
            if (report.count(KeyState.DONE) != keys.size()) {
                throw new IllegalStateException("B8: not every key is done: exit " + report.exitCode());
            }
        }
    }
}
