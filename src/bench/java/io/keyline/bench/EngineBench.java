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
import io.keyline.domain.StepKind;
import io.keyline.store.Database;
import io.keyline.store.h2.H2Database;
import io.keyline.store.JdbcStateStore;
import org.h2.jdbcx.JdbcConnectionPool;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.Job;
import org.springframework.batch.core.JobExecution;
import org.springframework.batch.core.JobParametersBuilder;
import org.springframework.batch.core.Step;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.launch.support.TaskExecutorJobLauncher;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JobRepositoryFactoryBean;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.repeat.RepeatStatus;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * B1: 10,000 keys x 3 no-op {@code none} steps (concurrency 1) on a fresh H2 file with the production
 * settings, against (a) a raw-JDBC loop that writes the same rows with the engine's own commit points
 * and (b) Spring Batch 5.2 running the same three-step job once per key on its own H2 job repository.
 * The ratios are taken per run (each run measures the three back to back) and their median printed.
 */
final class EngineBench {
    static final int KEYS = Integer.getInteger("bench.b1.keys", 10_000);
    static final int SB_KEYS = Integer.getInteger("bench.b1.sbKeys", KEYS);
    static final int RUNS = Integer.getInteger("bench.b1.runs", 5);
    static final int WARMUP = Integer.getInteger("bench.b1.warmup", 1_000);
    static final Path ROOT = Path.of("target", "bench", "b1");
    /** The raw loop's run id, of the engine's form (a time and six hex digits). */
    private static final String RAW_RUN = "20261205T014405-4ffd68";

    private EngineBench() {
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Files.createDirectories(ROOT);
        JobDefinition job = noopJob(ROOT);
        List<String> keys = KeyRules.range(job.key(), "1990-01-01", "2099-12-31").subList(0, KEYS);
        List<String> warm = keys.subList(0, Math.min(WARMUP, keys.size()));

        Stats.log("B1 warm-up (" + warm.size() + " keys each)");
        engine(job, warm, ROOT.resolve("warm-engine"));
        raw(warm, ROOT.resolve("warm-raw"));
        springBatch(warm, ROOT.resolve("warm-sb"));
        // deleted now, as each run's below: their dirty pages would be written back while the first run measures
        for (String d : List.of("warm-engine", "warm-raw", "warm-sb")) {
            Stats.deleteTree(ROOT.resolve(d));
        }

        List<Double> eng = new ArrayList<>();
        List<Double> raw = new ArrayList<>();
        List<Double> sb = new ArrayList<>();
        for (int r = 0; r < RUNS; r++) {
            eng.add(engine(job, keys, ROOT.resolve("engine-" + r)));
            raw.add(raw(keys, ROOT.resolve("raw-" + r)));
            sb.add(springBatch(keys.subList(0, SB_KEYS), ROOT.resolve("sb-" + r)));
            Stats.log("B1 run " + r + ": engine " + Math.round(eng.get(r)) + ", raw " + Math.round(raw.get(r))
                    + ", spring batch " + Math.round(sb.get(r)) + " keys/s");
            // deleted now: its dirty pages are not written back to the disk while the next run measures
            Stats.log("B1 run " + r + " state files after close: engine " + megabytes(ROOT.resolve("engine-" + r)
                    .resolve("keyline.mv.db")) + " MB, raw " + megabytes(ROOT.resolve("raw-" + r).resolve("keyline.mv.db"))
                    + " MB");
            for (String d : List.of("engine-", "raw-", "sb-")) {
                Stats.deleteTree(ROOT.resolve(d + r));
            }
        }
        double e = Stats.figure("engine.keys_per_s", eng, "keys/s");
        Stats.figure("engine.raw_keys_per_s", raw, "keys/s");
        Stats.figure("engine.springbatch_keys_per_s", sb, "keys/s");
        // ratios per run (engine and its comparison measured back to back), then their median
        List<Double> vsRaw = new ArrayList<>();
        List<Double> vsSb = new ArrayList<>();
        for (int r = 0; r < RUNS; r++) {
            vsRaw.add(eng.get(r) / raw.get(r));
            vsSb.add(eng.get(r) / sb.get(r));
        }
        Stats.log("B1 engine/raw per run: " + Stats.list(vsRaw) + "; engine/spring batch per run: " + Stats.list(vsSb));
        Stats.figure("engine.ratio_vs_raw", vsRaw, "x");
        Stats.figure("engine.ratio_vs_springbatch", vsSb, "x");
        // what engine/spring batch would be if the engine cost nothing above its commits: its ceiling on this machine
        List<Double> rawVsSb = new ArrayList<>();
        for (int r = 0; r < RUNS; r++) {
            rawVsSb.add(raw.get(r) / sb.get(r));
        }
        Stats.figure("engine.raw_ratio_vs_springbatch", rawVsSb, "x");
        Stats.log("B1 engine " + Math.round(e) + " keys/s at concurrency 1, " + keys.size() + " keys x 3 none steps");
    }

