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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            throw OperatorException.of("core.refused.manualKeys", job.name());
        }
        return List.of(KeyRules.current(job.key(), clock));
    }

    /**
     * A due key and why it is due.
     *
     * @param key       the key
     * @param firstTick the earliest schedule tick of this key within the window (in the job's zone), or
     *                  {@code null} when the key is due only because of its stored state (pending, retry)
     * @param catchUp   whether the key belongs to a missed tick: an earlier tick than the latest one
     */
    public record DueKey(String key, ZonedDateTime firstTick, boolean catchUp) {
        private static final java.time.format.DateTimeFormatter TICK =
                java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

        /** {@code catch-up: missed tick 2026-11-27 09:00}, or {@code null} for a key that is not a catch-up. */
        public io.keyline.text.Said note() {
            return catchUp ? io.keyline.text.Said.of("core.plan.catchUp", TICK.format(firstTick)) : null;
        }
    }

    /**
     * The due keys with their reason, sorted by key. A key of the latest tick at or before {@code now}
     * is simply due; a key of an earlier tick in the window is a catch-up (the tick was missed).
     */
    public static List<DueKey> dueKeys(JobDefinition job, KeyRecords store, Instant now, Duration catchUp) {
        return dueKeys(job, store, now, catchUp, List.of());
    }

    /**
     * As {@link #dueKeys(JobDefinition, KeyRecords, Instant, Duration)}, with the keys the job's key source
     * listed: a listed key that is new, or not finished and not waiting for a person, is due.
     */
    public static List<DueKey> dueKeys(JobDefinition job, KeyRecords store, Instant now, Duration catchUp,
                                       java.util.Collection<String> listed) {
        Map<String, DueKey> keys = new LinkedHashMap<>();
        if (!listed.isEmpty()) {
            var known = store.keys(job.name(), listed);
            for (String k : listed) {
                KeyRecord r = known.get(k);
                if (r == null || !r.state().finished() && (!r.state().needsAttention()
                        || DecisionInputs.waitsForReview(r))) {
                    keys.put(k, new DueKey(k, null, false));
                }
            }
        }
        CronExpression cron = job.schedule();
        if (cron != null && job.key().type() != KeyType.MANUAL) {
            ZonedDateTime to = now.atZone(job.key().zone());
            ZonedDateTime from = to.minus(catchUp);
            List<ZonedDateTime> ticks = cron.ticksBetween(from, to, MAX_TICKS);
            String latest = ticks.isEmpty() ? null : KeyRules.keyAt(job.key(), ticks.get(ticks.size() - 1));
            Map<String, ZonedDateTime> tickKeys = new LinkedHashMap<>();
            for (ZonedDateTime t : ticks) {
                String k = KeyRules.keyAt(job.key(), t);
                if (job.key().start() == null || KeyRules.compare(job.key(), k, job.key().start()) >= 0) {
                    tickKeys.putIfAbsent(k, t);
                }
            }
            var known = store.keys(job.name(), tickKeys.keySet());
            tickKeys.forEach((k, t) -> {
                KeyRecord r = known.get(k);
                if (r == null || !r.state().finished() && (!r.state().needsAttention()
                        || DecisionInputs.waitsForReview(r))) {
                    keys.put(k, new DueKey(k, t, !k.equals(latest)));
                }
            });
        }
        for (KeyRecord r : store.query(KeyRecords.KeyQuery.in(job.name(),
                Set.of(KeyState.PENDING, KeyState.RETRY_WAIT, KeyState.RUNNING, KeyState.NEEDS_CONFIRMATION)))) {
            // a key that waits for the review of its job is due: held back only until the review
            if (r.state() != KeyState.NEEDS_CONFIRMATION || DecisionInputs.waitsForReview(r)) {
                keys.putIfAbsent(r.key(), new DueKey(r.key(), null, false));
            }
        }
        List<DueKey> sorted = new ArrayList<>(keys.values());
        sorted.sort((a, b) -> KeyRules.compare(job.key(), a.key(), b.key()));
        return sorted;
    }

    /**
     * The catch-up window from a setting such as {@code P7D} or {@code PT36H} (ISO-8601), or the
     * default of 7 days when the setting is blank.
     *
     * @throws IllegalArgumentException when the setting is not a positive ISO-8601 duration
     */
    public static Duration catchUpWindow(String setting) {
        if (setting == null || setting.isBlank()) {
            return DEFAULT_CATCH_UP;
        }
        Duration d;
        try {
            d = Duration.parse(setting.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(io.keyline.text.Text.t("core.selection.badWindow", setting));
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(io.keyline.text.Text.t("core.selection.windowNotPositive", setting));
        }
        return d;
    }
}
