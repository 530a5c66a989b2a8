package io.keyline.bench;

import io.keyline.app.ConsoleApp;
import io.keyline.workspace.Workspace;
import io.keyline.core.RunOptions;
import io.keyline.core.RunTrace;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeySpec;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.store.Database;
import io.keyline.store.h2.H2Database;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.job.JobViewModel;
import io.keyline.ui.timeline.TimelineViewModel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * B3: a state with 100,000 keys and 1,000,000 events (bulk-loaded with batched JDBC); the
 * console's ViewModels, headless with {@link Threads#direct()}: open the job view (workspace open,
 * first page, count, heatmap), apply the failed filter, load a 1,000-event timeline; heap after load.
 */
final class ConsoleBench {
    static final int KEYS = Integer.getInteger("bench.b3.keys", 100_000);
    static final int EVENTS = Integer.getInteger("bench.b3.events", 1_000_000);
    static final int RUNS = Integer.getInteger("bench.b3.runs", 5);
    static final Path ROOT = Path.of("target", "bench", "b3");
    static final String[] TYPES = {"CLAIMED", "STEP_STARTED", "STEP_SUCCEEDED", "STEP_STARTED", "STEP_FAILED",
        "RETRY_SCHEDULED", "CLAIMED", "STEP_STARTED", "STEP_SUCCEEDED", "KEY_DONE"};
    static final String[] STATES = {"RUNNING", "RUNNING", "RUNNING", "RUNNING", "RUNNING", "RETRY_WAIT", "RUNNING",
        "RUNNING", "RUNNING", "DONE"};

    private ConsoleBench() {
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Path jobs = ROOT.resolve("jobs");
        Files.createDirectories(jobs);
        Path file = jobs.resolve("big.json");
        Files.writeString(file, """
            {
              "name": "big",
              "key": { "type": "date", "zone": "UTC", "start": "1750-01-01" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["true"] } ]
            }
            """);
        KeySpec spec = JobFileLoader.loadFile(file).job().key();
        Clock clock = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);
        String last = KeyRules.current(spec, clock);
        List<String> all = KeyRules.range(spec, "1750-01-01", last);
        List<String> keys = all.subList(all.size() - KEYS, all.size());
        String hot = keys.get(keys.size() - 10);
        Path state = ROOT.resolve("state");
        long t0 = System.nanoTime();
        try (Database db = H2Database.open(state)) {
            load(db, keys, hot);
        }
        Stats.log("B3 bulk load of " + KEYS + " keys and " + EVENTS + " events: "
                + (System.nanoTime() - t0) / 1_000_000 + " ms");
        RunOptions standard = RunOptions.standard();
        RunOptions options = new RunOptions(clock, d -> { }, standard.random(), standard.waitInPlace(),
                standard.lease(), standard.user());
        List<Double> open = new ArrayList<>();
        List<Double> filter = new ArrayList<>();
        List<Double> timeline = new ArrayList<>();
        double heapMb = 0;
        for (int i = -2; i < RUNS; i++) {
            long a = System.nanoTime();
            try (Workspace ws = new Workspace(state, jobs, options, Map.of())) {
                ConsoleServices services = ConsoleApp.services(ws, RunTrace.NONE, Map.of());
                JobViewModel job = new JobViewModel(services, Threads.direct());
                job.load("big");
                long b = System.nanoTime();
                if (job.rows().size() != JobViewModel.PAGE_SIZE || job.totalProperty().get() != KEYS) {
                    throw new IllegalStateException("job view: " + job.rows().size() + " rows of "
                            + job.totalProperty().get() + ": " + job.noticeProperty().get());
                }
                job.filterProperty().set(JobViewModel.FAILED);
                long c = System.nanoTime();
                if (job.totalProperty().get() != KEYS / 100) {
                    throw new IllegalStateException("failed filter: " + job.totalProperty().get());
                }
                TimelineViewModel tl = new TimelineViewModel(services, Threads.direct());
                tl.load("big", hot);
                long d = System.nanoTime();
                if (tl.headerProperty().get().events() != 1_000) {
                    throw new IllegalStateException("timeline: " + tl.headerProperty().get().events() + " events");
                }
                if (i >= 0) {
                    open.add((b - a) / 1e6);
                    filter.add((c - b) / 1e6);
                    timeline.add((d - c) / 1e6);
                }
                if (i == RUNS - 1) {
                    for (int g = 0; g < 3; g++) {
                        System.gc();
                        Thread.sleep(100);
                    }
                    Runtime rt = Runtime.getRuntime();
                    heapMb = (rt.totalMemory() - rt.freeMemory()) / (1024.0 * 1024.0);
                }
            }
        }
        Stats.figure("console.open_ms", open, "ms");
        Stats.figure("console.filter_ms", filter, "ms");
        Stats.figure("console.timeline_ms", timeline, "ms");
        Stats.figure("console.heap_mb", List.of(heapMb), "MB");
    }

    /** 100,000 keys (1% FAILED), 1,000,000 events: 1,000 for the hot key, the rest spread evenly. */
    static void load(Database db, List<String> keys, String hot) throws Exception {
        long now = Instant.parse("2026-11-29T08:00:00Z").toEpochMilli();
        try (Connection c = db.connection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_state (job, key_value, state, attempts, "
                    + "message, failure_class, version, created_at, updated_at) VALUES ('big', ?, ?, ?, ?, ?, 9, ?, ?)")) {
                int n = 0;
                for (String k : keys) {
                    boolean failed = n % 100 == 7;
                    ps.setString(1, k);
                    ps.setString(2, failed ? "FAILED" : "DONE");
                    ps.setInt(3, failed ? 3 : 1);
                    ps.setString(4, failed ? "work failed after 3 attempts: exit 65" : "all 1 steps done");
                    ps.setString(5, failed ? "FATAL" : null);
                    ps.setLong(6, now);
                    ps.setLong(7, now);
                    ps.addBatch();
                    if (++n % 5_000 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            c.commit();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_event (job, key_value, ts, run_id, "
                    + "event_type, step, attempt, state, message) VALUES ('big', ?, ?, ?, ?, ?, ?, ?, ?)")) {
                int rest = EVENTS - 1_000;
                int perKey = rest / (keys.size() - 1);
                int extra = rest - perKey * (keys.size() - 1);
                int n = 0;
                for (String k : keys) {
                    int count = k.equals(hot) ? 1_000 : perKey + (extra-- > 0 ? 1 : 0);
                    for (int e = 0; e < count; e++) {
                        ps.setString(1, k);
                        ps.setLong(2, now + e * 1000L);
                        ps.setString(3, "20261129T0800" + String.format("%02d", (e / 10) % 60) + "-abcdef");
                        ps.setString(4, TYPES[e % 10]);
                        ps.setString(5, "work");
                        ps.setInt(6, 1 + e / 10);
                        ps.setString(7, STATES[e % 10]);
                        ps.setString(8, "event " + e + " of " + k);
                        ps.addBatch();
                        if (++n % 10_000 == 0) {
                            ps.executeBatch();
                            c.commit();
                        }
                    }
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }
}
