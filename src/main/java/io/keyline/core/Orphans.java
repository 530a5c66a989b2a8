package io.keyline.core;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keys left RUNNING by a process that is gone: its holder is a dead process of this host, or its lease
 * has expired (on PostgreSQL: its advisory lock is gone or its heartbeat expired). They need no decision (the next run takes them over and resumes at the step where they
 * stopped), but a person should see them: {@code status --attention} and the console's Attention page
 * list them as "interrupted".
 */
public final class Orphans {

    /** What the operator is told about an orphan. */
    public static final String MESSAGE = "interrupted — will resume on the next run";

    private Orphans() {
    }

    /** The orphaned keys (of {@code job}, or of every job when {@code null}), ordered by job and key. */
    public static List<KeyRecord> of(KeyRecords keys, Leases leases, String job, Instant now) {
        return keys.query(KeyRecords.KeyQuery.in(job, Set.of(KeyState.RUNNING)))
                .stream().filter(r -> orphaned(leases, r, now)).toList();
    }

    /**
     * Whether a RUNNING key's holder is gone: the state's rule ({@link WorkerRegistry#holderAlive}: on
     * H2 a dead process of this host or an expired lease; on PostgreSQL a lost lock or heartbeat).
     */
    public static boolean orphaned(Leases store, KeyRecord r, Instant now) {
        return r.state() == KeyState.RUNNING && !store.workers().holderAlive(r, now);
    }

    /** The line shown for an orphan: why and who held it (where it resumes, as far as the record alone tells). */
    public static String describe(KeyRecord r) {
        return describe(r, null, Map.of());
    }

    /**
     * The line shown for an orphan: where it resumes and who held it. The key's {@code step} names the last step
     * it recorded; a safe step records nothing when it starts, so a key killed during it resumes at the first
     * step (in job order) that has not finished, which the step records tell.
     *
     * @param job   the key's job, or {@code null} when its file is gone (then the record alone tells)
     * @param steps the key's step records
     */
    public static String describe(KeyRecord r, JobDefinition job, Map<String, StepRecord> steps) {
        String at;
        String next = job == null ? null : firstUnfinished(job, steps);
        if (next != null) {
            at = "step " + next;
        } else if (r.step() != null && steps.get(r.step()) != null && steps.get(r.step()).status().finished()) {
            at = "the step after " + r.step();
        } else {
            at = r.step() == null ? "its first step" : "step " + r.step();
        }
        return MESSAGE + " (at " + at + "; run " + r.runId() + " of " + r.leaseOwner() + " ended without finishing)";
    }

    /** The first step of {@code job}, in order, whose record has not finished, or {@code null}. */
    private static String firstUnfinished(JobDefinition job, Map<String, StepRecord> steps) {
        for (StepDefinition s : job.steps()) {
            StepRecord sr = steps.get(s.id());
            if (sr == null || !sr.status().finished()) {
                return s.id();
            }
        }
        return null;
    }
}
