package io.keyline.core;

import io.keyline.domain.JobControl;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepRecord;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The durable state the core works on. Implementations keep to SQL that H2 and PostgreSQL both
 * speak and never assume they are the only process: every change of a key is an optimistic
 * update guarded by its version, written in one transaction with its event.
 */
public interface StateStore extends AutoCloseable {

    Optional<KeyRecord> key(String job, String key);

    /** The stored records among {@code keys}, by key; keys never seen are absent. One query per chunk. */
    Map<String, KeyRecord> keys(String job, Collection<String> keys);

    /** Every stored key of a job, ordered by key. */
    List<KeyRecord> keys(String job);

    /** Keys matching a query (listing for status and the console), ordered by job then key. */
    List<KeyRecord> query(KeyQuery query);

    /** How many keys match a query (offset and limit ignored). */
    int count(KeyQuery query);

    /** Key counts per state for a job. */
    Map<KeyState, Integer> countsByState(String job);

    /** Key counts per state for every job: job → state → count. One query. */
    Map<String, Map<KeyState, Integer>> countsByJob();

    Map<String, StepRecord> steps(String job, String key);

    /**
     * The step records of several keys of a job, by key (keys without any are absent). One query in the
     * JDBC store; this default asks key by key.
     */
    default Map<String, Map<String, StepRecord>> steps(String job, Collection<String> keys) {
        Map<String, Map<String, StepRecord>> out = new java.util.LinkedHashMap<>();
        for (String k : keys) {
            Map<String, StepRecord> s = steps(job, k);
            if (!s.isEmpty()) {
                out.put(k, s);
            }
        }
        return out;
    }

    /** The key's events, oldest first. */
    List<KeyEvent> events(String job, String key);

    /**
     * For every key in one of {@code keyStates}, its latest failure with evidence: the last event
     * with a failure class and evidence, other than the wait for a confirmation (whose evidence is
     * the probe's answer, not the failure). One query, whatever the number of keys.
     */
    List<KeyEvent> lastFailures(Set<KeyState> keyStates);

    /**
     * Stores a fresh (never stored) key as PENDING if no process stored it first, and returns the
     * stored record either way.
     */
    KeyRecord ensure(KeyRecord fresh);

    /**
     * Applies one change: updates the key (guarded by {@code before.version()} and, when
     * {@code before.leaseOwner()} is set, by the lease owner), writes the step record if given and
     * appends the event, all in one transaction.
     *
     * @return the stored record (version incremented)
     * @throws StaleStateException when another process changed the key first; nothing was written
     */
    KeyRecord apply(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event);

    /**
     * Applies several changes in one transaction (set-based operator actions). Changes whose guard
     * fails are skipped; the returned list holds the records that were written.
     */
    List<KeyRecord> applyAll(List<Change> changes);

    /**
     * Applies a chain of changes of one key in one transaction, all or nothing: each change's
     * {@code before} is the previous change's result; a change with a {@code null} before inserts a
     * key that was never stored.
     *
     * @return the last record written
     * @throws StaleStateException when any guard fails (another process got there first); nothing was written
     */
    KeyRecord applyChain(List<Change> changes);

    /** Extends a held lease without changing the key's version. @return false when the lease was lost */
    boolean renewLease(String job, String key, String owner, Instant until);

    /**
     * Extends the leases of the keys {@code owner} holds (the per-process heartbeat: one call for all of
     * them), without changing their versions.
     *
     * @return how many were renewed (a key another process took over is not)
     */
    default int renewLeases(String owner, Collection<LeaseKeeper.Held> keys, Instant until) {
        int n = 0;
        for (LeaseKeeper.Held h : keys) {
            n += renewLease(h.job(), h.key(), owner, until) ? 1 : 0;
        }
        return n;
    }

    /** The processes registered on this state, and the rule whether a key's holder is alive. */
    default WorkerRegistry workers() {
        return WorkerRegistry.LOCAL;
    }

    /**
     * Claims the first of {@code keys} (stored keys of {@code job}, in key order) that is startable
     * now and that no other process is claiming at this moment, in one transaction: on PostgreSQL the
     * candidates are locked with {@code FOR UPDATE SKIP LOCKED}, so workers that share the state take
     * different keys instead of racing for the same one; the claim is still guarded by the version.
     *
     * @param claim makes the claim of a candidate read under lock ({@code PENDING}, or {@code RETRY_WAIT}
     *              due by {@code now}), or returns {@code null} when it must not be claimed now
     * @return the claimed key as stored, or empty when none was free
     */
    default Optional<KeyRecord> claimNext(String job, List<String> keys, Instant now,
                                          java.util.function.Function<KeyRecord, Change> claim) {
        Map<String, KeyRecord> known = keys(job, keys);
        for (String k : keys) {
            KeyRecord r = known.get(k);
            if (r == null || !(r.state() == KeyState.PENDING || r.state() == KeyState.RETRY_WAIT
                    && (r.nextAttemptAt() == null || !r.nextAttemptAt().isAfter(now)))) {
                continue;
            }
            Change ch = claim.apply(r);
            if (ch == null) {
                continue;
            }
            try {
                return Optional.of(apply(ch.before(), ch.after(), ch.step(), ch.event()));
            } catch (StaleStateException e) {
                // another process got there first: the next one
            }
        }
        return Optional.empty();
    }

