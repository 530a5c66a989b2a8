package io.keyline.ui.common;

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
        return STEP_LIST.matcher(action).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                m.group(1).replace(",", " → ")));
    }

    /**
     * A message of the shared operations in the console's words: the command line's options become the
     * controls that do the same here ("add --ahead" → tick "Run ahead of schedule").
     */
    public static String console(String message) {
        if (message == null) {
            return "";
        }
        message = message.replaceAll("\\(keyline credentials set [^)]+\\)", "(Renew login…)")
                .replaceAll("'keyline credentials test [^']+'", "its Test")
                .replaceAll("(\\d{4}-\\d\\d-\\d\\d)T(\\d\\d:\\d\\d:\\d\\d)(\\.\\d+)?Z", "$1 $2 UTC");
        return action(message.replace("add --ahead", "tick \"Run ahead of schedule\"")
                .replace("--ahead", "\"Run ahead of schedule\"")
                .replace("--from/--to", "a range").replace("--catch-up", "the catch-up window")
                .replace("--due", "the Due target").replace("--key", "the Keys target"));
    }
}
