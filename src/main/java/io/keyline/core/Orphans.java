package io.keyline.core;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.text.Said;

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
     * The line shown for an orphan: where it resumes and who held it, in English (the command line's status and
     * its JSON). The key's {@code step} names the last step it recorded; a safe step records nothing when it
     * starts, so a key killed during it resumes at the first step (in job order) that has not finished, which the
     * step records tell.
     *
     * @param job   the key's job, or {@code null} when its file is gone (then the record alone tells)
     * @param steps the key's step records
     */
    public static String describe(KeyRecord r, JobDefinition job, Map<String, StepRecord> steps) {
        return said(r, job, steps).english();
    }

    /** {@link #describe}'s line, said in the language of whoever shows it (the console's Attention page). */
    public static Said said(KeyRecord r, JobDefinition job, Map<String, StepRecord> steps) {
        Said at;
        String next = job == null ? null : firstUnfinished(job, steps);
        if (next != null) {
            at = Said.of("core.orphan.atStep", next);
        } else if (r.step() != null && steps.get(r.step()) != null && steps.get(r.step()).status().finished()) {
            at = Said.of("core.orphan.afterStep", r.step());
        } else {
            at = r.step() == null ? Said.of("core.orphan.firstStep") : Said.of("core.orphan.atStep", r.step());
        }
        return Said.of("core.orphan.interrupted", at, String.valueOf(r.runId()), String.valueOf(r.leaseOwner()));
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
