package io.keyline.bench;

import io.keyline.core.CredentialProvider;
import io.keyline.core.Engine;
import io.keyline.core.Plan;
import io.keyline.core.Planner;
import io.keyline.core.RunOptions;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.StepKind;
import io.keyline.store.Database;
import io.keyline.store.h2.H2Database;
import io.keyline.store.JdbcStateStore;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** B2: plan and run over 100,000 keys that are all DONE (nothing to execute). */
final class RerunBench {
    static final int N = Integer.getInteger("bench.b2.keys", 100_000);
    static final int RUNS = Integer.getInteger("bench.b2.runs", 5);
    static final Path ROOT = Path.of("target", "bench", "b2");

    private RerunBench() {
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Path jobs = ROOT.resolve("jobs");
        Files.createDirectories(jobs);
        Path file = jobs.resolve("big.json");
        Files.writeString(file, """
            {
              "name": "big",
              "key": { "type": "date", "zone": "UTC", "start": "1700-01-01" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["true"] } ]
            }
            """);
        JobDefinition job = JobFileLoader.loadFile(file).job();
        List<String> keys = KeyRules.range(job.key(), "1700-01-01", "2099-12-31").subList(0, N);
        Path state = ROOT.resolve("state");
        try (Database db = H2Database.open(state); JdbcStateStore store = new JdbcStateStore(db);
             RunTrace trace = RunTrace.open(state, new PrintStream(OutputStream.nullOutputStream()))) {
            seedDone(db, keys);
            Planner planner = new Planner(store, store, store, store, CredentialProvider.NONE, Clock.systemUTC(), null);
            Engine engine = new Engine(store, new Executors(Map.of(StepKind.COMMAND, new NoopExecutor())),
                    CredentialProvider.NONE, trace, RunOptions.standard());
            List<Double> rates = new ArrayList<>();
            List<Double> planMs = new ArrayList<>();
            List<Double> runMs = new ArrayList<>();
            for (int i = -2; i < RUNS; i++) {
                long t0 = System.nanoTime();
                Plan plan = planner.plan(job, keys);
                long t1 = System.nanoTime();
                RunReport r = engine.run(job, keys);
                long t2 = System.nanoTime();
                if (r.exitCode() != 0 || plan.keys().size() != N) {
                    throw new IllegalStateException("rerun: exit " + r.exitCode());
                }
                if (i >= 0) {
                    rates.add(N / ((t2 - t0) / 1e9));
                    planMs.add((t1 - t0) / 1e6);
                    runMs.add((t2 - t1) / 1e6);
                }
            }
            Stats.figure("rerun.keys_per_s", rates, "keys/s");
            Stats.figure("rerun.plan_ms", planMs, "ms");
            Stats.figure("rerun.run_ms", runMs, "ms");
        }
    }

    static void seedDone(Database db, List<String> keys) throws Exception {
        long now = System.currentTimeMillis();
        try (Connection c = db.connection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_state (job, key_value, state, attempts, "
                    + "message, version, created_at, updated_at) VALUES ('big', ?, 'DONE', 0, 'all 1 steps done', 3, ?, ?)")) {
                int n = 0;
                for (String k : keys) {
                    ps.setString(1, k);
                    ps.setLong(2, now);
                    ps.setLong(3, now);
                    ps.addBatch();
                    if (++n % 5_000 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }
}
