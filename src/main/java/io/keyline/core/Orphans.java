package io.keyline.core;

import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.time.Instant;
import java.util.List;
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

    /** The line shown for an orphan: why and who held it. */
    public static String describe(KeyRecord r) {
        return MESSAGE + " (at " + (r.step() == null ? "its first step" : "step " + r.step()) + "; run " + r.runId()
                + " of " + r.leaseOwner() + " ended without finishing)";
    }
}
