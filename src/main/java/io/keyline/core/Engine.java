package io.keyline.core;

import io.keyline.core.exec.Executors;
import io.keyline.core.exec.StepContext;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.text.Said;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Runs keys. A run of given keys ({@link #run}) takes them in target order, up to the job's
 * {@code concurrency} at once ({@link RunBatch}); a run of due keys among several processes lets the
 * state pick them ({@link #runPicking}, {@link Picking}). Each key is run by a {@link KeyRun}: it asks
 * {@link KeyDecision} what the key does next and does exactly that, claimed ({@link Claims}) and
 * recorded ({@link KeyTransitions}) with every transition committed before and after each step.
 */
public final class Engine {

    private static final DateTimeFormatter RUN_ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")
            .withZone(ZoneOffset.UTC);

    private final EngineContext ctx;

    public Engine(StateStore store, Executors executors, CredentialProvider credentials, RunTrace trace,
                  RunOptions options) {
        this(store, executors, credentials, trace, options, new LeaseKeeper(store, options, "run"));
    }

    /**
     * An engine whose leases are kept by {@code leases}: one heartbeat per process renews the leases of
     * every key its engines hold, and its registry says whether another holder is alive.
     */
    public Engine(StateStore store, Executors executors, CredentialProvider credentials, RunTrace trace,
                  RunOptions options, LeaseKeeper leases) {
        this.ctx = new EngineContext(store, executors, credentials, trace, options, leases);
    }

    /**
     * Registers this process on the state at once (its heartbeat starts): a process that runs a scheduler is
     * listed as alive before it holds any key. Idempotent; a run registers by itself with its first key.
     */
    public void register() {
        ctx.leases.start();
    }

    /**
     * The keys the job's key source lists now ({@code keys.source}), with what was wrong with the listing; none
     * for a job without a source.
     */
    public KeyListing.Listed listKeys(JobDefinition job) {
        try {
            return KeyListing.list(ctx.executors, job);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new KeyListing.Listed(List.of(), List.of(Said.of("core.keySource.interrupted", job.name())));
        }
    }

    /** Runs the given keys of a job, one after another, and reports their final states. */
    public RunReport run(JobDefinition job, List<String> keys) {
        return run(job, keys, RunRequest.PLAIN);
    }

    /**
     * Runs the given keys as {@code request} says (ahead of schedule, or exactly as a plan listed) and
     * reports their final states, in target order. Up to the job's {@code concurrency} keys run at once;
     * each key keeps its own guarantees (lease, intent before effect, probes, the decision).
     */
    public RunReport run(JobDefinition job, List<String> keys, RunRequest request) {
        return run(job, keys, request, () -> true);
    }

    /**
     * As {@link #run(JobDefinition, List, RunRequest)}, taking a new key only while {@code goOn} says so
     * (the console's scheduler, closing or paused): keys not taken are reported as not started.
     */
    public RunReport run(JobDefinition job, List<String> keys, RunRequest request, BooleanSupplier goOn) {
        String runId = newRunId();
        Instant started = ctx.now();
        RunReport paused = ctx.pausedRun(job, runId, started);
        if (paused != null) {
            return paused;
        }
        ConfirmationExpiry.apply(ctx, job, started);
        Map<String, KeyRecord> known = ctx.keys.keys(job.name(), keys);
        RunBatch batch = new RunBatch(ctx, job, keys, known, runId, request, goOn, ctx.budget(job, started));
        RunProgress watcher = ctx.progress();
        watcher.runStarted(job.name(), keys.size());
        try {
            batch.runAll(Math.min(job.concurrency(), keys.size()));
        } finally {
            watcher.runEnded(job.name());
        }
        RunReport report = batch.report();
        ctx.trace.run(ctx.now(), report, started, request.selection());
        return report;
    }

    /**
     * Ends the waits for a confirmation of {@code job} that outlived their step's {@code expireAfter} (skipped or
     * failed as the step says; never confirmed). Every run of the job does this first; the scheduler and
     * {@code run --due} also for jobs with nothing due.
     *
     * @return the keys that expired
     */
    public List<KeyRecord> expireConfirmations(JobDefinition job) {
        return ConfirmationExpiry.apply(ctx, job, ctx.now());
    }

    /**
     * Runs the startable keys among {@code candidates}, each picked by the state as a key no other
     * process is claiming at that moment, so workers that share a state take different keys.
     */
    public RunReport runPicking(JobDefinition job, List<String> candidates) {
        return new Picking(ctx, job, newRunId()).run(candidates);
    }

    /**
     * Stops starting keys (Ctrl+C, SIGTERM): runs in progress take no new key, a key in flight stops at
     * its next step boundary (the step running now finishes and is recorded; the key goes back to PENDING,
     * like the kill switch's), a wait for a retry ends, and each run reports what finished. For the process
     * that is about to exit.
     */
    public void stopStarting(String reason) {
        stopStarting(Said.plain(reason));
    }

    /** As {@link #stopStarting(String)}, the reason said in the language of whoever shows it. */
    public void stopStarting(Said reason) {
        ctx.stop(reason);
    }

    /**
     * Gives every run of this engine a time budget ({@code run --max-time}): once it is spent the engine stops
     * starting keys, as {@link #stopStarting} does, and its runs report that the budget stopped them.
     */
    public Engine maxTime(java.time.Duration maxTime) {
        ctx.maxTime(maxTime);
        return this;
    }

    /** Why this engine was told to stop, or {@code null}. */
    public String stopRequested() {
        return ctx.stopRequest();
    }

    /** Who is told how runs progress (a live counter); {@link RunProgress#NONE} by default. */
    public Engine progress(RunProgress p) {
        ctx.progress(p);
        return this;
    }

    public String newRunId() {
        byte[] b = new byte[3];
        ctx.options.random().nextBytes(b);
        return RUN_ID.format(ctx.now()) + "-" + HexFormat.of().formatHex(b);
    }

    /** The lease owner id this engine's process writes on the keys it holds. */
    public String owner() {
        return ctx.owner;
    }

    /** The hash of what the step would send now ({@code null} when it cannot be rendered yet). */
    public static String payloadHash(StepContext ctx) {
        // {runId} differs per run; the operator confirms the payload, not the run that sends it.
        return ConfirmedPayload.hash(ctx, List.of());
    }
}