    /** The job of B1: three no-op {@code none} steps, date keys from 1990-01-01, its file in {@code root/jobs}. */
    static JobDefinition noopJob(Path root) throws java.io.IOException {
        Path jobs = root.resolve("jobs");
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
        return JobFileLoader.loadFile(file).job();
    }

    private static long megabytes(Path file) throws java.io.IOException {
        return Files.isRegularFile(file) ? Files.size(file) / (1024 * 1024) : 0;
    }

    /** The size of the state file of the last {@link #engine} run, taken before it closed the state. */
    static volatile long lastFileBytes;

    /** Keyline: the real engine, store and trace (run log on disk), the bench executor for COMMAND. */
    static double engine(JobDefinition job, List<String> keys, Path state) throws Exception {
        Stats.deleteTree(state);
        try (Database db = H2Database.open(state); JdbcStateStore store = new JdbcStateStore(db);
             RunTrace trace = RunTrace.open(state, new PrintStream(OutputStream.nullOutputStream()))) {
            Engine engine = new Engine(store, new Executors(Map.of(StepKind.COMMAND, new NoopExecutor())),
                    CredentialProvider.NONE, trace, RunOptions.standard());
            long t0 = System.nanoTime();
            RunReport report = engine.run(job, keys);
            double secs = (System.nanoTime() - t0) / 1e9;
            if (report.count(KeyState.DONE) != keys.size()) {
                throw new IllegalStateException("engine: not every key is done: " + report.exitCode());
            }
            lastFileBytes = Files.size(state.resolve("keyline.mv.db"));
            Stats.log("B1 engine state file before close: " + lastFileBytes / (1024 * 1024) + " MB");
            return keys.size() / secs;
        }
    }

    /**
     * The lower bound: per key the same rows and the same commit points as the engine for three
     * {@code none} steps (docs/durability.md): the claim (inserting the key) on its own, each step's
     * "succeeded" (a safe step has no "started" commit), the last one with "done": 4 commits for 3
     * steps. Plain JDBC, no reads; the rows hold what the engine's hold, byte for byte where it matters to the
     * file (a run id of the same form, the same messages, the event's words in the same JSON), made once.
     */
    static double raw(List<String> keys, Path state) throws Exception {
        Stats.deleteTree(state);
        try (Database db = H2Database.open(state); Connection c = db.connection()) {
            PreparedStatement insKey = c.prepareStatement("INSERT INTO key_state (job, key_value, state, attempts, "
                    + "version, created_at, updated_at) VALUES ('noop', ?, 'PENDING', 0, 1, ?, ?)");
            PreparedStatement upd = c.prepareStatement("UPDATE key_state SET state = ?, step = ?, attempts = ?, "
                    + "run_id = ?, lease_owner = ?, lease_until = ?, version = ?, updated_at = ?, message = ? "
                    + "WHERE job = 'noop' AND key_value = ? AND version = ?");
            PreparedStatement insStep = c.prepareStatement("INSERT INTO step_state (job, key_value, step, status, "
                    + "attempts, first_attempt_at, updated_at) VALUES ('noop', ?, ?, 'SUCCEEDED', 1, ?, ?)");
            PreparedStatement ev = c.prepareStatement("INSERT INTO key_event (job, key_value, ts, run_id, event_type, "
                    + "step, attempt, state, message, message_said) VALUES ('noop', ?, ?, '" + RAW_RUN + "', ?, ?, ?, ?, ?, ?)");
            String owner = "bench@host:1";
            String started = "run " + RAW_RUN + " started";
            String startedSaid = "{\"key\":\"core.event.runStarted\",\"args\":[\"" + RAW_RUN + "\"]}";
            long t0 = System.nanoTime();
            c.setAutoCommit(false);
            List<String> steps = List.of("a", "b", "c");
            List<String> stepDone = steps.stream().map(st -> st + ": no-op").toList();
            List<String> stepDoneSaid = steps.stream()
                    .map(st -> "{\"key\":\"core.event.stepDone\",\"args\":[\"" + st + "\",{\"args\":[\"no-op\"]}]}").toList();
            for (String k : keys) {
                long now = System.currentTimeMillis();
                // commit 1: the key is stored and claimed
                insKey.setString(1, k);
                insKey.setLong(2, now);
                insKey.setLong(3, now);
                insKey.executeUpdate();
                long v = 1;
                v = move(upd, ev, k, v, "RUNNING", null, 0, owner, "CLAIMED", started, startedSaid);
                c.commit();
                for (int i = 0; i < steps.size(); i++) {
                    String step = steps.get(i);
                    v = move(upd, ev, k, v, "RUNNING", step, 1, owner, "STEP_SUCCEEDED", stepDone.get(i),
                            stepDoneSaid.get(i));
                    insStep.setString(1, k);
                    insStep.setString(2, step);
                    insStep.setLong(3, now);
                    insStep.setLong(4, now);
                    insStep.executeUpdate();
                    if (i < steps.size() - 1) {
                        c.commit();
                    }
                }
                // the last step's success is committed with the key's completion
                move(upd, ev, k, v, "DONE", null, 0, null, "KEY_DONE", "all 3 steps done",
                        "{\"key\":\"core.event.allDone\",\"args\":[3]}");
                c.commit();
            }
            c.setAutoCommit(true);
            double perSecond = keys.size() / ((System.nanoTime() - t0) / 1e9);
            Stats.log("B1 raw state file before close: " + megabytes(state.resolve("keyline.mv.db")) + " MB");
            return perSecond;
        }
    }

