package io.keyline.core.operations;

import io.keyline.core.Engine;
import io.keyline.core.RunReport;
import io.keyline.core.RunRequest;
import io.keyline.core.JobControls;
import io.keyline.core.KeyListing;
import io.keyline.core.KeyRecords;
import io.keyline.core.Targets;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs every due key of every job that is not paused ({@code keyline run --due}, cron): the key of
 * the latest schedule tick, missed ticks of the catch-up window (said as they start), pending keys
 * and due retries, and the keys a job's key source lists that are not done. A paused job is passed by and said
 * so.
 */
public record RunDue(KeyRecords store, JobControls controls, Clock clock) {

    /** At most this many jobs run side by side (each within its own concurrency). */
    static final int JOBS_AT_ONCE = 16;

    /**
     * What one {@code run --due} did.
     *
     * @param reports one per job that had due keys, in job order
     * @param listing what was wrong with the listings of key sources (a bad entry, a failed or too long listing),
     *                as words
     */
    public record Result(List<RunReport> reports, List<Said> listing) {
        public Result {
            reports = List.copyOf(reports);
            listing = List.copyOf(listing);
        }

        /** The final records of every key that was targeted. */
        public List<KeyRecord> keys() {
            return reports.stream().flatMap(r -> r.keys().stream()).toList();
        }

        /**
         * The exit code over every targeted key; a run that its budget stopped waits (4) unless a key failed; at
         * least 1 when a key source's listing was wrong.
         */
        public int exitCode() {
            int code = RunReport.exitCode(keys(), reports.stream().anyMatch(RunReport::overBudget));
            return code == 0 && !listing.isEmpty() ? 1 : code;
        }

        /**
         * The exit code of {@code run --due} when {@code invalidJobFiles} files of the jobs folder did not load:
         * any is an execution failure (1), whatever the valid jobs' keys came to (their jobs did not run).
         */
        public int exitCode(int invalidJobFiles) {
            return invalidJobFiles > 0 ? RunReport.EXECUTION_FAILURE : exitCode();
        }

        public boolean nothingDue() {
            return reports.isEmpty();
        }
    }

    /**
     * Runs the due keys of {@code jobs} through {@code engine}.
     *
     * @param window the catch-up window
     * @param ahead  keys later than the current one may run (run ahead of schedule)
     * @param say    gets one line per paused job and per catch-up key, as they happen
     */
    public Result run(List<JobDefinition> jobs, Engine engine, Duration window, boolean ahead, Consumer<String> say) {
        // what is due, in job order, decided before anything runs (and its catch-ups said)
        List<Callable<RunReport>> runs = new ArrayList<>();
        List<Said> listing = new ArrayList<>();
        for (JobDefinition job : jobs) {
            // a wait for a confirmation that outlived its step's expireAfter ends, due keys or not
            for (KeyRecord k : engine.expireConfirmations(job)) {
                say.accept(Text.t("core.due.expired", job.name(), k.key(), Text.t("cli.state." + k.state().name()),
                        k.message()));
            }
            if (controls.jobControl(job.name()).pausedAt(clock.instant())) {
                say.accept(Text.t("core.due.paused", job.name()));
                continue;
            }
            List<String> listed = List.of();
            if (job.key().source() != null) {
                KeyListing.Listed l = engine.listKeys(job);
                listing.addAll(l.problems());
                listed = l.keys();
            }
            List<Targets.DueKey> due = Targets.dueKeys(job, store, clock.instant(), window, listed);
            if (due.isEmpty()) {
                continue;
            }
            due.stream().filter(Targets.DueKey::catchUp).forEach(d -> say.accept(Text.t("core.due.catchUp", job.name(),
                    d.key(), d.note())));
            List<String> keys = due.stream().map(Targets.DueKey::key).toList();
            runs.add(() -> engine.run(job, keys, RunRequest.due(ahead)));
        }
        // jobs side by side, each within its own concurrency: one job waiting for a retry does not
        // hold the others back
        return new Result(sideBySide(runs), listing);
    }

    /** Runs each job's run on its own thread (at most {@link #JOBS_AT_ONCE} at once); reports in the given order. */
    static List<RunReport> sideBySide(List<Callable<RunReport>> runs) {
        if (runs.size() <= 1) {
            List<RunReport> out = new ArrayList<>();
            for (var r : runs) {
                out.add(call(r));
            }
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(JOBS_AT_ONCE, runs.size()), r -> {
            Thread t = new Thread(r, "keyline-due");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RunReport>> futures = new ArrayList<>();
            for (var r : runs) {
                futures.add(pool.submit(r));
            }
            List<RunReport> out = new ArrayList<>();
            RuntimeException first = null;
            for (var f : futures) {
                try {
                    out.add(f.get());
                } catch (ExecutionException e) {
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

    private static RunReport call(Callable<RunReport> r) {
        try {
            return r.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
