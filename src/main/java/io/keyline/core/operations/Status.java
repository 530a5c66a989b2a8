package io.keyline.core.operations;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialStore;
import io.keyline.core.KeyRecords;
import io.keyline.core.Leases;
import io.keyline.core.Orphans;
import io.keyline.core.Waiting;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The keys and their states as {@code keyline status} lists them: all keys (of one job, or of all), or
 * those that wait for a person, with the keys a killed run left RUNNING marked as interrupted, where to
 * log in for a key that waits for a login, and the credentials (for their warnings).
 *
 * @param rows            ordered by job and key
 * @param credentials     the stored credentials
 * @param parkedOnMissing keys parked on credentials that are not stored, by credential
 */
public record Status(List<Row> rows, List<CredentialInfo> credentials, Map<String, Integer> parkedOnMissing) {

    /**
     * One key.
     *
     * @param key         its record
     * @param interrupted a RUNNING key whose holder is gone: it resumes on the next run
     * @param message     its message (an interrupted key's says so and who held it)
     * @param loginUrl    for a key that waits for a login: where to log in again, or {@code null}
     * @param expiresAt   for a key that waits for a confirmation of a step with {@code expireAfter}: when the wait
     *                    ends (skipped or failed, never confirmed), else {@code null}
     */
    public record Row(KeyRecord key, boolean interrupted, String message, String loginUrl, Instant expiresAt) {

        public Row(KeyRecord key, boolean interrupted, String message, String loginUrl) {
            this(key, interrupted, message, loginUrl, null);
        }

        /** When the key started waiting for a person, or {@code null}. */
        public Instant waitingSince() {
            return Waiting.since(key);
        }
    }

    /** Whether any listed key waits for a person (an interrupted key resumes by itself: it does not). */
    public boolean anyWaits() {
        return rows.stream().anyMatch(r -> r.key().state().needsAttention());
    }

    /**
     * @param job       one job, or {@code null} for all
     * @param attention only keys that wait for a person, and interrupted ones
     * @param jobs      the job definitions by name (where an interrupted key resumes, when a wait expires); a key
     *                  whose job is not among them is shown without
     */
    static Status of(KeyRecords keys, Leases leases, CredentialStore credentials, String job, boolean attention,
                     Instant now, Map<String, JobDefinition> jobs) {
        List<KeyRecord> list = new ArrayList<>(keys.query(KeyRecords.KeyQuery.in(job,
                attention ? KeyState.ATTENTION : Set.of())));
        if (attention) {
            list.addAll(Orphans.of(keys, leases, job, now));
            list.sort(Comparator.comparing(KeyRecord::job).thenComparing(KeyRecord::key));
        }
        Predicate<KeyRecord> interrupted = k -> k.state() == KeyState.RUNNING && Orphans.orphaned(leases, k, now);
        Map<String, String> orphans = new HashMap<>();
        for (KeyRecord k : list) {
            if (interrupted.test(k)) {
                orphans.put(k.job() + "/" + k.key(), Orphans.describe(k, jobs.get(k.job()),
                        keys.steps(k.job(), k.key())));
            }
        }
        Status s = of(list, credentials.list(), credentials.parkedOnMissing(), interrupted);
        List<Row> rows = new ArrayList<>(s.rows().size());
        for (Row r : s.rows()) {
            KeyRecord k = r.key();
            String message = orphans.getOrDefault(k.job() + "/" + k.key(), r.message());
            rows.add(new Row(k, r.interrupted(), message, r.loginUrl(), Waiting.expiresAt(jobs.get(k.job()), k)));
        }
        return new Status(List.copyOf(rows), s.credentials(), s.parkedOnMissing());
    }

    /** The status of keys read already, with the rule that says which of them are interrupted. */
    public static Status of(List<KeyRecord> keys, List<CredentialInfo> credentials, Map<String, Integer> parkedOnMissing,
                            Predicate<KeyRecord> interrupted) {
        Map<String, String> loginUrls = new HashMap<>();
        credentials.stream().filter(i -> i.loginUrl() != null).forEach(i -> loginUrls.put(i.name(), i.loginUrl()));
        List<Row> rows = new ArrayList<>(keys.size());
        for (KeyRecord k : keys) {
            boolean orphan = interrupted.test(k);
            rows.add(new Row(k, orphan, orphan ? Orphans.describe(k) : k.message(),
                    k.state() == KeyState.NEEDS_CREDENTIAL && k.credential() != null
                            ? loginUrls.get(k.credential()) : null));
        }
        return new Status(List.copyOf(rows), List.copyOf(credentials), Map.copyOf(parkedOnMissing));
    }
}
