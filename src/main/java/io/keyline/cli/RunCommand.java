package io.keyline.cli;

import io.keyline.core.Engine;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.Targets;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "run", description = {
    "Executes a job's keys: today's key by default, or --key/--from/--to/--due.",
    "'run --due' without a job runs every due key of every job that is not paused."})
final class RunCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB")
    String jobName;

    @Mixin
    KeySelection selection;

    @Override
    public Integer call() {
        if (jobName == null) {
            if (!selection.due || !selection.keys.isEmpty() || selection.from != null || selection.to != null) {
                throw new UsageError("run needs a JOB (or 'run --due' for every job)");
            }
            return runAllDue();
        }
        JobDefinition job = job(jobName);
        List<String> keys = selection.resolve(ws(), job);
        if (!selection.due) {
            selection.refuseNotYetDue(ws(), job, keys);
        }
        try (RunSession s = new RunSession(this)) {
            RunTrace trace = s.trace;
            RunReport report = s.engine.run(job, keys,
                    io.keyline.core.RunRequest.plain(selection.ahead, selection.describe()));
            int exit = report.exitCode();
            RunOutput.summary(out(), List.of(report), exit, ws().credentials());
            notifyAfter(List.of(report), trace);
            return exit;
        }
    }

    /** At most this many jobs run side by side in {@code run --due} (each within its own concurrency). */
    static final int JOBS_AT_ONCE = 16;

    private int runAllDue() {
        Instant now = ws().options().clock().instant();
        java.time.Duration window = selection.window(ws());
        List<RunReport> reports = new ArrayList<>();
        List<KeyRecord> all = new ArrayList<>();
        try (RunSession s = new RunSession(this)) {
            RunTrace trace = s.trace;
            Engine engine = s.engine;
            // what is due, in catalog order, decided before anything runs (and its catch-ups printed)
            List<java.util.concurrent.Callable<RunReport>> runs = new ArrayList<>();
            for (JobDefinition job : ws().catalog().jobs()) {
                if (ws().store().jobControl(job.name()).pausedAt(now)) {
                    out().println(job.name() + ": paused, passed by");
                    continue;
                }
                List<Targets.DueKey> due = Targets.dueKeys(job, ws().store(), now, window);
                if (due.isEmpty()) {
                    continue;
                }
                due.stream().filter(Targets.DueKey::catchUp)
                        .forEach(d -> out().println(job.name() + " " + d.key() + ": " + d.note()));
                List<String> keys = due.stream().map(Targets.DueKey::key).toList();
                runs.add(() -> engine.run(job, keys, io.keyline.core.RunRequest.plain(selection.ahead, "--due")));
            }
            // [issue 14] jobs side by side: one job waiting for a retry does not hold the others back
            reports.addAll(sideBySide(runs));
            reports.forEach(r -> all.addAll(r.keys()));
            notifyAfter(reports, trace);
        }
        for (var e : ws().catalog().errors()) {
            err().println("skipped invalid job file: " + e);
        }
        int exit = RunReport.exitCode(all, false);
        if (reports.isEmpty()) {
            out().println("Nothing is due.");
        }
        RunOutput.summary(out(), reports, exit, ws().credentials());
        return exit;
    }

    /** Runs each job's run on its own thread (at most {@link #JOBS_AT_ONCE} at once); reports in the given order. */
    static List<RunReport> sideBySide(List<java.util.concurrent.Callable<RunReport>> runs) {
        if (runs.size() <= 1) {
            List<RunReport> out = new ArrayList<>();
            for (var r : runs) {
                out.add(call(r));
            }
            return out;
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(JOBS_AT_ONCE, runs.size()), r -> {
                    Thread t = new Thread(r, "keyline-due");
                    t.setDaemon(true);
                    return t;
                });
        try {
            List<java.util.concurrent.Future<RunReport>> futures = new ArrayList<>();
            for (var r : runs) {
                futures.add(pool.submit(r));
            }
            List<RunReport> out = new ArrayList<>();
            RuntimeException first = null;
            for (var f : futures) {
                try {
                    out.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    if (first == null) {
                        first = e.getCause() instanceof RuntimeException re ? re
                                : new IllegalStateException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    pool.shutdownNow();
                    throw new IllegalStateException("interrupted while jobs ran", e);
                }
            }
            if (first != null) {
                throw first;
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    private static RunReport call(java.util.concurrent.Callable<RunReport> r) {
        try {
            return r.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
