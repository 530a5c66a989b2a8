package io.keyline.core;

import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.StepOutcome;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.domain.Trigger;
import io.keyline.text.Said;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A key held by one run, from its claim until it stops: its record as this run last wrote it, its step
 * records and outputs, the probes answered on the way, and the transitions not committed yet. Every
 * transition is checked against {@link KeyStateMachine}; a RUNNING key's lease is extended with it.
 */
final class Claim {

    private final EngineContext ctx;
    final JobDefinition job;
    final String runId;
    KeyRecord rec;
    final Map<String, StepRecord> steps;
    final Map<String, Map<String, String>> outputs = new HashMap<>();
    final Map<String, ProbeAnswer> probes = new HashMap<>();
    /** What the last probe asked in this claim answered, with its message and evidence. */
    ProbeOutcome lastProbe;
    /** The step whose probe that was ({@link io.keyline.domain.KeyProbe#STEP} for the job's own), or {@code null}. */
    String lastProbeStep;
    /** The failure of an unsafe step whose outcome is unknown, kept for the message of the wait that follows. */
    Failure failure;
    /** A step that ran and whose outcome is not committed yet. */
    Unrecorded unrecorded;
    private final List<KeyChanges.Change> pending = new ArrayList<>();
    /**
     * Whether {@link #steps} holds exactly the step records the state has once {@link #pending} is committed; false
     * after deferred changes were discarded (they were put in {@link #steps} but never reached the state).
     */
    private boolean stepsAsStored = true;
    /** Steps whose records go with the next change staged: they run again, their outputs are gone. */
    private List<String> forgetting = List.of();

    /** A failure of an unsafe step whose outcome is unknown. */
    record Failure(String step, Said words, Evidence evidence) {
    }

    /** A step that ran and whose outcome is not committed yet. */
    record Unrecorded(StepDefinition step, int attempt, Instant firstAttempt, StepOutcome outcome) {
    }

    Claim(EngineContext ctx, JobDefinition job, KeyRecord rec, String runId) {
        this.ctx = ctx;
        this.job = job;
        this.rec = rec;
        this.runId = runId;
        this.steps = rec.stored() ? new HashMap<>(ctx.keys.steps(job.name(), rec.key())) : new HashMap<>();
        steps.values().stream().filter(s -> s.status().finished()).forEach(s -> outputs.put(s.step(), s.outputs()));
    }

    String key() {
        return rec.key();
    }

    /** Attempts of {@code step} so far (0 for a step without record). */
    int attempts(String step) {
        StepRecord sr = steps.get(step);
        return sr == null ? 0 : sr.attempts();
    }

    /** Queues a change to commit with the next {@link #move}; {@code before == null} inserts the key. */
    void defer(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent ev) {
        // a step the state has no record of is inserted at once, with no update tried first
        pending.add(new KeyChanges.Change(before, after, step, ev, forgetting,
                stepsAsStored && step != null && !steps.containsKey(step.step())));
        forgetting = List.of();
        rec = after.withVersion(before == null ? 1 : before.version() + 1);
        if (step != null) {
            steps.put(step.step(), step);
        }
    }

    /**
     * The records of {@code stepIds} go with the next change staged: those steps run again, their outputs are
     * discarded (from this claim at once).
     */
    void forget(List<String> stepIds) {
        for (String id : stepIds) {
            steps.remove(id);
            outputs.remove(id);
            probes.remove(id);
        }
        List<String> all = new ArrayList<>(forgetting);
        all.addAll(stepIds);
        forgetting = List.copyOf(all);
    }

    /** Builds the change a trigger makes; the event records the answer of the step's probe ({@code null}: none). */
    void stage(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
               FailureClass cls, Said message, Evidence evidence, ProbeAnswer probe) {
        KeyState to = KeyStateMachine.apply(rec.state(), trigger);
        Instant now = ctx.now();
        KeyRecord after = shape.withState(to).withUpdatedAt(now);
        after = to == KeyState.RUNNING ? after.withLease(runId, ctx.owner, now.plus(ctx.options.lease()))
                : after.withoutLease();
        // the event keeps why the key waits, as the key does: its history shows a wait for the review as one
        KeyEvent ev = EngineContext.event(rec, now, runId, type, stepId, attempt, to, cls, message,
                evidence == null ? null : evidence.bounded()).withProbe(probe).withWaitReason(after.waitReason());
        defer(rec, after, step, ev);
    }

    /** Applies a transition and commits it, with whatever was deferred, in one transaction. */
    KeyRecord move(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                   FailureClass cls, Said message, Evidence evidence) {
        return move(trigger, shape, step, type, stepId, attempt, cls, message, evidence, null);
    }

    /** As {@link #move}; the event records the answer of the step's probe. */
    KeyRecord move(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                   FailureClass cls, Said message, Evidence evidence, ProbeAnswer probe) {
        stage(trigger, shape, step, type, stepId, attempt, cls, message, evidence, probe);
        return flush();
    }

    /** Commits what was deferred. */
    KeyRecord flush() {
        try {
            rec = ctx.changes.applyChain(List.copyOf(pending));
            unrecorded = null;
        } finally {
            pending.clear();
        }
        return rec;
    }

    /** Commits what was deferred, if anything was. */
    void flushIfPending() {
        if (!pending.isEmpty()) {
            flush();
        }
    }

    /** Forgets deferred changes that failed to commit. */
    void discardPending() {
        stepsAsStored = false;
        pending.clear();
        forgetting = List.of();
    }
}