    private static long move(PreparedStatement upd, PreparedStatement ev, String k, long v, String state, String step,
                             int attempt, String owner, String type, String msg, String said) throws Exception {
        long now = System.currentTimeMillis();
        upd.setString(1, state);
        upd.setString(2, step);
        upd.setInt(3, attempt);
        upd.setString(4, RAW_RUN);
        upd.setString(5, owner);
        if (owner == null) {
            upd.setNull(6, java.sql.Types.BIGINT);
        } else {
            upd.setLong(6, now + 120_000);
        }
        upd.setLong(7, v + 1);
        upd.setLong(8, now);
        upd.setString(9, msg);
        upd.setString(10, k);
        upd.setLong(11, v);
        if (upd.executeUpdate() != 1) {
            throw new IllegalStateException("raw: lost update");
        }
        ev.setString(1, k);
        ev.setLong(2, now);
        ev.setString(3, type);
        ev.setString(4, step);
        ev.setInt(5, attempt);
        ev.setString(6, state);
        ev.setString(7, msg);
        ev.setString(8, said);
        ev.executeUpdate();
        return v + 1;
    }

    /** Spring Batch 5.2: the same three no-op steps as a job, launched once per key (identifying parameter). */
    static double springBatch(List<String> keys, Path dir) throws Exception {
        Stats.deleteTree(dir);
        Files.createDirectories(dir);
        JdbcConnectionPool ds = JdbcConnectionPool.create("jdbc:h2:file:" + dir.toAbsolutePath().resolve("batch")
                + ";WRITE_DELAY=0", "sa", "");
        try {
            new ResourceDatabasePopulator(new ClassPathResource("org/springframework/batch/core/schema-h2.sql"))
                    .execute(ds);
            DataSourceTransactionManager tm = new DataSourceTransactionManager(ds);
            JobRepositoryFactoryBean f = new JobRepositoryFactoryBean();
            f.setDataSource(ds);
            f.setTransactionManager(tm);
            f.setDatabaseType("H2");
            f.afterPropertiesSet();
            JobRepository repo = f.getObject();
            TaskExecutorJobLauncher launcher = new TaskExecutorJobLauncher();
            launcher.setJobRepository(repo);
            launcher.afterPropertiesSet();
            Job job = new JobBuilder("noop", repo).start(step("a", repo, tm)).next(step("b", repo, tm))
                    .next(step("c", repo, tm)).build();
            long t0 = System.nanoTime();
            for (String k : keys) {
                JobExecution ex = launcher.run(job, new JobParametersBuilder().addString("key", k, true)
                        .toJobParameters());
                if (ex.getStatus() != BatchStatus.COMPLETED) {
                    throw new IllegalStateException("spring batch: " + k + " " + ex.getStatus());
                }
            }
            return keys.size() / ((System.nanoTime() - t0) / 1e9);
        } finally {
            ds.dispose();
        }
    }

    private static Step step(String name, JobRepository repo, DataSourceTransactionManager tm) {
        return new StepBuilder(name, repo).tasklet((contribution, ctx) -> RepeatStatus.FINISHED, tm).build();
    }
}
