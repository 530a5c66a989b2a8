package io.keyline.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class CronExpressionTest {

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static ZonedDateTime at(String local, ZoneId zone) {
        return ZonedDateTime.of(LocalDateTime.parse(local), zone);
    }

    private static ZonedDateTime utc(String local) {
        return at(local, UTC);
    }

    private static ZonedDateTime next(String cron, ZonedDateTime after) {
        return CronExpression.parse(cron).next(after);
    }

    @ParameterizedTest(name = "{0} after {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "0 9 * * *             | 2026-11-29T08:59    | 2026-11-29T09:00",
            "0 9 * * *             | 2026-11-29T09:00    | 2026-11-30T09:00",
            "0 9 * * *             | 2026-11-29T09:00:30 | 2026-11-30T09:00",
            "*/15 9-17 * * MON-FRI | 2026-11-27T17:50    | 2026-11-30T09:00",
            "*/15 9-17 * * MON-FRI | 2026-11-30T09:14    | 2026-11-30T09:15",
            "5-20/5 * * * *        | 2026-11-29T10:20    | 2026-11-29T11:05",
            "0 0 31 * *            | 2026-01-31T00:00    | 2026-03-31T00:00",
            "59 23 31 12 *         | 2026-01-01T00:00    | 2026-12-31T23:59",
            "0 0 1 jan,Jul *       | 2026-02-01T00:00    | 2026-07-01T00:00",
            "0 0 * * 7             | 2026-11-25T00:00    | 2026-11-29T00:00",
            "0 0 * * 0             | 2026-11-25T00:00    | 2026-11-29T00:00",
            "0 0 * * sun           | 2026-11-25T00:00    | 2026-11-29T00:00",
            "0 0 * * 5-7           | 2026-11-28T00:00    | 2026-11-29T00:00",
            "0 12 29 2 *           | 2025-03-01T00:00    | 2028-02-29T12:00",
            "@yearly               | 2026-06-15T00:00    | 2027-01-01T00:00",
            "@annually             | 2026-06-15T00:00    | 2027-01-01T00:00",
            "@monthly              | 2026-11-29T00:00    | 2026-12-01T00:00",
            "@weekly               | 2026-11-25T00:00    | 2026-11-29T00:00",
            "@daily                | 2026-11-29T00:00    | 2026-11-30T00:00",
            "@midnight             | 2026-11-29T13:00    | 2026-11-30T00:00",
            "@HOURLY               | 2026-11-29T13:00    | 2026-11-29T14:00",
    })
    void nextIsTheFirstTickStrictlyAfter(String cron, String after, String expected) {
        assertThat(next(cron, utc(after))).isEqualTo(utc(expected));
    }

    @Test
    void bothDayFieldsRestrictedMeansEitherMatches() {
        CronExpression cron = CronExpression.parse("0 0 1 * MON");

        assertThat(cron.ticksBetween(utc("2026-11-25T00:00"), utc("2026-12-10T00:00"), 10)).containsExactly(
                utc("2026-11-30T00:00"), utc("2026-12-01T00:00"), utc("2026-12-07T00:00"));
    }

    @Test
    void starredDayFieldMeansBothMustMatch() {
        assertThat(CronExpression.parse("0 0 * * MON").ticksBetween(utc("2026-11-25T00:00"), utc("2026-12-10T00:00"), 10))
                .containsExactly(utc("2026-11-30T00:00"), utc("2026-12-07T00:00"));
        assertThat(CronExpression.parse("0 0 */10 * MON").ticksBetween(utc("2026-11-01T00:00"), utc("2027-02-28T00:00"), 10))
                .containsExactly(utc("2026-12-21T00:00"), utc("2027-01-11T00:00"), utc("2027-02-01T00:00"));
    }

    @Test
    void tickInSpringForwardGapFiresAtTheShiftedInstant() {
        CronExpression cron = CronExpression.parse("30 2 * * *");

        assertThat(cron.ticksBetween(at("2026-03-28T00:00", BERLIN), at("2026-03-31T00:00", BERLIN), 10)).containsExactly(
                at("2026-03-28T02:30", BERLIN),
                ZonedDateTime.parse("2026-03-29T03:30+02:00[Europe/Berlin]"),
                at("2026-03-30T02:30", BERLIN));
        assertThat(cron.next(ZonedDateTime.parse("2026-03-29T03:10+02:00[Europe/Berlin]")))
                .isEqualTo(ZonedDateTime.parse("2026-03-29T03:30+02:00[Europe/Berlin]"));
    }

    @Test
    void tickInFallBackOverlapFiresOnce() {
        CronExpression cron = CronExpression.parse("30 1 * * *");
        ZonedDateTime firstOneThirty = ZonedDateTime.parse("2026-11-01T01:30-04:00[America/New_York]");

        assertThat(cron.ticksBetween(at("2026-10-31T12:00", NEW_YORK), at("2026-11-02T12:00", NEW_YORK), 10))
                .containsExactly(firstOneThirty, ZonedDateTime.parse("2026-11-02T01:30-05:00[America/New_York]"));
        assertThat(cron.next(firstOneThirty)).isEqualTo(at("2026-11-02T01:30", NEW_YORK));
    }

    @Test
    void frequentTicksAcrossFallBackAreAscendingAndUnique() {
        List<ZonedDateTime> ticks = CronExpression.parse("*/30 * * * *")
                .ticksBetween(at("2026-11-01T00:00", NEW_YORK), at("2026-11-01T03:00", NEW_YORK), 100);

        assertThat(ticks).extracting(t -> t.toOffsetDateTime().toString()).containsExactly(
                "2026-11-01T00:30-04:00", "2026-11-01T01:00-04:00", "2026-11-01T01:30-04:00",
                "2026-11-01T02:00-05:00", "2026-11-01T02:30-05:00", "2026-11-01T03:00-05:00");
    }

    @Test
    void ticksBetweenStopsAtTheLimitAndUsesTheStartZone() {
        List<ZonedDateTime> ticks = CronExpression.parse("0 * * * *")
                .ticksBetween(utc("2026-01-01T00:00"), at("2026-01-02T00:00", BERLIN), 3);

        assertThat(ticks).containsExactly(utc("2026-01-01T01:00"), utc("2026-01-01T02:00"), utc("2026-01-01T03:00"));
        assertThat(CronExpression.parse("0 * * * *").ticksBetween(utc("2026-01-01T00:00"), utc("2026-01-01T00:30"), 5))
                .isEmpty();
    }

    @Test
    void impossibleExpressionGivesUpQuickly() {
        CronExpression cron = CronExpression.parse("0 0 30 2 *");

        // a guard against an endless search, not a speed test (a busy machine must not fail it)
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            assertThat(cron.next(utc("2026-01-01T00:00"))).isNull();
            assertThat(cron.ticksBetween(utc("2026-01-01T00:00"), utc("2036-01-01T00:00"), 10)).isEmpty();
        });
    }

    @Test
    void everyMinuteForAYearIsListedWithoutAnEndlessSearch() {
        CronExpression cron = CronExpression.parse("* * * * *");

        // a guard against an endless search, not a speed test (a busy machine must not fail it)
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
                assertThat(cron.ticksBetween(utc("2026-01-01T00:00"), utc("2027-01-01T00:00"), 600_000)).hasSize(525_600));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "0 25 * * *      | bad cron \"0 25 * * *\": hour 25 is out of range 0-23",
            "0 0 * *         | bad cron \"0 0 * *\": cron needs 5 fields, got 4",
            "0 0 * * * *     | bad cron \"0 0 * * * *\": cron needs 5 fields, got 6",
            "60 * * * *      | bad cron \"60 * * * *\": minute 60 is out of range 0-59",
            "0 0 0 * *       | bad cron \"0 0 0 * *\": day-of-month 0 is out of range 1-31",
            "0 0 1 13 *      | bad cron \"0 0 1 13 *\": month 13 is out of range 1-12",
            "0 0 * * 8       | bad cron \"0 0 * * 8\": day-of-week 8 is out of range 0-7",
            "0 0 * FOO *     | bad cron \"0 0 * FOO *\": month \"FOO\" is not a number or a name like JAN",
            "x * * * *       | bad cron \"x * * * *\": minute \"x\" is not a number",
            "*/0 * * * *     | bad cron \"*/0 * * * *\": minute \"*/0\": step \"0\" must be a whole number of at least 1",
            "5/15 * * * *    | bad cron \"5/15 * * * *\": minute \"5/15\": a step needs * or a range (like 5-59/15)",
            "0 17-9 * * *    | bad cron \"0 17-9 * * *\": hour range 17-9 is backwards",
            "1,,2 * * * *    | bad cron \"1,,2 * * * *\": minute has an empty list element",
            "@often          | bad cron \"@often\": unknown macro @often (known: @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly)",
    })
    void badExpressionsAreRejectedWithPreciseMessages(String cron, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> CronExpression.parse(cron)).withMessage(message);
    }

    @Test
    void emptyExpressionHasNoFields() {
        assertThatIllegalArgumentException().isThrownBy(() -> CronExpression.parse("  "))
                .withMessage("bad cron \"\": cron needs 5 fields, got 0");
    }

    @Test
    void equalityFollowsTheText() {
        CronExpression a = CronExpression.parse(" 0 9 * * * ");

        assertThat(a).isEqualTo(CronExpression.parse("0 9 * * *")).hasSameHashCodeAs(CronExpression.parse("0 9 * * *"));
        assertThat(a).isNotEqualTo(CronExpression.parse("0 9 * * 0-6"));
        assertThat(a.text()).isEqualTo("0 9 * * *");
        assertThat(a).hasToString("0 9 * * *");
    }
}