    /**
     * Claims that lost to another process in this process (the version guard failed at the claim):
     * a measure of wasted work when several workers share the state.
     */
    default long claimConflicts() {
        return 0;
    }

    /**
     * Calls {@code onChange} (on a thread of its own) when another process changes keys or workers, for
     * as long as the returned handle is open: PostgreSQL {@code LISTEN}. Where the store cannot tell,
     * the handle does nothing and readers poll.
     */
    default AutoCloseable watch(Runnable onChange) {
        return () -> { };
    }

    /**
     * Re-arms a key (operator {@code rearm}): the guarded change of {@link #apply} and, in the same
     * transaction, the records of {@code resetSteps} are removed (those steps run again).
     *
     * @throws StaleStateException when another process changed the key first; nothing was written
     */
    KeyRecord rearm(KeyRecord before, KeyRecord after, List<String> resetSteps, KeyEvent event);

    /**
     * Makes every commit so far durable against a killed process (handed to the operating system),
     * whatever else the process is doing: called after the "step started" of an unsafe step, before
     * the request leaves.
     */
    void sync();

    /** Records the child process a command step of a key started (one per key: the latest). */
    void recordChild(Child child);

    /** The child process a key's command step started last, if recorded. */
    Optional<Child> child(String job, String key);

    JobControl jobControl(String job);

    /** Every job's control that has been stored, by job (a job without one runs: {@link JobControl#running}). */
    Map<String, JobControl> jobControls();

    void saveJobControl(JobControl control);

    /**
     * Keeps a plan for {@code apply}.
     *
     * @param options how it was made ({@code ahead}, {@code no-probes}, comma-separated), or {@code null}
     */
    void savePlan(String planId, String job, Instant createdAt, List<String> keys, String options);

    default void savePlan(String planId, String job, Instant createdAt, List<String> keys) {
        savePlan(planId, job, createdAt, keys, null);
    }

    Optional<SavedPlan> plan(String planId);

    @Override
    void close();

    /** One change for {@link #applyAll}. */
    record Change(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event) {
    }

    /**
     * A command step's child process.
     *
     * @param job       job
     * @param key       key
     * @param step      step
     * @param host      host it runs on
     * @param pid       pid (and process group id)
     * @param startedAt its start time (a pid may be reused)
     * @param deadline  when the step's timeout ends
     */
    record Child(String job, String key, String step, String host, long pid, Instant startedAt, Instant deadline) {
    }

    /** A plan kept for {@code apply}. */
    record SavedPlan(String planId, String job, Instant createdAt, List<String> keys, String options) {
        public SavedPlan(String planId, String job, Instant createdAt, List<String> keys) {
            this(planId, job, createdAt, keys, null);
        }

        public boolean has(String option) {
            return options != null && java.util.Arrays.asList(options.split(",")).contains(option);
        }
    }

    /**
     * A listing query.
     *
     * @param job        job name, or {@code null} for all jobs
     * @param states     states to include, empty for all
     * @param search     substring of the key or message, or {@code null}
     * @param offset     rows to skip
     * @param limit      rows at most
     * @param keyFrom    first key (inclusive; date, week and month keys sort as text), or {@code null}
     * @param keyTo      last key (inclusive), or {@code null}
     * @param descending newest key first
     */
    record KeyQuery(String job, Set<KeyState> states, String search, int offset, int limit, String keyFrom,
                    String keyTo, boolean descending) {
        public KeyQuery {
            states = states == null ? Set.of() : Set.copyOf(states);
        }

        public KeyQuery(String job, Set<KeyState> states, String search, int offset, int limit) {
            this(job, states, search, offset, limit, null, null, false);
        }

        public static KeyQuery all(String job) {
            return new KeyQuery(job, Set.of(), null, 0, Integer.MAX_VALUE);
        }

        public KeyQuery between(String from, String to) {
            return new KeyQuery(job, states, search, offset, limit, from, to, descending);
        }

        public KeyQuery page(int newOffset, int newLimit, boolean newestFirst) {
            return new KeyQuery(job, states, search, newOffset, newLimit, keyFrom, keyTo, newestFirst);
        }
    }
}
