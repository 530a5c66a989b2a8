package io.keyline.core;

import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepRecord;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The state's keys and their step records, read (changes go through {@link KeyChanges}). */
public interface KeyRecords {

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

    /** The step records of several keys of a job, by key (keys without any are absent). One query. */
    Map<String, Map<String, StepRecord>> steps(String job, Collection<String> keys);

    /**
     * For each of {@code keys} that a run made done, that run: from its first event (its claim) to its last. A key
     * an operator marked done (after its last done-making run, if any) is absent, as is a key never done. One query
     * per chunk.
     */
    Map<String, RunSpan> finishingRuns(String job, Collection<String> keys);

    /** A run of one key: its first event (the claim) and its last. */
    record RunSpan(java.time.Instant start, java.time.Instant end) {
        public java.time.Duration duration() {
            return end.isBefore(start) ? java.time.Duration.ZERO : java.time.Duration.between(start, end);
        }
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
     * @param reviews    whether the keys that wait for their job's review are listed with the others, alone or not
     */
    record KeyQuery(String job, Set<KeyState> states, String search, int offset, int limit, String keyFrom,
                    String keyTo, boolean descending, ReviewWaits reviews) {
        public KeyQuery {
            states = states == null ? Set.of() : Set.copyOf(states);
            reviews = reviews == null ? ReviewWaits.WITH : reviews;
        }

        public KeyQuery(String job, Set<KeyState> states, String search, int offset, int limit) {
            this(job, states, search, offset, limit, null, null, false, ReviewWaits.WITH);
        }

        public static KeyQuery all(String job) {
            return new KeyQuery(job, Set.of(), null, 0, Integer.MAX_VALUE);
        }

        /** Every key of {@code job} (all jobs: {@code null}) in one of {@code states}. */
        public static KeyQuery in(String job, Set<KeyState> states) {
            return new KeyQuery(job, states, null, 0, Integer.MAX_VALUE);
        }

        public KeyQuery between(String from, String to) {
            return new KeyQuery(job, states, search, offset, limit, from, to, descending, reviews);
        }

        public KeyQuery page(int newOffset, int newLimit, boolean newestFirst) {
            return new KeyQuery(job, states, search, newOffset, newLimit, keyFrom, keyTo, newestFirst, reviews);
        }

        /** The same query, keeping the keys that wait for their job's review as {@code which} says. */
        public KeyQuery withReviews(ReviewWaits which) {
            return new KeyQuery(job, states, search, offset, limit, keyFrom, keyTo, descending, which);
        }

        /**
         * The keys that wait for their job's review (NEEDS_CONFIRMATION with wait reason REVIEW: nothing was
         * sent) in a listing. A NEEDS_CONFIRMATION key stored without a reason waits for a confirmation.
         */
        public enum ReviewWaits {
            /** Listed with the other keys. */
            WITH,
            /** Listed alone: no other key is. */
            ONLY,
            /** Left out: the NEEDS_CONFIRMATION keys listed wait for a person's confirmation. */
            WITHOUT
        }
    }
}
