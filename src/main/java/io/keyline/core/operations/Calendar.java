package io.keyline.core.operations;

import io.keyline.core.KeyRecords;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;
import io.keyline.domain.WaitReason;

import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A job's recent keys as a calendar (the console's heatmap): the last 90 days, 52 weeks or 24
 * months up to the current key, each with its state, from the job's first week on (a young job's
 * calendar does not open with empty weeks before its first key); the keys that should exist (since
 * {@code key.start}) but never ran are the missing keys, which the attention list, the job list and
 * the heatmap count the same way. Keys that ran ahead of schedule (later than the current key) are
 * counted too, so they are never hidden. Two queries, whatever the number of keys.
 */
public final class Calendar {

    private Calendar() {
    }

    /**
     * One key of the calendar.
     *
     * @param key         the key
     * @param firstDay    first day of the key's period
     * @param state       the key's state, or {@code null} when it never ran
     * @param beforeStart the key is before the job's {@code key.start}: it is not expected to exist
     * @param notYetDue   the current key of a scheduled job whose schedule has not ticked for it yet
     * @param waitReason  why a NEEDS_CONFIRMATION key waits, or {@code null}
     */
    public record Cell(String key, LocalDate firstDay, KeyState state, boolean beforeStart, boolean notYetDue,
                       WaitReason waitReason) {

        /** A key that should exist (since key.start, and its schedule ticked) but never ran. */
        public boolean gap() {
            return state == null && !beforeStart && !notYetDue;
        }
    }

    /**
     * A job's calendar.
     *
     * @param type    date, week or month (manual jobs have no calendar)
     * @param current the current key
     * @param cells   oldest first, the current key last; from the week of the job's first key (its
     *                {@code key.start}, or an older stored key) when that is inside the calendar's reach
     * @param ahead   keys stored later than the current key (run ahead of schedule), oldest first
     */
    public record View(KeyType type, String current, List<Cell> cells, List<String> ahead) {
        public View {
            cells = List.copyOf(cells);
            ahead = List.copyOf(ahead);
        }

        /** The missing keys (never ran, expected since key.start), oldest first. */
        public List<String> missing() {
            return cells.stream().filter(Cell::gap).map(Cell::key).toList();
        }

        public static final View NONE = new View(KeyType.MANUAL, null, List.of(), List.of());
    }

    /** How many keys the calendar of a key type shows. */
    public static int length(KeyType type) {
        return switch (type) {
            case DATE -> 90;
            case WEEK -> 52;
            case MONTH -> 24;
            case MANUAL -> 0;
        };
    }

    /** The job's calendar now; {@link View#NONE} for manual keys. */
    public static View of(JobDefinition def, KeyRecords store, Clock clock) {
        if (def.key().type() == KeyType.MANUAL) {
            return View.NONE;
        }
        int n = length(def.key().type());
        List<String> keys = new ArrayList<>(n);
        String current = KeyRules.current(def.key(), clock);
        String k = current;
        for (int i = 0; i < n; i++) {
            keys.add(k);
            k = KeyRules.previous(def.key(), k);
        }
        Collections.reverse(keys);
        Map<String, KeyRecord> known = store.query(KeyRecords.KeyQuery.all(def.name())
                .between(keys.get(0), keys.get(keys.size() - 1))).stream()
                .collect(Collectors.toMap(KeyRecord::key, Function.identity()));
        String start = def.key().start();
        boolean currentDue = ticked(def, current, clock);
        List<Cell> out = new ArrayList<>(n);
        for (String key : keys) {
            KeyRecord r = known.get(key);
            boolean before = start != null && KeyRules.compare(def.key(), key, start) < 0;
            out.add(new Cell(key, KeyRules.firstDay(def.key(), key), r == null ? null : r.state(), before,
                    key.equals(current) && !currentDue, r == null ? null : r.waitReason()));
        }
        out = fromFirstWeek(def.key().type(), out);
        List<String> ahead = store.query(KeyRecords.KeyQuery.all(def.name())
                        .between(KeyRules.next(def.key(), current), null)).stream().map(KeyRecord::key)
                .filter(x -> KeyRules.compare(def.key(), x, current) > 0)
                .sorted((a, b) -> KeyRules.compare(def.key(), a, b)).toList();
        return new View(def.key().type(), current, out, ahead);
    }

    /**
     * {@code cells} without the leading ones before the job's start that never ran: from the first key the job has
     * (stored, or expected since its start) on, for days from the Monday of that key's week, so the calendar's
     * first column is a whole week. The current key stays, whatever the start.
     */
    static List<Cell> fromFirstWeek(KeyType type, List<Cell> cells) {
        int first = 0;
        while (first < cells.size() - 1 && cells.get(first).beforeStart() && cells.get(first).state() == null) {
            first++;
        }
        if (type == KeyType.DATE) {
            LocalDate monday = cells.get(first).firstDay().with(java.time.DayOfWeek.MONDAY);
            while (first > 0 && !cells.get(first - 1).firstDay().isBefore(monday)) {
                first--;
            }
        }
        return first == 0 ? cells : new ArrayList<>(cells.subList(first, cells.size()));
    }

    /** Whether the job's schedule ticked for its current key already (always, without a schedule). */
    private static boolean ticked(JobDefinition def, String current, Clock clock) {
        if (def.schedule() == null) {
            return true;
        }
        java.time.ZonedDateTime now = clock.instant().atZone(def.key().zone());
        java.time.ZonedDateTime from = KeyRules.firstDay(def.key(), current).atStartOfDay(def.key().zone());
        return !def.schedule().ticksBetween(from.minusSeconds(1), now, 1).isEmpty();
    }

    /** "23 days", "2 weeks", "1 month": a count of keys of a type in words. */
    public static String count(KeyType type, int n) {
        return io.keyline.text.Text.t("core.calendar.count." + type.name(), n);
    }
}
