package io.keyline.core;

import io.keyline.domain.CronExpression;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Which keys a command targets: explicit keys, a range, or the due keys. */
public final class Targets {

    /** Missed schedule ticks older than this are not caught up automatically. */
    public static final Duration DEFAULT_CATCH_UP = Duration.ofDays(7);
    private static final int MAX_TICKS = 10_000;

    private Targets() {
    }

    /** Normalized explicit keys (duplicates dropped, order kept). */
    public static List<String> explicit(JobDefinition job, List<String> raw) {
        Set<String> out = new LinkedHashSet<>();
        for (String k : raw) {
            out.add(KeyRules.normalize(job.key(), k));
        }
        return List.copyOf(out);
    }

    public static List<String> range(JobDefinition job, String from, String to) {
        return KeyRules.range(job.key(), from, to);
    }

    /** The key of "now" for date/week/month jobs. */
    public static List<String> current(JobDefinition job, java.time.Clock clock) {
        if (job.key().type() == KeyType.MANUAL) {
            throw new OperatorException("job " + job.name() + " has manual keys: name them with --key");
        }
        return List.of(KeyRules.current(job.key(), clock));
    }

    /**
     * The due keys: keys of schedule ticks within the catch-up window that are not finished, plus
     * every stored key that is pending, waiting for a retry, or running without a live holder.
     */
    public static List<String> due(JobDefinition job, StateStore store, Instant now, Duration catchUp) {
        Set<String> keys = new LinkedHashSet<>();
        CronExpression cron = job.schedule();
        if (cron != null && job.key().type() != KeyType.MANUAL) {
            ZonedDateTime to = now.atZone(job.key().zone());
            ZonedDateTime from = to.minus(catchUp);
            List<ZonedDateTime> ticks = cron.ticksBetween(from, to, MAX_TICKS);
            List<String> tickKeys = new ArrayList<>();
            for (ZonedDateTime t : ticks) {
                String k = KeyRules.keyAt(job.key(), t);
                if (job.key().start() == null || KeyRules.compare(job.key(), k, job.key().start()) >= 0) {
                    tickKeys.add(k);
                }
            }
            var known = store.keys(job.name(), tickKeys);
            for (String k : tickKeys) {
                KeyRecord r = known.get(k);
                if (r == null || !r.state().finished() && !r.state().needsAttention()) {
                    keys.add(k);
                }
            }
        }
        for (KeyRecord r : store.query(new StateStore.KeyQuery(job.name(),
                Set.of(KeyState.PENDING, KeyState.RETRY_WAIT, KeyState.RUNNING), null, 0, Integer.MAX_VALUE))) {
            keys.add(r.key());
        }
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort((a, b) -> KeyRules.compare(job.key(), a, b));
        return sorted;
    }
}
