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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * B7: a backfill at the speed of the site. 1,000 keys of a job whose one step is an
 * unsafe POST with a probe GET, against a loopback site that answers every request after 50 ms; at
 * concurrency 16 and at concurrency 1. The ideal is the site's time alone: keys x 2 requests x 50 ms
 * / concurrency; {@code backfill.ratio_to_ideal} is the measured time over it. Every key's article
 * must exist exactly once afterwards.
 */
final class BackfillBench {
    static final int KEYS = Integer.getInteger("bench.b7.keys", 1_000);
    static final int KEYS_C1 = Integer.getInteger("bench.b7.keysAtOne", 100);
    static final int CONCURRENCY = Integer.getInteger("bench.b7.concurrency", 16);
    static final int RUNS = Integer.getInteger("bench.b7.runs", 3);
    static final long LATENCY_MS = 50;
    static final Path ROOT = Path.of("target", "bench", "b7");

    private BackfillBench() {
    }

    /** The site: {@code GET /api/articles?date=K} answers {@code {"total": n}}, a POST creates K's article. */
    static final class Site implements AutoCloseable {
        final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
        final FaultServer server;

        Site() throws Exception {
            server = new FaultServer(r -> {
                try {
                    Thread.sleep(LATENCY_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (r.method().equals("GET")) {
                    AtomicInteger n = effects.get(r.queryParam("date"));
                    return Reply.json("{\"total\":" + (n == null ? 0 : n.get()) + "}");
                }
                String key = r.bodyText();
                effects.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                return new Reply.Respond(201, Map.of("Content-Type", "application/json"), "{\"key\":\"" + key + "\"}");
            });
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Files.createDirectories(ROOT);
        List<Double> fast = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> slow = new ArrayList<>();
        try (Site site = new Site()) {
            JobDefinition c16 = job(site, "publish16", CONCURRENCY);
            JobDefinition c1 = job(site, "publish1", 1);
            List<String> keys = KeyRules.range(c16.key(), "1990-01-01", "2099-12-31").subList(0, KEYS);
            Stats.log("B7 warm-up (" + Math.min(200, KEYS) + " keys at concurrency " + CONCURRENCY + ")");
            run(site, c16, keys.subList(0, Math.min(200, KEYS)), ROOT.resolve("warm"));
            double ideal = KEYS * 2.0 * LATENCY_MS / 1000.0 / CONCURRENCY;
            for (int r = 0; r < RUNS; r++) {
                site.effects.clear();
                double secs = run(site, c16, keys, ROOT.resolve("c16-" + r));
                fast.add(KEYS / secs);
                ratios.add(secs / ideal);
                Stats.log("B7 run " + r + ": " + KEYS + " keys at concurrency " + CONCURRENCY + " in "
                        + String.format(java.util.Locale.ROOT, "%.2f", secs) + " s (ideal "
                        + String.format(java.util.Locale.ROOT, "%.2f", ideal) + " s)");
            }
            for (int r = 0; r < RUNS; r++) {
                site.effects.clear();
                List<String> few = keys.subList(0, Math.min(KEYS_C1, KEYS));
                double secs = run(site, c1, few, ROOT.resolve("c1-" + r));
                slow.add(few.size() / secs);
                Stats.log("B7 run " + r + ": " + few.size() + " keys at concurrency 1 in "
                        + String.format(java.util.Locale.ROOT, "%.2f", secs) + " s");
            }
        }
        Stats.figure("backfill.keys_per_s", fast, "keys/s");
        Stats.figure("backfill.ratio_to_ideal", ratios, "x");
        Stats.figure("backfill.keys_per_s_concurrency_1", slow, "keys/s");
    }

    private static JobDefinition job(Site site, String name, int concurrency) throws Exception {
        Path dir = ROOT.resolve("jobs-" + name);
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".json");
        String base = site.server.base();
        Files.writeString(file, """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "1990-01-01" },
              "concurrency": %d,
              "steps": [
                { "id": "publish", "kind": "http", "effect": "unsafe",
                  "request": { "method": "POST", "url": "%s/api/articles", "body": "{key}" },
                  "probe": { "kind": "http", "method": "GET", "url": "%s/api/articles?date={key}",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } } }
              ]
            }
            """.formatted(name, concurrency, base, base));
        return JobFileLoader.loadFile(file).job();
    }

    /** Runs the keys on a fresh state with the production store, executors and trace; returns seconds. */
    private static double run(Site site, JobDefinition job, List<String> keys, Path state) throws Exception {
        Stats.deleteTree(state);
        try (Database db = H2Database.open(state); JdbcStateStore store = new JdbcStateStore(db);
             RunTrace trace = RunTrace.open(state, new PrintStream(OutputStream.nullOutputStream()))) {
            Engine engine = new Engine(store, Executors.standard(Clock.systemUTC()), CredentialProvider.NONE, trace,
                    RunOptions.standard());
            long t0 = System.nanoTime();
            RunReport report = engine.run(job, keys);
            double secs = (System.nanoTime() - t0) / 1e9;
            if (report.count(KeyState.DONE) != keys.size()) {
                throw new IllegalStateException("B7: not every key is done: exit " + report.exitCode());
            }
            for (String k : keys) {
                AtomicInteger n = site.effects.get(k);
                if (n == null || n.get() != 1) {
                    throw new IllegalStateException("B7: " + k + " published " + (n == null ? 0 : n.get()) + " times");
                }
            }
            return secs;
        }
    }
}
