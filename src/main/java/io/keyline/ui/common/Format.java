package io.keyline.ui.common;

import io.keyline.core.operations.Words;
import io.keyline.domain.InvalidKeyException;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the console writes times, durations and states. */
public final class Format {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    private Format() {
    }

    public static String time(Instant t) {
        return t == null ? "" : TIME.format(t);
    }

    /** A failure's message for the console, or its class name when it has none: the core's {@code Words.error}. */
    public static String error(Throwable e) {
        return io.keyline.core.operations.Words.error(e);
    }

    public static String shortTime(Instant t) {
        return t == null ? "" : SHORT.format(t);
    }

    /** "3 min ago", "in 2 h", "just now". */
    public static String relative(Instant t, Instant now) {
        return io.keyline.core.operations.Timeline.relative(t, now); // one wording for CLI and console
    }

    public static String millis(long ms) {
        return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** The state in plain words ("Needs confirmation"): the core's one mapping, {@code Words.state}. */
    public static String state(KeyState s) {
        return io.keyline.core.operations.Words.state(s);
    }

    /** The style class of a state: {@code state-failed}, {@code state-needs-confirmation}, … */
    public static String styleClass(KeyState s) {
        return "state-" + s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static final java.util.regex.Pattern STEP_LIST =
            java.util.regex.Pattern.compile("\\b([A-Za-z][\\w-]*(?:,[A-Za-z][\\w-]*)+)\\b");

    /** A planned action as the console says it: {@code run write,publish} → {@code run write → publish}. */
    public static String action(String action) {
        if (action == null) {
            return "";
        }
        return localTimes(STEP_LIST.matcher(action).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                m.group(1).replace(",", " → "))));
    }

    /**
     * A key's message as the console says it. A key that waits for a login is worded from its state and
     * credential (the stored text tells the command line what to type); other messages in plain words
     * ({@code Words.message}).
     */
    public static String keyMessage(KeyRecord r) {
        if (r == null) {
            return "";
        }
        if (r.state() == KeyState.NEEDS_CREDENTIAL && r.credential() != null) {
            return String.format("Waits for a new login to %s: renew it (Renew login… in Attention) and the key "
                    + "resumes.", r.credential());
        }
        return Words.message(r.message());
    }

    /**
     * An event's message as the console says it: a wait for a login that sent nothing (the login was
     * rejected before, or is missing) is worded from its type; others in plain words.
     */
    public static String eventMessage(io.keyline.core.operations.Timeline.EventRow e) {
        if (e.type() == io.keyline.domain.EventType.WAITING_FOR_CREDENTIAL && e.evidence() == null) {
            return "Nothing was sent: the login is rejected or missing, and the key waits until it is renewed.";
        }
        return e.message();
    }

    /** What an action on one key came to: "daily 2026-11-08: done", "daily 2026-11-08: failed — …". */
    public static String outcome(io.keyline.core.operations.KeyActions.Outcome o) {
        KeyRecord r = o.after();
        if (r == null) {
            return String.format("%s %s: nothing ran", o.job(), o.key());
        }
        String message = r.state() == KeyState.DONE ? "" : keyMessage(r);
        return message.isEmpty() ? String.format("%s %s: %s", o.job(), o.key(), Words.stateLower(r.state()))
                : String.format("%s %s: %s — %s", o.job(), o.key(), Words.stateLower(r.state()), message);
    }

    /** Why something could not be done, for the console: a key the job does not accept in its own words. */
    public static String problem(Throwable e) {
        return e instanceof InvalidKeyException k ? invalidKey(k) : Words.error(e);
    }

    /** A key (or range) the job does not accept, in the console's words (no field names, no options). */
    public static String invalidKey(InvalidKeyException e) {
        java.util.List<String> v = e.values();
        return switch (e.problem()) {
            case NOT_A_DATE -> String.format("\"%s\" is not a date: write it as 2026-11-29.", v.get(0));
            case NOT_A_WEEK -> String.format("\"%s\" is not a week: write it as 2026-W48.", v.get(0));
            case NO_SUCH_WEEK -> String.format("%s has no week %s: its weeks run from W01 to W%s.", v.get(1),
                    v.get(0), v.get(2));
            case NOT_A_MONTH -> String.format("\"%s\" is not a month: write it as 2026-11.", v.get(0));
            case BEFORE_START -> String.format("%s is before this job's first key, %s.", v.get(0), v.get(1));
            case RANGE_BACKWARDS -> String.format("The range is backwards: %s comes after %s.", v.get(0), v.get(1));
            case RANGE_TOO_LONG -> String.format("%s to %s is %s keys, more than %s at once: choose a shorter range.",
                    v.get(0), v.get(1), v.get(2), v.get(3));
            case NO_ORDER -> "This job's keys are names, not dates: choose Keys and type them.";
            case EMPTY -> "A key is empty.";
            case TOO_LONG -> String.format("The key \"%s…\" is %s characters long; at most %s are allowed.", v.get(0),
                    v.get(1), v.get(2));
            case CONTROL_CHARACTER -> String.format("The key \"%s\" contains a control character.", v.get(0));
            case PATH_SEPARATOR -> String.format("The key \"%s\" contains a slash; keys cannot name folders.", v.get(0));
            case DOT_DOT -> String.format("The key \"%s\" contains \"..\"; keys cannot name folders.", v.get(0));
            case FIRST_CHARACTER -> String.format("The key \"%s\" must start with a letter or a digit.", v.get(0));
            case CHARACTER -> String.format("The key \"%s\" contains \"%s\": use letters, digits, \".\", \"_\" or "
                    + "\"-\".", v.get(0), v.get(1));
            case OTHER -> Words.error(e);
        };
    }

    /** Instants in a text of the core ("2026-12-01T09:00:00Z") in the console's local time. */
    static String localTimes(String text) {
        java.util.regex.Matcher m = INSTANT.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String shown;
            try {
                shown = time(Instant.parse(m.group()));
            } catch (java.time.format.DateTimeParseException e) {
                shown = m.group();
            }
            m.appendReplacement(sb, java.util.regex.Matcher.quoteReplacement(shown));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static final java.util.regex.Pattern INSTANT =
            java.util.regex.Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?Z");
}
