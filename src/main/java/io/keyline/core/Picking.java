package io.keyline.core;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A run whose keys the state picks: of the candidates, each picker claims the first startable key no
 * other process is claiming at that moment ({@link KeyChanges#claimNext}: FOR UPDATE SKIP LOCKED on
 * PostgreSQL), so workers that share a state take different keys instead of racing for the same ones.
 * Keys not stored yet are stored as PENDING first; keys left RUNNING by a dead holder are taken over
 * after the picked ones. What happens to a claimed key is exactly what a plain run does ({@link KeyRun}).
 */
final class Picking {

    private final EngineContext ctx;
    private final Claims claims;
    private final JobDefinition job;
    private final String runId;
    private final DecisionInputs inputs;

    Picking(EngineContext ctx, JobDefinition job, String runId) {
        this.ctx = ctx;
        this.claims = new Claims(ctx);
        this.job = job;
        this.runId = runId;
        // picking is how the scheduler (a console's, a worker's) runs keys: nobody watches
        this.inputs = ctx.inputs(job, RunRequest.SCHEDULED);
    }

    RunReport run(List<String> candidates) {
        Instant started = ctx.now();
        RunReport paused = ctx.pausedRun(job, runId, started);
        if (paused != null) {
            return paused;
        }
        ConfirmationExpiry.apply(ctx, job, started);
        RunBudget budget = ctx.budget(job, started);
        java.util.concurrent.atomic.AtomicBoolean budgetHit = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean yielded = new java.util.concurrent.atomic.AtomicBoolean();
        Map<String, KeyRecord> known = ctx.keys.keys(job.name(), candidates);
        List<String> pickable = new ArrayList<>();
        List<String> orphans = new ArrayList<>();
        for (String key : candidates) {
            if (inputs.notYetDue(key)) {
                continue;
            }
            KeyRecord rec = known.get(key);
            if (rec == null) {
                ctx.changes.ensure(KeyRecord.fresh(job.name(), key, ctx.now()));
                pickable.add(key);
            } else if (rec.state() == KeyState.RUNNING) {
                orphans.add(key);
            } else if (!rec.state().finished()) {
                pickable.add(key);
            }
        }
        Collections.sort(pickable);
        if (!pickable.isEmpty() || !orphans.isEmpty()) {
            ctx.leases.start(); // registered (and beating) before it holds anything
        }
        // up to the job's concurrency pickers, each claiming the next key no one else holds
        List<KeyRecord> picked = Collections.synchronizedList(new ArrayList<>());
        String[] stop = new String[1];
        AtomicInteger ranNow = new AtomicInteger();
        Set<String> left = new LinkedHashSet<>(pickable);
        Runnable picker = () -> {
            while (true) {
                List<String> candidatesNow;
                synchronized (left) {
                    if (left.isEmpty() || stop[0] != null) {
                        return;
                    }
                    if (ctx.stopRequest() != null) {
                        stop[0] = ctx.stopRequest();
                        return;
                    }
                    if (budget.spent(ctx.now())) {
                        budgetHit.set(true);
                        stop[0] = budget.reason() + ": " + left.size() + " key" + (left.size() == 1 ? "" : "s")
                                + " not started";
                        return;
                    }
                    candidatesNow = List.copyOf(left);
                }
                if (ctx.paused(job)) {
                    synchronized (left) {
                        stop[0] = stop[0] != null ? stop[0] : ctx.pausedReason(job);
                    }
                    return;
                }
                Optional<KeyRecord> claimed = ctx.changes.claimNext(job.name(), candidatesNow, ctx.now(), rec ->
                        KeyDecision.decide(inputs.unheld(rec.key(), rec, ctx.now())).leavesKeyAlone() ? null
                                : claims.change(rec, runId));
                if (claimed.isEmpty()) {
                    return;
                }
                KeyRecord c = claimed.get();
                // the claim wrote a lease of options.lease(); from now on the process's heartbeat renews it
                ctx.leases.hold(job.name(), c.key());
                synchronized (left) {
                    left.remove(c.key());
                }
                KeyRun kr = new KeyRun(ctx, inputs, c.key(), runId, RunRequest.SCHEDULED).budget(budget);
                picked.add(kr.runClaimed(c));
                ranNow.incrementAndGet();
                if (kr.budgetHalt) {
                    budgetHit.set(true);
                }
                if (kr.yielded) {
                    yielded.set(true);
                }
            }
        };
        RunBatch.onThreads(Math.max(1, Math.min(job.concurrency(), pickable.size())), "keyline-" + job.name()
                + "-pick-", picker, () -> { });
        String stopped = stop[0];
        int ran = ranNow.get();
        List<KeyRecord> finals = new ArrayList<>(picked);
        finals.sort(Comparator.comparing(KeyRecord::key));
        int orphansRun = 0;
        for (String key : orphans) {
            if (stopped != null || ctx.stopRequest() != null) {
                break;
            }
            if (budget.spent(ctx.now())) {
                budgetHit.set(true);
                stopped = budget.reason();
                break;
            }
            KeyRun kr = new KeyRun(ctx, inputs, key, runId, RunRequest.SCHEDULED).budget(budget);
            KeyRecord after = kr.run(ctx.keys.key(job.name(), key).orElse(null));
            if (kr.claimed) {
                ran++;
                finals.add(after);
            }
            if (kr.yielded) {
                yielded.set(true);
            }
            orphansRun++;
        }
        // the engine's budget stopped this job's run only when a key was left: not picked, or yielded with steps to go
        boolean overBudget = budgetHit.get() || ctx.stoppedByBudget()
                && (yielded.get() || stop[0] != null || orphansRun < orphans.size());
        if (overBudget && stopped == null) {
            stopped = budget.reason() + ": a key in flight stopped after its step";
        }
        RunReport report = new RunReport(runId, job.name(), finals, stopped, ran, List.of(), List.of(), List.of(),
                overBudget);
        if (ran > 0 || stopped != null) {
            ctx.trace.run(ctx.now(), report, started, "--due");
        }
        return report;
    }
}
