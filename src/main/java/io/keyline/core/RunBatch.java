package io.keyline.core;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The keys of one run: taken in target order by up to the job's {@code concurrency} threads (the
 * caller's own thread when it is 1), each key start to end on one thread ({@link KeyRun}); results kept
 * by target index so the report is in target order whatever order keys finish in.
 */
final class RunBatch {

    private final EngineContext ctx;
    private final JobDefinition job;
    private final List<String> keys;
    private final Map<String, KeyRecord> known;
    private final String runId;
    private final RunRequest request;
    private final BooleanSupplier goOn;
    private final RunBudget budget;
    /** The budget stopped the run: a key was not started, or one in flight stopped, because it was spent. */
    private volatile boolean budgetHit;
    /** Whether a key of this batch yielded with steps left (the engine's budget ends a key there too). */
    private volatile boolean yielded;
    private final DecisionInputs inputs;
    private final KeyRecord[] finals;
    private final boolean[] departed;
    private final boolean[] notDue;
    private final boolean[] notStarted;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger ran = new AtomicInteger();
    private volatile String stopped;
    private volatile RuntimeException failure;

    RunBatch(EngineContext ctx, JobDefinition job, List<String> keys, Map<String, KeyRecord> known, String runId,
             RunRequest request, BooleanSupplier goOn, RunBudget budget) {
        this.ctx = ctx;
        this.budget = budget;
        this.job = job;
        this.keys = keys;
        this.known = known;
        this.runId = runId;
        this.request = request;
        this.goOn = goOn;
        this.inputs = ctx.inputs(job, request);
        int n = keys.size();
        finals = new KeyRecord[n];
        departed = new boolean[n];
        notDue = new boolean[n];
        notStarted = new boolean[n];
    }

    /** Runs every key (up to {@code concurrency} at once); the first failure is thrown after all ended. */
    void runAll(int concurrency) {
        if (concurrency <= 1) {
            drain();
        } else {
            // the caller is being stopped (the console's scheduler closing): so are the keys it started
            onThreads(concurrency, "keyline-" + job.name() + "-", this::drain,
                    () -> stopped = stopped != null ? stopped : "interrupted");
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Takes keys until there are none left. */
    private void drain() {
        int i;
        while ((i = next.getAndIncrement()) < keys.size()) {
            try {
                one(i);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
                stopped = stopped != null ? stopped : String.valueOf(e.getMessage());
                return;
            }
        }
    }

    private void one(int i) {
        String key = keys.get(i);
        KeyRecord rec = known.get(key);
        RunProgress progress = ctx.progress();
        if (rec != null && rec.state().finished()) {
            finals[i] = rec;
            progress.keyEnded(job.name(), key, rec.state());
            return;
        }
        if (stopped != null || failure != null) {
            finals[i] = rec != null ? rec : KeyRecord.fresh(job.name(), key, ctx.now());
            progress.keyEnded(job.name(), key, finals[i].state());
            return;
        }
        if (budget.spent(ctx.now())) {
            budgetHit = true;
        }
        if (budgetHit || ctx.stopRequest() != null || !goOn.getAsBoolean()) {
            notStarted[i] = true;
            progress.keyEnded(job.name(), key, null);
            return;
        }
        progress.keyStarted(job.name(), key);
        KeyRun kr = new KeyRun(ctx, inputs, key, runId, request).budget(budget);
        KeyRecord after = kr.run(rec);
        if (kr.claimed) {
            ran.incrementAndGet();
        }
        if (kr.budgetHalt) {
            budgetHit = true;
        }
        if (kr.yielded) {
            yielded = true;
        }
        departed[i] = kr.departed;
        if (kr.notYetDue) {
            notDue[i] = true;
            progress.keyEnded(job.name(), key, null);
            return;
        }
        finals[i] = after;
        progress.keyEnded(job.name(), key, after.state());
        if (after.state() == KeyState.PENDING && !kr.departed && ctx.stopRequest() == null && ctx.paused(job)) {
            stopped = ctx.pausedReason(job);
        }
    }

    /** The keys' final states in target order, with those that departed, were not due or not started. */
    RunReport report() {
        List<KeyRecord> out = new ArrayList<>(keys.size());
        List<String> dep = new ArrayList<>();
        List<String> nd = new ArrayList<>();
        List<String> ns = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (departed[i]) {
                dep.add(keys.get(i));
            }
            if (notDue[i]) {
                nd.add(keys.get(i));
            } else if (notStarted[i]) {
                ns.add(keys.get(i));
            } else if (finals[i] != null) {
                out.add(finals[i]);
            }
        }
        String why = stopped;
        // the engine's budget (--max-time) stopped this job's run only when a key was left: one not started, or one
        // in flight that yielded with steps to go (a key whose last step ended past the budget is done)
        boolean overBudget = budgetHit || ctx.stoppedByBudget() && (!ns.isEmpty() || yielded);
        if (!ns.isEmpty()) {
            String told = budgetHit ? budget.reason() : ctx.stopRequest() != null ? ctx.stopRequest() : "stopped";
            why = told + ": " + ns.size() + " key" + (ns.size() == 1 ? "" : "s") + " not started";
        } else if (overBudget && why == null) {
            why = (budgetHit ? budget.reason() : ctx.stopRequest()) + ": a key in flight stopped after its step";
        }
        return new RunReport(runId, job.name(), out, why, ran.get(), dep, nd, ns, overBudget);
    }

    /**
     * Runs {@code work} on {@code n} threads (the caller's own when {@code n} is 1) and waits for all; an
     * interrupt of the caller runs {@code onInterrupt} and is passed to them. The first failure is thrown
     * after all have ended.
     */
    static void onThreads(int n, String name, Runnable work, Runnable onInterrupt) {
        if (n <= 1) {
            work.run();
            return;
        }
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>(n);
        for (int w = 0; w < n; w++) {
            Thread t = new Thread(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, name + (w + 1));
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    onInterrupt.run();
                    threads.forEach(Thread::interrupt);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
