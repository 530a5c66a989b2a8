package io.keyline.bench;

import io.keyline.core.CredentialProvider;
import io.keyline.core.Engine;
import io.keyline.core.RunOptions;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.StateStore;
import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepKind;
import io.keyline.store.Database;
import io.keyline.store.h2.H2Database;
import io.keyline.store.JdbcStateStore;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * B5: what the durable intent costs. Keys of a job whose middle step is unsafe (so the
 * engine syncs the store after that step's "started" commit, before it acts) run once with the
 * production store and once with the same store whose {@code sync()} does nothing; runs alternate
 * in one process, on fresh H2 files, and the ratio of the medians is the figure.
 */
final class DurabilityBench {
    static final int KEYS = Integer.getInteger("bench.b5.keys", 2_000);
    static final int RUNS = Integer.getInteger("bench.b5.runs", 3);
    static final Path ROOT = Path.of("target", "bench", "b5");

    private DurabilityBench() {
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Path jobs = ROOT.resolve("jobs");
        Files.createDirectories(jobs);
        Path file = jobs.resolve("post.json");
        Files.writeString(file, """
            {
              "name": "post",
              "key": { "type": "date", "zone": "UTC", "start": "1990-01-01" },
              "steps": [
                { "id": "write", "kind": "command", "effect": "none", "command": ["true"] },
                { "id": "publish", "kind": "command", "effect": "unsafe", "command": ["true"] },
                { "id": "archive", "kind": "command", "effect": "none", "command": ["true"] }
              ]
            }
            """);
        JobDefinition job = JobFileLoader.loadFile(file).job();
        List<String> keys = KeyRules.range(job.key(), "1990-01-01", "2099-12-31").subList(0, KEYS);
        List<String> warm = keys.subList(0, Math.min(500, keys.size()));
        Stats.log("B5 warm-up (" + warm.size() + " keys each)");
        engine(job, warm, ROOT.resolve("warm-sync"), true, new AtomicLong());
        engine(job, warm, ROOT.resolve("warm-nosync"), false, new AtomicLong());

        List<Double> synced = new ArrayList<>();
        List<Double> unsynced = new ArrayList<>();
        AtomicLong syncs = new AtomicLong();
        for (int r = 0; r < RUNS; r++) {
            syncs.set(0);
            synced.add(engine(job, keys, ROOT.resolve("sync-" + r), true, syncs));
            unsynced.add(engine(job, keys, ROOT.resolve("nosync-" + r), false, new AtomicLong()));
            Stats.log("B5 run " + r + ": with sync " + Math.round(synced.get(r)) + ", without "
                    + Math.round(unsynced.get(r)) + " keys/s (" + syncs.get() + " syncs for " + keys.size() + " keys)");
            if (syncs.get() != keys.size()) {
                throw new IllegalStateException("B5: expected one sync per key, saw " + syncs.get());
            }
        }
        double with = Stats.figure("durability.unsafe_keys_per_s_with_sync", synced, "keys/s");
        double without = Stats.figure("durability.unsafe_keys_per_s_without_sync", unsynced, "keys/s");
        Stats.print("durability.ratio_with_vs_without_sync", with / without, "x");
    }

    static double engine(JobDefinition job, List<String> keys, Path state, boolean sync, AtomicLong syncs)
            throws Exception {
        Stats.deleteTree(state);
        try (Database db = H2Database.open(state); JdbcStateStore real = new JdbcStateStore(db);
             RunTrace trace = RunTrace.open(state, new PrintStream(OutputStream.nullOutputStream()))) {
            StateStore store = counting(real, sync, syncs);
            Engine engine = new Engine(store, new Executors(Map.of(StepKind.COMMAND, new NoopExecutor())),
                    CredentialProvider.NONE, trace, RunOptions.standard());
            long t0 = System.nanoTime();
            RunReport report = engine.run(job, keys);
            double secs = (System.nanoTime() - t0) / 1e9;
            if (report.count(KeyState.DONE) != keys.size()) {
                throw new IllegalStateException("B5: not every key is done: " + report.exitCode());
            }
            return keys.size() / secs;
        }
    }

    /** The production store; {@code sync()} is counted and, for the baseline, skipped. */
    private static StateStore counting(StateStore real, boolean sync, AtomicLong syncs) {
        return (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(), new Class<?>[] {StateStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("sync") && method.getParameterCount() == 0) {
                        syncs.incrementAndGet();
                        if (!sync) {
                            return null;
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
