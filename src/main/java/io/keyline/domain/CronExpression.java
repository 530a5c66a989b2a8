package io.keyline.domain;

import io.keyline.text.Said;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A 5-field cron schedule: {@code minute hour day-of-month month day-of-week}.
 *
 * <p>Each field accepts {@code *}, single values, lists {@code a,b}, ranges {@code a-b} and
 * steps {@code *}{@code /n} and {@code a-b/n}. Months may be written {@code JAN}-{@code DEC}
 * and days of week {@code SUN}-{@code SAT} (case-insensitive); day of week 0 and 7 both mean
 * Sunday. The macros {@code @yearly @annually @monthly @weekly @daily @midnight @hourly} are
 * accepted too.
 *
 * <p>Day matching follows Vixie cron: when both the day-of-month and the day-of-week field are
 * restricted (do not start with {@code *}), a day matches if <em>either</em> matches; otherwise
 * both must match.
 *
 * <p>Ticks are evaluated in local time of the zone of the argument. A tick that falls into a DST
 * gap fires at the shifted instant ({@code 02:30} becomes {@code 03:30} when clocks jump from
 * 02:00 to 03:00); a tick in a DST overlap fires once, at its first occurrence. Searches stop
 * after {@value #SEARCH_YEARS} years, so an impossible expression such as {@code 0 0 30 2 *}
 * yields {@code null} instead of looping.
 */
public final class CronExpression {

    /** How far {@link #next} searches before giving up. */
    public static final int SEARCH_YEARS = 5;

    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

    private final String text;
    private final long minutes;
    private final long hours;
    private final long daysOfMonth;
    private final long months;
    private final long daysOfWeek;
    private final boolean eitherDayMatches;

    private CronExpression(String text, long[] fields, boolean eitherDayMatches) {
        this.text = text;
        this.minutes = fields[0];
        this.hours = fields[1];
        this.daysOfMonth = fields[2];
        this.months = fields[3];
        this.daysOfWeek = fields[4];
        this.eitherDayMatches = eitherDayMatches;
    }

    /** A cron expression that does not parse: what is wrong, as a message said in the language of who shows it. */
    public static final class InvalidCronException extends IllegalArgumentException {
        private final transient Said said;

        InvalidCronException(Said said, Throwable cause) {
            super(said.english(), cause);
            this.said = said;
        }

        InvalidCronException(Said said) {
            this(said, null);
        }

        /** What is wrong; {@link #getMessage()} is its English. */
        public Said said() {
            return said;
        }
    }

    /**
     * Parses a cron expression.
     *
     * @param text five whitespace-separated fields, or a macro such as {@code @daily}
     * @return the parsed expression; {@link #text()} is {@code text} without surrounding blanks
     * @throws IllegalArgumentException with a message naming the expression and the offending field
     */
    public static CronExpression parse(String text) {
        Objects.requireNonNull(text, "text");
        String trimmed = text.strip();
        String expanded = trimmed;
        if (trimmed.startsWith("@")) {
            expanded = MACROS.get(trimmed.toLowerCase(Locale.ROOT));
            if (expanded == null) {
                throw new InvalidCronException(Said.of("core.cron.bad", "\"" + trimmed + "\"",
                        Said.of("core.cron.unknownMacro", trimmed)));
            }
        }
        String[] parts = expanded.isEmpty() ? new String[0] : expanded.split("\\s+");
        if (parts.length != 5) {
            throw new InvalidCronException(Said.of("core.cron.bad", "\"" + trimmed + "\"",
                    Said.of("core.cron.fieldCount", String.valueOf(parts.length))));
        }
        CronField[] kinds = CronField.values();
        long[] masks = new long[5];
        for (int i = 0; i < 5; i++) {
            try {
                masks[i] = kinds[i].parse(parts[i]);
            } catch (InvalidCronException e) {
                throw new InvalidCronException(Said.of("core.cron.bad", "\"" + trimmed + "\"", e.said()), e);
            }
        }
        boolean either = !parts[2].startsWith("*") && !parts[4].startsWith("*");
        return new CronExpression(trimmed, masks, either);
    }

    /** @return the expression as written (without surrounding blanks) */
    public String text() {
        return text;
    }

    /**
     * The first tick strictly after {@code after}, in {@code after}'s zone.
     *
     * @return the tick, or {@code null} if there is none within {@value #SEARCH_YEARS} years
     */
    public ZonedDateTime next(ZonedDateTime after) {
        return search(after, after.toLocalDate().plusYears(SEARCH_YEARS));
    }

    /**
     * The ticks in {@code (fromExclusive, toInclusive]}, ascending, in {@code fromExclusive}'s zone.
     *
     * @param limit the most ticks to return (0 or more)
     */
    public List<ZonedDateTime> ticksBetween(ZonedDateTime fromExclusive, ZonedDateTime toInclusive, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        List<ZonedDateTime> ticks = new ArrayList<>();
        LocalDate end = toInclusive.withZoneSameInstant(fromExclusive.getZone()).toLocalDate().plusDays(2);
        ZonedDateTime tick = fromExclusive;
        while (ticks.size() < limit) {
            tick = search(tick, end);
            if (tick == null || tick.isAfter(toInclusive)) {
                break;
            }
            ticks.add(tick);
        }
        return ticks;
    }

    /** First tick strictly after {@code after} whose local date is not after {@code limit}. */
    private ZonedDateTime search(ZonedDateTime after, LocalDate limit) {
        ZoneId zone = after.getZone();
        LocalDateTime from = after.toLocalDateTime().minus(gapBefore(after)).truncatedTo(ChronoUnit.MINUTES);
        ZonedDateTime best = null;
        LocalDateTime candidate = earliestMatchAtOrAfter(from, limit);
        // Local times map to instants monotonically, except that a time in a gap maps to the
        // time one gap later; so once a candidate passes the best tick's local time, none can beat it.
        while (candidate != null && (best == null || !candidate.isAfter(best.toLocalDateTime()))) {
            ZonedDateTime tick = ZonedDateTime.of(candidate, zone);
            if (tick.isAfter(after) && (best == null || tick.isBefore(best))) {
                best = tick;
            }
            candidate = earliestMatchAtOrAfter(candidate.plusMinutes(1), limit);
        }
        return best;
    }

    /** Length of a DST gap that ended less than its own length before {@code t}, else zero. */
    private static Duration gapBefore(ZonedDateTime t) {
        ZoneOffsetTransition transition = t.getZone().getRules().previousTransition(t.toInstant().plusNanos(1));
        if (transition != null && transition.isGap()
                && t.toInstant().isBefore(transition.getInstant().plus(transition.getDuration()))) {
            return transition.getDuration();
        }
        return Duration.ZERO;
    }

    private LocalDateTime earliestMatchAtOrAfter(LocalDateTime from, LocalDate limit) {
        LocalDate day = from.toLocalDate();
        LocalTime time = from.toLocalTime();
        while (!day.isAfter(limit)) {
            if (!has(months, day.getMonthValue())) {
                day = day.with(TemporalAdjusters.firstDayOfNextMonth());
                time = LocalTime.MIDNIGHT;
                continue;
            }
            if (dayMatches(day)) {
                LocalTime hit = earliestTimeAtOrAfter(time);
                if (hit != null) {
                    return day.atTime(hit);
                }
            }
            day = day.plusDays(1);
            time = LocalTime.MIDNIGHT;
        }
        return null;
    }

    private LocalTime earliestTimeAtOrAfter(LocalTime time) {
        int hour = nextBit(hours, time.getHour());
        if (hour == time.getHour()) {
            int minute = nextBit(minutes, time.getMinute());
            if (minute >= 0) {
                return LocalTime.of(hour, minute);
            }
            hour = nextBit(hours, hour + 1);
        }
        return hour < 0 ? null : LocalTime.of(hour, nextBit(minutes, 0));
    }

    private boolean dayMatches(LocalDate day) {
        boolean dom = has(daysOfMonth, day.getDayOfMonth());
        boolean dow = has(daysOfWeek, day.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : day.getDayOfWeek().getValue());
        return eitherDayMatches ? dom || dow : dom && dow;
    }

    private static boolean has(long mask, int bit) {
        return (mask & (1L << bit)) != 0;
    }

    /** Lowest set bit at or above {@code from}, or -1. */
    private static int nextBit(long mask, int from) {
        if (from > 63) {
            return -1;
        }
        long rest = mask & (-1L << from);
        return rest == 0 ? -1 : Long.numberOfTrailingZeros(rest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CronExpression other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }

    /** The five fields, in order, with their ranges and names (a field's own name is {@code core.cron.field.NAME}). */
    private enum CronField {
        MINUTE(0, 59, List.of()),
        HOUR(0, 23, List.of()),
        DAY_OF_MONTH(1, 31, List.of()),
        MONTH(1, 12, List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")),
        DAY_OF_WEEK(0, 7, List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"));

        /** The field's name in messages. */
        private Said label() {
            return Said.of("core.cron.field." + name());
        }

        private final int min;
        private final int max;
        private final List<String> names;

        CronField(int min, int max, List<String> names) {
            this.min = min;
            this.max = max;
            this.names = names;
        }

        /** Parses one field into a bit mask of its allowed values. */
        long parse(String field) {
            long mask = 0;
            for (String item : field.split(",", -1)) {
                mask |= parseItem(item);
            }
            if (this == DAY_OF_WEEK && has(mask, 7)) {
                mask = (mask & ~(1L << 7)) | 1L;
            }
            return mask;
        }

        private long parseItem(String item) {
            if (item.isEmpty()) {
                throw new InvalidCronException(Said.of("core.cron.emptyElement", label()));
            }
            String range = item;
            int step = 1;
            int slash = item.indexOf('/');
            if (slash >= 0) {
                range = item.substring(0, slash);
                step = parseStep(item, item.substring(slash + 1));
            }
            int from;
            int to;
            if (range.equals("*")) {
                from = min;
                to = this == DAY_OF_WEEK ? 6 : max;
            } else {
                int dash = range.indexOf('-');
                if (dash < 0 && slash >= 0) {
                    throw new InvalidCronException(Said.of("core.cron.stepNeedsRange", label(), "\"" + item + "\"",
                            range + "-" + max + item.substring(slash)));
                }
                from = value(dash < 0 ? range : range.substring(0, dash));
                to = dash < 0 ? from : value(range.substring(dash + 1));
                if (from > to) {
                    throw new InvalidCronException(Said.of("core.cron.backwards", label(), range));
                }
            }
            long mask = 0;
            for (int v = from; v <= to; v += step) {
                mask |= 1L << v;
            }
            return mask;
        }

        private int parseStep(String item, String text) {
            if (!text.matches("[0-9]{1,9}") || Integer.parseInt(text) == 0) {
                throw new InvalidCronException(Said.of("core.cron.badStep", label(), "\"" + item + "\"",
                        "\"" + text + "\""));
            }
            return Integer.parseInt(text);
        }

        private int value(String text) {
            int index = names.indexOf(text.toUpperCase(Locale.ROOT));
            if (index >= 0) {
                return index + min;
            }
            if (!text.matches("[0-9]{1,9}")) {
                throw new InvalidCronException(names.isEmpty()
                        ? Said.of("core.cron.notNumber", label(), "\"" + text + "\"")
                        : Said.of("core.cron.notNumberOrName", label(), "\"" + text + "\"", names.get(0)));
            }
            int value = Integer.parseInt(text);
            if (value < min || value > max) {
                throw new InvalidCronException(Said.of("core.cron.outOfRange", label(), String.valueOf(value),
                        String.valueOf(min), String.valueOf(max)));
            }
            return value;
        }
    }
}
