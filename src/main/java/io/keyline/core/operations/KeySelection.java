package io.keyline.core.operations;

import io.keyline.core.OperatorException;
import io.keyline.core.KeyRecords;
import io.keyline.core.Targets;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyType;
import io.keyline.text.Text;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which keys an operator targets, as the command line ({@code --key}, {@code --from/--to},
 * {@code --due}, none = the current key) and the console's Plan dialog choose them, with the same
 * messages; and the refusal of keys that are not yet due unless the operator chose to run
 * ahead of schedule.
 */
public final class KeySelection {

    private KeySelection() {
    }

    /** A choice that cannot be resolved as given (a usage error on the command line: exit 64). */
    public static final class SelectionException extends IllegalArgumentException {
        public SelectionException(String message) {
            super(message);
        }
    }

    /**
     * What the operator chose.
     *
     * @param keys  explicit keys (may repeat), or empty
     * @param from  first key of a range, or {@code null}
     * @param to    last key of a range ({@code null}: the current key)
     * @param due   the due keys (missed ticks of the catch-up window, pending keys, retries)
     * @param ahead keys later than the current one are allowed (run ahead of schedule)
     */
    public record Choice(List<String> keys, String from, String to, boolean due, boolean ahead) {
        public Choice {
            keys = keys == null ? List.of() : List.copyOf(keys);
        }

        /** The current key of a date, week or month job. */
        public static Choice current() {
            return new Choice(List.of(), null, null, false, false);
        }

        public static Choice keys(List<String> keys) {
            return new Choice(keys, null, null, false, false);
        }

        public static Choice range(String from, String to) {
            return new Choice(List.of(), from, to, false, false);
        }

        public static Choice dueKeys() {
            return new Choice(List.of(), null, null, true, false);
        }

        public Choice withAhead(boolean a) {
            return new Choice(keys, from, to, due, a);
        }

        /** How the keys were chosen, for the run log: {@code --key K}, {@code --from A --to B}, {@code --due}, {@code current}. */
        public String describe() {
            if (!keys.isEmpty()) {
                return "--key " + String.join(" --key ", keys);
            }
            if (from != null) {
                return "--from " + from + (to == null ? "" : " --to " + to);
            }
            return due ? "--due" : "current";
        }
    }

    /**
     * The keys a choice targets.
     *
     * @param keys  normalized keys, in order (duplicates dropped)
     * @param notes catch-up notes by key ({@code catch-up: missed tick …}), for the plan's actions
     */
    public record Resolved(List<String> keys, Map<String, io.keyline.text.Said> notes) {
        public Resolved {
            keys = List.copyOf(keys);
            notes = Map.copyOf(notes);
        }
    }

    /**
     * Resolves a choice against a job.
     *
     * @param store  read for {@code due} only
     * @param window the catch-up window of {@code due}
     * @throws SelectionException         when the options contradict each other or the job has manual keys
     *                                    and none was named
     * @throws io.keyline.domain.InvalidKeyException when a key does not fit the job's key type
     */
    public static Resolved resolve(JobDefinition job, Choice c, KeyRecords store, Clock clock, Duration window) {
        int kinds = (c.keys().isEmpty() ? 0 : 1) + (c.from() != null || c.to() != null ? 1 : 0) + (c.due() ? 1 : 0);
        if (kinds > 1) {
            throw new SelectionException(Text.t("core.selection.oneKind", "--key", "--from/--to", "--due"));
        }
        if (!c.keys().isEmpty()) {
            return plain(Targets.explicit(job, c.keys()));
        }
        if (c.to() != null && c.from() == null) {
            throw new SelectionException(Text.t("core.selection.needs", "--to", "--from"));
        }
        if (c.from() != null) {
            String last = c.to() != null ? c.to() : KeyRules.current(job.key(), clock);
            return plain(Targets.range(job, c.from(), last));
        }
        if (c.due()) {
            List<Targets.DueKey> due = Targets.dueKeys(job, store, clock.instant(), window);
            Map<String, io.keyline.text.Said> notes = new HashMap<>();
            due.stream().filter(Targets.DueKey::catchUp).forEach(d -> notes.put(d.key(), d.note()));
            return new Resolved(due.stream().map(Targets.DueKey::key).toList(), notes);
        }
        try {
            return plain(Targets.current(job, clock));
        } catch (OperatorException e) {
            throw new SelectionException(e.getMessage());
        }
    }

    private static Resolved plain(List<String> keys) {
        return new Resolved(keys, Map.of());
    }

    /**
     * The keys later than the job's current key (not yet due), in order; empty for manual keys.
     */
    public static List<String> notYetDue(JobDefinition job, List<String> keys, Clock clock) {
        if (job.key().type() == KeyType.MANUAL) {
            return List.of();
        }
        String current = KeyRules.current(job.key(), clock);
        return keys.stream().filter(k -> KeyRules.compare(job.key(), k, current) > 0).toList();
    }

    /**
     * Refuses keys later than the job's current key unless the operator chose to run ahead of
     * schedule: running them would publish tomorrow's work today.
     *
     * @throws OperatorException naming the keys, the current key and how to run them ahead
     */
    public static void refuseNotYetDue(JobDefinition job, List<String> keys, boolean ahead, Clock clock) {
        if (ahead) {
            return;
        }
        List<String> later = notYetDue(job, keys, clock);
        if (!later.isEmpty()) {
            String current = KeyRules.current(job.key(), clock);
            throw later.size() == 1
                    ? OperatorException.of("core.refused.notYetDueOne", later.get(0), job.name(), current,
                            job.key().zone().toString())
                    : OperatorException.of("core.refused.notYetDue", later.size(), later.get(0),
                            later.get(later.size() - 1), job.name(), current, job.key().zone().toString());
        }
    }

    /**
     * The catch-up window of {@code --due}: {@code option} ({@code --catch-up}), else {@code setting}
     * ({@code $KEYLINE_CATCH_UP}), else 7 days.
     *
     * @throws SelectionException when the option is given without {@code --due}, or is not a positive duration
     */
    public static Duration window(String option, String setting, boolean due) {
        if (option != null && !due) {
            throw new SelectionException(Text.t("core.selection.goesWith", "--catch-up", "--due"));
        }
        try {
            return Targets.catchUpWindow(option != null ? option : setting);
        } catch (IllegalArgumentException e) {
            throw new SelectionException(e.getMessage());
        }
    }

    /** Keys typed into one field, separated by spaces, commas, semicolons or lines. */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String s : text.split("[\\s,;]+")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }
}
