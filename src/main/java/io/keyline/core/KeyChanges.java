package io.keyline.core;

import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.StepRecord;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Changes of keys. An implementation never assumes it is the only process: every change of a key is an
 * optimistic update guarded by its version, written in one transaction with its step record and event.
 */
public interface KeyChanges {

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

    /**
     * Re-arms a key (operator {@code rearm}): the guarded change of {@link #apply} and, in the same
     * transaction, the records of {@code resetSteps} are removed (those steps run again).
     *
     * @throws StaleStateException when another process changed the key first; nothing was written
     */
    KeyRecord rearm(KeyRecord before, KeyRecord after, List<String> resetSteps, KeyEvent event);

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
    Optional<KeyRecord> claimNext(String job, List<String> keys, Instant now, Function<KeyRecord, Change> claim);

    /**
     * Claims that lost to another process in this process (the version guard failed at the claim):
     * a measure of wasted work when several workers share the state.
     */
    long claimConflicts();

    /**
     * Makes every commit so far durable against a killed process (handed to the operating system),
     * whatever else the process is doing: called after the "step started" of an unsafe step, before
     * the request leaves.
     */
    void sync();

    /**
     * One change for {@link #applyAll} and {@link #applyChain}.
     *
     * @param step        a step record to write with it, or {@code null}
     * @param removeSteps the steps whose records are removed with it (they run again: their outputs are gone)
     * @param stepIsNew   the step has no record yet, as the writer knows for sure: it is inserted without first
     *                    trying to update one; when {@code false} a record is updated, or inserted if there is none
     */
    record Change(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event, List<String> removeSteps,
                  boolean stepIsNew) {
        public Change {
            removeSteps = removeSteps == null ? List.of() : List.copyOf(removeSteps);
        }

        public Change(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event, List<String> removeSteps) {
            this(before, after, step, event, removeSteps, false);
        }

        public Change(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event) {
            this(before, after, step, event, List.of());
        }
    }
}
