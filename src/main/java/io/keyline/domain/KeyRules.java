package io.keyline.domain;

import io.keyline.text.Said;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.IsoFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rules for idempotency keys: validation and normalization, ordering, ranges, and the key of a
 * point in time.
 *
 * <p>Date, week and month keys ({@code 2026-11-29}, {@code 2026-W48}, {@code 2026-11}) are
 * ordered chronologically; manual keys ({@code [A-Za-z0-9][A-Za-z0-9._-]{0,127}}) have no order
 * except for {@link #compare}, which sorts them lexicographically. Only {@link #normalize} and
 * {@link #range} apply the job's {@code key.start}; the other methods accept any well-formed key.
 */
public final class KeyRules {

    /** Longest manual key. */
    public static final int MAX_MANUAL_LENGTH = 128;

    /** Most keys {@link #range(KeySpec, String, String)} returns. */
    public static final int DEFAULT_RANGE_CAP = 1_000_000;

    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    private static final Pattern WEEK = Pattern.compile("([0-9]{4})-[Ww]([0-9]{2})");
    private static final Pattern MONTH = Pattern.compile("([0-9]{4})-([0-9]{2})");
    private static final Pattern MANUAL_FIRST_CHAR = Pattern.compile("[A-Za-z0-9]");
    private static final Pattern MANUAL_CHAR = Pattern.compile("[A-Za-z0-9._-]");

    private KeyRules() {
    }

    /**
     * Validates a key and returns its canonical form (week keys with an upper-case {@code W}).
     *
     * @throws InvalidKeyException if the key is malformed or, for ordered types, before {@code key.start}
     */
    public static String normalize(KeySpec spec, String raw) {
        if (spec.type() == KeyType.MANUAL) {
            checkManual(raw);
            return raw;
        }
        LocalDate first = parse(spec.type(), raw);
        checkStart(spec, raw, first);
        return format(spec.type(), first);
    }

    /** {@link #range(KeySpec, String, String, int)} with a cap of {@value #DEFAULT_RANGE_CAP} keys. */
    public static List<String> range(KeySpec spec, String from, String to) {
        return range(spec, from, to, DEFAULT_RANGE_CAP);
    }

    /**
     * Every key from {@code from} to {@code to}, both included, ascending and normalized.
     *
     * @param maxKeys the most keys the range may hold
     * @throws InvalidKeyException if a bound is invalid or before {@code key.start}, {@code from} is
     *                             after {@code to}, the range holds more than {@code maxKeys} keys, or
     *                             the keys are manual
     */
    public static List<String> range(KeySpec spec, String from, String to, int maxKeys) {
        requireOrdered(spec);
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be at least 1, got " + maxKeys);
        }
        LocalDate first = firstDay(spec, normalize(spec, from));
        LocalDate last = firstDay(spec, normalize(spec, to));
        if (first.isAfter(last)) {
            throw new InvalidKeyException(InvalidKeyException.Problem.RANGE_BACKWARDS, Said.of("core.key.RANGE_BACKWARDS", from, to), from, to);
        }
        long count = unit(spec.type()).between(first, last) + 1;
        if (count > maxKeys) {
            throw new InvalidKeyException(InvalidKeyException.Problem.RANGE_TOO_LONG, Said.of("core.key.RANGE_TOO_LONG",
                    format(spec.type(), first), format(spec.type(), last), Long.toString(count),
                    Integer.toString(maxKeys)), format(spec.type(), first), format(spec.type(), last),
                    Long.toString(count), Integer.toString(maxKeys));
        }
        List<String> keys = new ArrayList<>((int) count);
        for (LocalDate d = first; !d.isAfter(last); d = d.plus(1, unit(spec.type()))) {
            keys.add(format(spec.type(), d));
        }
        return keys;
    }

    /**
     * The key of the date, week or month that contains {@code t} in the job's zone.
     *
     * @throws IllegalArgumentException for manual keys, which do not derive from time
     */
    public static String keyAt(KeySpec spec, ZonedDateTime t) {
        if (spec.type() == KeyType.MANUAL) {
            throw new IllegalArgumentException("manual keys do not derive from time");
        }
        LocalDate day = t.withZoneSameInstant(spec.zone()).toLocalDate();
        return format(spec.type(), startOf(spec.type(), day));
    }

    /** The key of now; see {@link #keyAt}. */
    public static String current(KeySpec spec, Clock clock) {
        return keyAt(spec, ZonedDateTime.now(clock));
    }

    /**
     * Orders two keys: chronologically for date, week and month keys, lexicographically for manual keys.
     *
     * @throws InvalidKeyException if an ordered key is malformed
     */
    public static int compare(KeySpec spec, String a, String b) {
        if (spec.type() == KeyType.MANUAL) {
            return a.compareTo(b);
        }
        return parse(spec.type(), a).compareTo(parse(spec.type(), b));
    }

    /**
     * The key after {@code key} (the next day, week or month).
     *
     * @throws InvalidKeyException if the key is malformed or manual
     */
    public static String next(KeySpec spec, String key) {
        return format(spec.type(), firstDay(spec, key).plus(1, unit(spec.type())));
    }

    /**
     * The key before {@code key} (the previous day, week or month); may lie before {@code key.start}.
     *
     * @throws InvalidKeyException if the key is malformed or manual
     */
    public static String previous(KeySpec spec, String key) {
        return format(spec.type(), firstDay(spec, key).minus(1, unit(spec.type())));
    }

    /**
     * The first day of the key's date, week (its Monday) or month.
     *
     * @throws InvalidKeyException if the key is malformed or manual
     */
    public static LocalDate firstDay(KeySpec spec, String key) {
        requireOrdered(spec);
        return parse(spec.type(), key);
    }

    private static void requireOrdered(KeySpec spec) {
        if (spec.type() == KeyType.MANUAL) {
            throw new InvalidKeyException(InvalidKeyException.Problem.NO_ORDER, Said.of("core.key.NO_ORDER"));
        }
    }

    private static void checkStart(KeySpec spec, String raw, LocalDate first) {
        if (spec.start() != null && first.isBefore(parse(spec.type(), spec.start()))) {
            throw new InvalidKeyException(InvalidKeyException.Problem.BEFORE_START, Said.of("core.key.BEFORE_START", raw,
                    spec.start()), raw, spec.start());
        }
    }

    /** Parses an ordered key into the first day of its period. */
    private static LocalDate parse(KeyType type, String raw) {
        Objects.requireNonNull(raw, "key");
        return switch (type) {
            case DATE -> parseDate(raw);
            case WEEK -> parseWeek(raw);
            case MONTH -> parseMonth(raw);
            case MANUAL -> throw new IllegalStateException("manual keys are not parsed");
        };
    }

    private static LocalDate parseDate(String raw) {
        LocalDate date = DATE.matcher(raw).matches() ? isoDateOrNull(raw) : null;
        if (date == null) {
            throw new InvalidKeyException(InvalidKeyException.Problem.NOT_A_DATE, Said.of("core.key.NOT_A_DATE",
                    quoted(raw)), quoted(raw));
        }
        return date;
    }

    private static LocalDate isoDateOrNull(String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static LocalDate parseWeek(String raw) {
        Matcher m = WEEK.matcher(raw);
        if (!m.matches()) {
            throw new InvalidKeyException(InvalidKeyException.Problem.NOT_A_WEEK, Said.of("core.key.NOT_A_WEEK",
                    quoted(raw)), quoted(raw));
        }
        int year = Integer.parseInt(m.group(1));
        int week = Integer.parseInt(m.group(2));
        LocalDate midYear = LocalDate.of(year, 7, 1);
        long weeks = IsoFields.WEEK_OF_WEEK_BASED_YEAR.rangeRefinedBy(midYear).getMaximum();
        if (week < 1 || week > weeks) {
            throw new InvalidKeyException(InvalidKeyException.Problem.NO_SUCH_WEEK, Said.of("core.key.NO_SUCH_WEEK", raw,
                    Integer.toString(year), Long.toString(weeks)), raw, Integer.toString(year), Long.toString(weeks));
        }
        return midYear.with(IsoFields.WEEK_OF_WEEK_BASED_YEAR, week).with(DayOfWeek.MONDAY);
    }

    private static LocalDate parseMonth(String raw) {
        Matcher m = MONTH.matcher(raw);
        int month = m.matches() ? Integer.parseInt(m.group(2)) : 0;
        if (month < 1 || month > 12) {
            throw new InvalidKeyException(InvalidKeyException.Problem.NOT_A_MONTH, Said.of("core.key.NOT_A_MONTH",
                    quoted(raw)), quoted(raw));
        }
        return LocalDate.of(Integer.parseInt(m.group(1)), month, 1);
    }

    private static void checkManual(String raw) {
        Objects.requireNonNull(raw, "key");
        if (raw.isEmpty()) {
            throw new InvalidKeyException(InvalidKeyException.Problem.EMPTY,
                    Said.of("core.key.EMPTY"));
        }
        if (raw.length() > MAX_MANUAL_LENGTH) {
            throw new InvalidKeyException(InvalidKeyException.Problem.TOO_LONG, Said.of("core.key.TOO_LONG",
                    quoted(raw.substring(0, 20)), Integer.toString(raw.length()), Integer.toString(MAX_MANUAL_LENGTH)),
                    quoted(raw.substring(0, 20)), Integer.toString(raw.length()), Integer.toString(MAX_MANUAL_LENGTH));
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (Character.isISOControl(c)) {
                throw new InvalidKeyException(InvalidKeyException.Problem.CONTROL_CHARACTER, Said.of("core.key.CONTROL_CHARACTER",
                        quoted(raw), String.format(Locale.ROOT, "\\u%04X", (int) c)), quoted(raw));
            }
        }
        if (raw.indexOf('/') >= 0 || raw.indexOf('\\') >= 0) {
            throw new InvalidKeyException(InvalidKeyException.Problem.PATH_SEPARATOR, Said.of("core.key.PATH_SEPARATOR", raw), raw);
        }
        if (raw.contains("..")) {
            throw new InvalidKeyException(InvalidKeyException.Problem.DOT_DOT, Said.of("core.key.DOT_DOT", raw), raw);
        }
        if (!MANUAL_FIRST_CHAR.matcher(raw.substring(0, 1)).matches()) {
            throw new InvalidKeyException(InvalidKeyException.Problem.FIRST_CHARACTER, Said.of("core.key.FIRST_CHARACTER", raw),
                    raw);
        }
        for (int i = 0; i < raw.length(); i++) {
            String c = String.valueOf(raw.charAt(i));
            if (!MANUAL_CHAR.matcher(c).matches()) {
                throw new InvalidKeyException(InvalidKeyException.Problem.CHARACTER, Said.of("core.key.CHARACTER", raw, c), raw,
                        c);
            }
        }
    }

    /** The value with control characters escaped, so that a message prints on one line. */
    private static String quoted(String raw) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            out.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\u%04X", (int) c) : String.valueOf(c));
        }
        return out.toString();
    }

    private static LocalDate startOf(KeyType type, LocalDate day) {
        return switch (type) {
            case WEEK -> day.with(DayOfWeek.MONDAY);
            case MONTH -> day.withDayOfMonth(1);
            case DATE, MANUAL -> day;
        };
    }

    private static ChronoUnit unit(KeyType type) {
        return switch (type) {
            case DATE -> ChronoUnit.DAYS;
            case WEEK -> ChronoUnit.WEEKS;
            case MONTH -> ChronoUnit.MONTHS;
            case MANUAL -> throw new InvalidKeyException(InvalidKeyException.Problem.NO_ORDER, Said.of("core.key.NO_ORDER"));
        };
    }

    private static String format(KeyType type, LocalDate first) {
        return switch (type) {
            case WEEK -> String.format(Locale.ROOT, "%04d-W%02d",
                    first.get(IsoFields.WEEK_BASED_YEAR), first.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case MONTH -> String.format(Locale.ROOT, "%04d-%02d", first.getYear(), first.getMonthValue());
            case DATE, MANUAL -> first.toString();
        };
    }
}
