package io.keyline.bench;

import io.keyline.core.CredentialProvider;
import io.keyline.core.Engine;
import io.keyline.core.LeaseKeeper;
import io.keyline.core.RunOptions;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.core.Worker;
import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepKind;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.store.StateLocation;
import io.keyline.testing.TestPostgres;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * B6: workers on one PostgreSQL state. 1, 2 and 4 workers, each with its own database pool,
 * lease keeper (owner), engine and scheduler, as separate {@code keyline worker} processes would have,
 * run the same pending keys of B1's job (3 no-op steps); keys/s from the first claim to the last key
 * done, and the claims that lost to another worker per 1,000 keys: with claims picked by
 * {@code FOR UPDATE SKIP LOCKED} (what workers do), and with version-only claims of the same keys in the
 * same order (what they did before). B1's H2 engine figure is measured again in the same run, beside it.
 * Workers are threads of this JVM (the bench executor replaces the command steps: child processes
 * could not use it); the database sessions, locks and commits are those of separate processes.
 */
final class WorkersBench {
    static final int KEYS = Integer.getInteger("bench.workers.keys", 2000);
    static final int RUNS = Integer.getInteger("bench.workers.runs", 2);
    static final Path ROOT = Path.of("target", "bench", "workers");

    private WorkersBench() {
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Files.createDirectories(ROOT);
        Path jobs = ROOT.resolve("jobs");
        Files.createDirectories(jobs);
        Path file = jobs.resolve("noop.json");
        Files.writeString(file, """
            {
              "name": "noop",
              "key": { "type": "date", "zone": "UTC", "start": "1990-01-01" },
              "steps": [
                { "id": "a", "kind": "command", "effect": "none", "command": ["true"] },
                { "id": "b", "kind": "command", "effect": "none", "command": ["true"] },
                { "id": "c", "kind": "command", "effect": "none", "command": ["true"] }
              ]
            }
            """);
        JobDefinition job = JobFileLoader.loadFile(file).job();
        List<String> keys = KeyRules.range(job.key(), "1990-01-01", "2099-12-31").subList(0, KEYS);

        Stats.log("B6 warm-up (200 keys, 2 workers)");
        workers(job, jobs, keys.subList(0, 200), 2, true);

        List<Double> h2 = new ArrayList<>();
        for (int r = 0; r < RUNS; r++) {
            h2.add(EngineBench.engine(job, keys, ROOT.resolve("h2-" + r)));
        }
        Stats.figure("workers.h2_engine_keys_per_s", h2, "keys/s");
        for (int n : new int[] {1, 2, 4}) {
            List<Double> rate = new ArrayList<>();
            List<Double> conflicts = new ArrayList<>();
            for (int r = 0; r < RUNS; r++) {
                double[] res = workers(job, jobs, keys, n, true);
                rate.add(res[0]);
                conflicts.add(res[1]);
                Stats.log("B6 " + n + " worker(s), run " + r + ": " + Math.round(res[0]) + " keys/s, "
                        + res[1] + " conflicts per 1,000 keys");
            }
            Stats.figure("workers.keys_per_s." + n, rate, "keys/s");
            Stats.figure("workers.claim_conflicts_per_1000." + n, conflicts, "conflicts");
        }
        List<Double> versionOnly = new ArrayList<>();
        List<Double> versionOnlyRate = new ArrayList<>();
        for (int r = 0; r < RUNS; r++) {
            double[] res = workers(job, jobs, keys, 4, false);
            versionOnlyRate.add(res[0]);
            versionOnly.add(res[1]);
            Stats.log("B6 4 workers, version-only claims, run " + r + ": " + Math.round(res[0]) + " keys/s, "
                    + res[1] + " conflicts per 1,000 keys");
        }
        Stats.figure("workers.keys_per_s.4_version_only", versionOnlyRate, "keys/s");
        Stats.figure("workers.claim_conflicts_per_1000.4_version_only", versionOnly, "conflicts");
    }

    /**
     * {@code n} workers on a new PostgreSQL database with {@code keys} pending; each ticks until idle.
     *
     * @return {keys per second, claim conflicts per 1,000 keys}
     */
    static double[] workers(JobDefinition job, Path jobs, List<String> keys, int n, boolean picking) throws Exception {
        String url = TestPostgres.newDatabase();
        Map<String, String> env = Map.of("HOME", ROOT.toAbsolutePath().toString(),
                "XDG_STATE_HOME", ROOT.resolve("xdg").toAbsolutePath().toString());
        StateLocation where = StateLocation.parse(url, env);
        try (Database db = io.keyline.workspace.Workspace.open(where); JdbcStateStore seed = new JdbcStateStore(db)) {
            for (String k : keys) {
                seed.ensure(KeyRecord.fresh(job.name(), k, java.time.Instant.now()));
            }
        }
        List<Database> dbs = new ArrayList<>();
        List<JdbcStateStore> stores = new ArrayList<>();
        List<LeaseKeeper> keepers = new ArrayList<>();
        List<Callable<Integer>> loops = new ArrayList<>();
        JobCatalog catalog = JobFileLoader.loadFolder(jobs);
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        for (int i = 0; i < n; i++) {
            Database db = io.keyline.workspace.Workspace.open(where);
            JdbcStateStore store = new JdbcStateStore(db);
            RunOptions options = RunOptions.standard();
            LeaseKeeper keeper = new LeaseKeeper(store, options, "worker");
            keeper.start();
            RunTrace trace = RunTrace.open(ROOT.resolve("xdg").resolve("w" + i), nowhere);
            Engine engine = new Engine(store, new Executors(Map.of(StepKind.COMMAND, new NoopExecutor())),
                    CredentialProvider.NONE, trace, options, keeper);
            Scheduler scheduler = new Scheduler(() -> catalog, store, store, store, engine, options.clock(), Duration.ofDays(7))
                    .picking(picking);
            Worker w = new Worker(scheduler, engine, Duration.ofMillis(200), r -> { }, m -> { });
            dbs.add(db);
            stores.add(store);
            keepers.add(keeper);
            loops.add(() -> w.run(true));
        }
        ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(n);
        long t0 = System.nanoTime();
        List<Future<Integer>> done = pool.invokeAll(loops);
        double secs = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        int ran = 0;
        for (Future<Integer> f : done) {
            ran += f.get();
        }
        long conflicts = stores.stream().mapToLong(JdbcStateStore::claimConflicts).sum();
        int doneKeys;
        try (Database db = io.keyline.workspace.Workspace.open(where); JdbcStateStore check = new JdbcStateStore(db)) {
            doneKeys = check.countsByState(job.name()).getOrDefault(KeyState.DONE, 0);
        }
        for (int i = 0; i < n; i++) {
            keepers.get(i).close();
            stores.get(i).close();
            dbs.get(i).close();
        }
        // version-only claims count a lost claim as a run too (it was started): only the done keys must add up
        if (doneKeys != keys.size() || picking && ran != keys.size()) {
            throw new IllegalStateException("workers: " + doneKeys + " keys done, " + ran + " runs of " + keys.size()
                    + " keys");
        }
        return new double[] {keys.size() / secs, conflicts * 1000.0 / keys.size()};
    }
}
