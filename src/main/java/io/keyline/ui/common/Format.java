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
}
