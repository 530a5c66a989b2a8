package io.keyline.core;

import io.keyline.core.exec.ChildProcesses;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.Trigger;
import io.keyline.text.Said;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * How a run takes a key: a PENDING or due key is claimed, a RUNNING key whose holder died is taken over.
 * The claim writes this process's lease; it is committed together with the key's next transition, so
 * nothing happens to the key in between. A takeover is committed at once and first waits for the child
 * process the dead holder may have left running: never two copies of one step of one key at once.
 */
final class Claims {

    private final EngineContext ctx;

    Claims(EngineContext ctx) {
        this.ctx = ctx;
    }

    /** The change that claims {@code rec} for {@code runId} (a RUNNING key with a dead holder is taken over). */
    KeyChanges.Change change(KeyRecord rec, String runId) {
        Instant now = ctx.now();
        boolean recover = rec.state() == KeyState.RUNNING;
        Trigger trigger = recover ? Trigger.RECOVER : Trigger.CLAIM;
        KeyState to = KeyStateMachine.apply(rec.state(), trigger);
        KeyRecord after = rec.withState(to).withLease(runId, ctx.owner, now.plus(ctx.options.lease()))
                .withNextAttemptAt(null).withUpdatedAt(now);
        Said msg = recover ? Said.of("core.event.tookOver", rec.leaseOwner(), rec.runId())
                : Said.of("core.event.runStarted", runId);
        KeyEvent ev = EngineContext.event(rec, now, runId, recover ? EventType.RECOVERED : EventType.CLAIMED, null, 0,
                to, null, msg, null);
        return new KeyChanges.Change(rec.stored() ? rec : null, after, null, ev);
    }

    /**
     * Takes the key for this run. The claim is committed together with the next transition (the first
     * step's "started", a probe's answer, a wait): the lease is held before any step does anything, with
     * one commit less per key.
     */
    Claim claim(JobDefinition job, KeyRecord rec, String runId) {
        boolean recover = rec.state() == KeyState.RUNNING;
        KeyChanges.Change ch = change(rec, runId);
        Claim c = new Claim(ctx, job, rec, runId);
        c.defer(ch.before(), ch.after(), null, ch.event());
        if (recover) {
            // commit the takeover now: the lease must be ours while we wait for a child the dead run left
            c.flush();
            waitForOrphanedChild(c, rec);
        }
        return c;
    }

    /** A key this run claimed already (a picked claim, committed). */
    Claim claimed(JobDefinition job, KeyRecord rec, String runId) {
        return new Claim(ctx, job, rec, runId);
    }

    /**
     * A run that takes over from a dead holder first waits for a child process the holder left running
     * (same host, same pid, and the same start or the same job, key, step and run in its environment), up to the
     * step's timeout, then kills its group. The run log says so before the wait, which may be long, and after.
     */
    private void waitForOrphanedChild(Claim c, KeyRecord before) {
        String job = c.job.name();
        String key = c.key();
        ChildRecords.Child child = ctx.children.child(job, key).orElse(null);
        if (child == null || !LeaseOwner.host().equals(child.host())) {
            return;
        }
        // the dead holder's run started it (a run waits for the child of the run it took over from first)
        Map<String, String> identity = before.runId() == null ? Map.of()
                : ChildProcesses.identity(job, key, child.step(), before.runId());
        if (!ChildProcesses.alive(child.pid(), child.startedAt(), identity)) {
            return;
        }
        String left = "process " + child.pid() + " of step " + child.step() + " left by run " + before.runId();
        ctx.trace.line(ctx.now(), c.runId, job, key, child.step(), 0, "waiting", null, 0,
                left + " is still running: waiting for it to end, until "
                + child.deadline().truncatedTo(ChronoUnit.SECONDS) + " at most");
        Instant waitFrom = ctx.now();
        String outcome;
        try {
            boolean exited = ChildProcesses.await(child.pid(), child.startedAt(), identity, child.deadline(),
                    ctx.options.clock());
            if (!exited) {
                ChildProcesses.killGroup(child.pid(), child.startedAt(), identity);
                outcome = "killed it (past the step's timeout)";
            } else {
                outcome = "it exited";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StaleStateException(job, key);
        }
        ctx.trace.line(ctx.now(), c.runId, job, key, child.step(), 0, "waited", null,
                Math.max(0, Duration.between(waitFrom, ctx.now()).toMillis()),
                left + " was still running: waited for it; " + outcome);
    }
}
